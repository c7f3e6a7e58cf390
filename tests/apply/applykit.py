"""Small real checks and a fixture project for the batch engine's tests (no mocks: the checks parse, import
and run the fixture for real, so bisection is tested on real failures)."""

from __future__ import annotations

import ast
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

from slimfork.decisions import Batch, Edit
from slimfork.verify.model import Baseline, CheckResult


def py_files(root: Path) -> list[str]:
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in (".git", "__pycache__"))
        for name in filenames:
            if name.endswith(".py"):
                out.append(os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/"))
    return sorted(out)


class ParseCheck:
    """Every .py file parses (differential: files that did not parse in the original are ignored)."""

    name, cost = "parses", 1
    cache_key, cache_baseline = "parse-v1", True

    def __init__(self):
        self.runs = 0

    def _broken(self, root: Path) -> dict[str, str]:
        broken = {}
        for rel in py_files(root):
            try:
                ast.parse((root / rel).read_bytes(), rel)
            except SyntaxError as exc:
                broken[rel] = f"{rel}:{exc.lineno}: {exc.msg}"
        return broken

    def baseline(self, original: Path) -> Baseline:
        return Baseline(self.name, True, data=sorted(self._broken(original)))

    def run(self, fork: Path, baseline: Baseline) -> CheckResult:
        self.runs += 1
        new = {k: v for k, v in self._broken(fork).items() if k not in baseline.data}
        return CheckResult(self.name, not new, tuple(new.values()), tuple(new))


def _import_in_child(root: Path, name: str) -> str | None:
    """Import ``name`` from ``root`` in a forked child process; the error it printed, or None if it imported."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: a fresh import of the fixture, then exit without returning into pytest
        code = 0
        try:
            os.close(read)
            top = name.split(".")[0]
            for loaded in [m for m in sys.modules if m == top or m.startswith(top + ".")]:
                del sys.modules[loaded]
            sys.dont_write_bytecode = True
            sys.path.insert(0, str(root))
            importlib.invalidate_caches()
            importlib.import_module(name)
        except BaseException as exc:
            code = 1
            os.write(write, f"{name}: {type(exc).__name__}: {exc}".encode())
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as fh:
        message = fh.read().decode()
    _, status = os.waitpid(pid, 0)
    return None if os.waitstatus_to_exitcode(status) == 0 else message or f"{name}: does not import"


def _module_path(root: Path, module: str) -> str:
    base = module.replace(".", "/")
    return f"{base}/__init__.py" if (root / base).is_dir() else f"{base}.py"


class ImportCheck:
    """Each named module imports (each in a forked child process) wherever it imported in the original."""

    name, cost = "imports", 10
    cache_baseline = True

    def __init__(self, modules: list[str]):
        self.modules = sorted(modules)
        self.cache_key = ",".join(self.modules)
        self.runs = 0

    def _imports(self, root: Path) -> dict[str, str | None]:
        return {name: _import_in_child(root, name) for name in self.modules}

    def baseline(self, original: Path) -> Baseline:
        ok = {name: error is None for name, error in self._imports(original).items()}
        return Baseline(self.name, any(ok.values()), data=sorted(m for m, v in ok.items() if v),
                        note="" if any(ok.values()) else "no module imports in the original")

    def run(self, fork: Path, baseline: Baseline) -> CheckResult:
        self.runs += 1
        errors = self._imports(fork)
        lost = [m for m in baseline.data if errors.get(m)]
        failures = tuple(errors[m] for m in lost)
        return CheckResult(self.name, not lost, failures, tuple(_module_path(fork, m) for m in lost))


class CommandCheck:
    """A command prints the same output and exit code in the fork as in the original."""

    cost, cache_baseline = 20, True

    def __init__(self, name: str, argv: list[str]):
        self.name, self.argv = name, argv
        self.cache_key = json.dumps(argv)
        self.runs = 0

    def _run(self, root: Path) -> tuple[int, str]:
        env = dict(os.environ, PYTHONPATH=str(root), PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
        proc = subprocess.run(self.argv, cwd=root, env=env, capture_output=True, text=True, timeout=60)
        return proc.returncode, proc.stdout

    def baseline(self, original: Path) -> Baseline:
        code, stdout = self._run(original)
        return Baseline(self.name, code == 0, data=(code, stdout), note="" if code == 0 else f"exit code {code}")

    def run(self, fork: Path, baseline: Baseline) -> CheckResult:
        self.runs += 1
        code, stdout = self._run(fork)
        if (code, stdout) == tuple(baseline.data):
            return CheckResult(self.name, True)
        return CheckResult(self.name, False, (f"{' '.join(self.argv)}: exit {code}, output {stdout[:80]!r} "
                                              f"instead of {baseline.data[1][:80]!r}",))


FIXTURE = {
    "app/__init__.py": "",
    "app/core.py": "def answer():\n    return 42\n",
    "app/util.py": "from app.core import answer\n\n\ndef double():\n    return 2 * answer()\n",
    "app/__main__.py": "from app.util import double\n\nprint(double())\n",
    "app/plugins/__init__.py": "",
    "app/plugins/a.py": "X = 1\n",
    "app/plugins/b.py": "from app.plugins import a\n\nY = a.X + 1\n",
    "app/compat.py": "try:\n    from app import fast as impl\nexcept ImportError:\n    from app import slow as impl\n",
    "app/fast.py": "SPEED = 'fast'\n",
    "app/slow.py": "SPEED = 'slow'\n",
    "app/unused.py": "U = 1\n",
    "app/old/__init__.py": "",
    "app/old/legacy.py": "L = 1\n",
    "app/crlf.py": "A = 1\r\nB = 2\r\n",
    "data/config.json": '{"k": 1}\n',
    "data/notes.txt": "kept by .gitignore rules of the source? no: always copied\n",
    "bin/run.sh": "#!/bin/sh\npython -m app\n",
    ".gitignore": "*.txt\n*.json\n",
    ".gitattributes": "* text eol=crlf\n",
}


def make_fixture(root: Path) -> Path:
    for rel, text in FIXTURE.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode())
    os.chmod(root / "bin/run.sh", 0o755)
    os.symlink("app/core.py", root / "core_link.py")
    os.symlink("app/plugins", root / "plugins_link")
    return root


def fixture_checks() -> list:
    return [ParseCheck(), ImportCheck(["app.util", "app.plugins.b", "app.compat", "app.core"]),
            CommandCheck("cli", [sys.executable, "-m", "app"])]


def fixture_batches() -> list[Batch]:
    """Three batches, each with culprits of a different check kind among edits that are safe."""
    d = lambda p, why="nothing imports it": Edit(p, None, why, "unreachable")  # noqa: E731
    return [
        Batch("dropped", "Paths the spec drops.", [
            Edit("app/unused.py", None, "spec drops it", "dropped"),
            Edit("app/old/legacy.py", None, "spec drops it", "dropped"),
            Edit("app/old/__init__.py", None, "spec drops it", "dropped"),
            Edit("app/plugins/a.py", None, "spec drops it", "dropped"),  # culprit: b imports it
            Edit("data/notes.txt", None, "spec drops it", "dropped"),
        ]),
        Batch("folded", "Files rewritten by folding.", [
            Edit("app/util.py", b"from app.core import answer\n\ndef double(:\n", "folded is_hip()", "folded"),
            Edit("app/crlf.py", b"A = 1\r\n", "folded B", "folded"),
            Edit("app/core.py", b"def answer():\n    return 42  # folded\n", "folded comment", "folded"),
        ]),
        Batch("unreachable", "Modules nothing kept imports.", [
            d("app/fast.py"), d("app/slow.py"), d("app/__main__.py"),  # __main__ is the cli check's culprit
        ]),
    ]


def snapshot(root: Path) -> dict[str, tuple]:
    """Every file and symlink under ``root`` (outside .git): bytes, executable bit, link target."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != ".git")
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            if os.path.islink(full):
                out[rel] = ("link", os.readlink(full))
            else:
                out[rel] = ("file", Path(full).read_bytes(), bool(os.stat(full).st_mode & 0o100))
    return out
