"""What installing a tree costs a user, reported and never compared: the files and bytes ``pip install`` writes
(its RECORD, bytecode included: pip compiles at install) and how long named modules take to import, each the
median of a few fresh processes run from an empty folder in the verification environment (``slimfork installed``).
Original and fork are installed side by side and their imports interleaved, so a machine that gets busier halfway
slows both alike."""

from __future__ import annotations

import statistics
import subprocess
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path

from slimfork.verify.env import VerifyEnv
from slimfork.verify.installed import Installed, InstallError, installed

_TIMER = ("import importlib, sys, time\nt = time.perf_counter()\nimportlib.import_module(sys.argv[1])\n"
          "print('SLIMFORK-IMPORT', time.perf_counter() - t)\n")


@dataclass
class ImportTime:
    seconds: list[float] = field(default_factory=list)
    error: str | None = None  # the last lines of stderr of a failed import

    @property
    def median(self) -> float | None:
        return statistics.median(self.seconds) if self.seconds and self.error is None else None


@dataclass
class TreeNumbers:
    tree: str
    error: str | None = None  # why it does not install
    name: str = ""
    version: str = ""
    scripts: dict[str, str] = field(default_factory=dict)
    files: int = 0
    bytes: int = 0
    pyc_files: int = 0
    pyc_bytes: int = 0
    imports: dict[str, ImportTime] = field(default_factory=dict)

    def to_dict(self) -> dict:
        data = asdict(self)
        for module, timing in self.imports.items():
            data["imports"][module]["median"] = timing.median
        return data


def measure_installed(trees: dict[str, Path], env: VerifyEnv, modules: list[str], runs: int = 3,
                      timeout: float = 600) -> dict[str, TreeNumbers]:
    """Install each tree (``{"original": ..., "fork": ...}``) and measure it; a tree that does not install says why."""
    out = {label: TreeNumbers(str(tree)) for label, tree in trees.items()}
    with ExitStack() as stack:
        ready: dict[str, Installed] = {}
        for label, tree in trees.items():
            try:
                ready[label] = stack.enter_context(installed(tree, env.python, timeout))
            except InstallError as exc:
                out[label].error = str(exc)
        for label, inst in ready.items():
            size, meta = inst.size(), inst.metadata()
            numbers = out[label]
            numbers.name, numbers.version, numbers.scripts = meta.get("name", ""), meta.get("version", ""), \
                meta.get("scripts", {})
            numbers.files, numbers.bytes, numbers.pyc_files, numbers.pyc_bytes = \
                size.files, size.bytes, size.pyc_files, size.pyc_bytes
        for module in modules:
            for _ in range(runs):
                for label, inst in ready.items():
                    timing = out[label].imports.setdefault(module, ImportTime())
                    if timing.error is None:
                        _time_import(inst, env, module, timing, timeout)
    return out


def _time_import(inst: Installed, env: VerifyEnv, module: str, timing: ImportTime, timeout: float) -> None:
    proc_env = env.process_env(None)
    proc_env["VIRTUAL_ENV"] = str(inst.venv)
    del proc_env["PYTHONDONTWRITEBYTECODE"]  # as a user runs it: the bytecode pip compiled is used
    try:
        proc = subprocess.run([str(inst.python), "-c", _TIMER, module], capture_output=True, text=True,
                              cwd=inst.work, env=proc_env, timeout=timeout)
    except subprocess.TimeoutExpired:
        timing.error = f"timed out after {timeout} s"
        return
    found = [line.split()[1] for line in proc.stdout.splitlines() if line.startswith("SLIMFORK-IMPORT ")]
    if proc.returncode != 0 or not found:
        timing.error = " | ".join(proc.stderr.strip().splitlines()[-3:]) or f"exit {proc.returncode}"
    else:
        timing.seconds.append(round(float(found[-1]), 3))
