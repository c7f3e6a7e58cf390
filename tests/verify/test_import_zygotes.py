"""The import server forks each module's child from a zygote that imported its ancestor packages (issue #30).

What a module's import gives must be what a fresh interpreter gives: the same outcome, error, frames and loaded
files, for packages whose import fails, hangs or starts a thread, and for modules that time out or print.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from slimfork.verify import importer

PROJECT = {
    "pkg/__init__.py": "import os\nBASE = 1\n",
    "pkg/sub/__init__.py": "from pkg import BASE\nprint('sub imported')\nCOUNT = [0]\n",
    "pkg/sub/a.py": "from pkg.sub import COUNT\nCOUNT[0] += 1\nassert COUNT[0] == 1, 'imported twice'\n",
    "pkg/sub/b.py": "from pkg.sub import COUNT\nCOUNT[0] += 1\nassert COUNT[0] == 1, 'a leaked into b'\n",
    "pkg/sub/slow.py": "import time\ntime.sleep(30)\n",
    "pkg/sub/c.py": "import pkg.sub.a\n",
    "pkg/sub/deep/__init__.py": "",
    "pkg/sub/deep/leaf.py": "import sys\nassert 'pkg.sub.a' not in sys.modules\n",
    "pkg/broken/__init__.py": "import pkg.sub\nraise ImportError('broken package')\n",
    "pkg/broken/mod.py": "X = 1\n",
    "pkg/threaded/__init__.py": "import threading, time\n"
                                "threading.Thread(target=time.sleep, args=(5,), daemon=True).start()\n",
    "pkg/threaded/mod.py": "import threading\nassert threading.active_count() == 2, threading.active_count()\n",
    "pkg/hangs/__init__.py": "import time\ntime.sleep(30)\n",
    "pkg/hangs/mod.py": "X = 1\n",
    "pkg/after.py": "import pkg.sub.b\n",
}


def _write(root: Path) -> list[str]:
    for rel, text in PROJECT.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    names = [rel[:-3].replace("/", ".").removesuffix(".__init__") for rel in PROJECT]
    return sorted(names)


def _outcomes(root: Path, modules: list[str], tmp: Path, fresh: bool) -> list[tuple]:
    tmp.mkdir()
    env = {"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}
    raw = importer.import_modules(Path(sys.executable), env, root, modules, 2, 3, ("json",), tmp, fresh=fresh)
    return [(r.module, r.timed_out, r.data and (r.data["ok"], r.data.get("error"), r.data.get("frames"),
                                                  r.data["loaded"])) for r in raw]


def test_zygotes_give_what_fresh_interpreters_give(tmp_path):
    root = tmp_path / "tree"
    modules = _write(root)
    start = time.monotonic()
    served = _outcomes(root, modules, tmp_path / "served", fresh=False)
    assert time.monotonic() - start < 40  # the hanging package and the slow module cost their timeouts, no more
    assert importer._LIVE == set()
    fresh = _outcomes(root, modules, tmp_path / "fresh", fresh=True)
    assert served == fresh
    by_name = {o[0]: o for o in served}
    assert by_name["pkg.sub.b"][2][0] and by_name["pkg.sub.deep.leaf"][2][0]  # a's import did not leak into them
    assert by_name["pkg.threaded.mod"][2][0]  # no zygote forked after the package started its thread
    assert by_name["pkg.broken.mod"][2][:2] == (False, "ImportError: broken package")
    assert by_name["pkg.sub.slow"][1] and by_name["pkg.hangs.mod"][1]
    assert not [p for p in root.rglob("*") if p.name == "__pycache__"]  # bytecode went to the run's folder


def test_a_dead_zygote_is_a_dead_server_and_the_next_module_gets_a_new_one(tmp_path):
    root = tmp_path / "tree"
    _write(root)
    (root / "pkg/sub/killer.py").write_text("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n")
    served = _outcomes(root, ["pkg.sub.a", "pkg.sub.killer", "pkg.sub.b"], tmp_path / "served", fresh=False)
    assert served[0][2][0] and served[2][2][0]
    assert importer._LIVE == set()
