"""Run one batch whose check baselines take minutes (a command that sleeps, and an import that sleeps), in
worker threads; the interrupt test stops this process while they run.

Usage: python slow_driver.py SOURCE OUT MARKER [local|ray]   (exit 130 on Ctrl-C or SIGTERM, like the slimfork CLI)
"""

import signal
import sys
from pathlib import Path

signal.signal(signal.SIGINT, signal.default_int_handler)  # see crash_driver.py
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from slimfork.apply.engine import run_batches  # noqa: E402

from slimfork.decisions import Batch, Edit
from slimfork.verify.checks.command import CommandCheck  # noqa: E402
from slimfork.verify.checks.import_modules import ImportModulesCheck  # noqa: E402
from slimfork.verify.env import current_env  # noqa: E402
from slimfork.verify.spec import CommandSpec, ImportModulesSpec  # noqa: E402
from slimfork.verify.tree import TreeLayout  # noqa: E402

if __name__ == "__main__":
    source, out, marker = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    layout, env = TreeLayout("", ("app",)), current_env()
    sleep = f"import time; print('{marker}', flush=True); time.sleep(300)"
    checks = [ImportModulesCheck(layout, env, ImportModulesSpec(modules=("app.slow_import",))),
              CommandCheck(layout, env, CommandSpec("sleep", ("python", "-c", sleep)), out.parent)]
    batch = Batch("unreachable", "Modules nothing imports.", [Edit("app/unused.py", None, "unused", "unreachable")])
    try:
        executor = None
        if sys.argv[4:] == ["ray"]:  # a local Ray cluster: the baselines and the imports run on its workers
            from slimfork.verify.ray_executor import RayExecutor

            executor = RayExecutor(jobs=2)
        run_batches(source, out, [batch], checks, jobs=2, cache=False, executor=executor)
    except KeyboardInterrupt:
        sys.exit(130)
