"""Check 7: the fork installs and its API loads once installed (issue 25, class 4).

``pip install --no-deps`` of the tree into a scratch venv that sees the verification environment's packages (its
dependencies) through a ``.pth`` file, then, from a neutral folder, import every root module and read every
public name of it (``__all__``, else ``dir()``, which asks a module ``__dir__``: lazily loaded names too). Run on
the original for the baseline (failures there do not count) and on a fork only when its build files
(``pyproject.toml``, ``setup.py``, ``setup.cfg``) differ from the original's, or when a file or folder they name
(a package folder, a cmdclass module, a version file) is gone: the packaging batch, whose version change a
failure restores, or a batch that deleted what the build needs. A project without build files is not checked
(the check reports so).
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from slimfork.verify.env import VerifyEnv, stub_dir
from slimfork.verify.installed import BUILD_FILES, InstallError, build_digest, build_named, clean_env, installed
from slimfork.verify.model import Baseline, CheckResult
from slimfork.progress import counted

_PROBE = r"""
import importlib, json, sys
out = {}
for name in sys.argv[1:]:
    try:
        mod = importlib.import_module(name)
    except BaseException as exc:
        out[name] = {"import": f"{type(exc).__name__}: {exc}"[:300], "names": {}}
        continue
    names = getattr(mod, "__all__", None)
    names = list(names) if isinstance(names, (list, tuple)) else [n for n in dir(mod) if not n.startswith("_")]
    failed = {}
    for attr in names:
        try:
            getattr(mod, attr)
        except BaseException as exc:
            failed[str(attr)] = f"{type(exc).__name__}: {exc}"[:300]
    out[name] = {"import": None, "names": failed}
print("SLIMFORK-PROBE " + json.dumps(out))
"""


class InstallCheck:
    name = "install"
    cost = 6
    cache_baseline = True  # its baseline is plain data: reused across runs, profiles and workers

    def __init__(self, env: VerifyEnv, modules: list[str], timeout: int = 600):
        self.env, self.modules, self.timeout = env, sorted(set(modules)), timeout

    def baseline(self, original: Path) -> Baseline:
        start = time.monotonic()
        if not builds(original):
            return Baseline(self.name, False, None, "the project has no pyproject.toml or setup.py: not installed",
                            time.monotonic() - start)
        outcome = self.install_and_probe(original)
        if isinstance(outcome, str):
            return Baseline(self.name, False, None, f"the original does not install: {outcome}",
                            time.monotonic() - start)
        broken = _failures(outcome)
        note = (f"installed; {counted(len(self.modules), 'root module')} imported and "
                f"{'its' if len(self.modules) == 1 else 'their'} public names read")
        if broken:
            note += "; failing in the original too (not counted): " + "; ".join(broken[:3])
        return Baseline(self.name, True, {"failures": set(broken), "build": build_digest(original),
                                          "named": build_named(original)}, note, time.monotonic() - start)

    def run(self, fork: Path, baseline: Baseline) -> CheckResult:
        start = time.monotonic()
        if build_digest(fork) == baseline.data["build"]:
            return CheckResult(self.name, True, seconds=time.monotonic() - start,
                               detail="build files unchanged: the original's install result holds")
        outcome = self.install_and_probe(fork)
        if isinstance(outcome, str):
            failures = [f"the fork does not install: {outcome}"]
        else:
            failures = [f for f in _failures(outcome) if f not in baseline.data["failures"]]
        gone = [p for p in baseline.data.get("named", ()) if not (Path(fork) / p).exists()]
        paths = tuple(gone) + tuple(p for p in BUILD_FILES if (Path(fork) / p).is_file())
        return CheckResult(self.name, not failures, tuple(failures), paths if failures else (),
                           time.monotonic() - start)

    def install_and_probe(self, tree: Path) -> dict | str:
        """The probe's result, or why the install failed."""
        try:
            with installed(tree, self.env.python, self.timeout) as inst:
                env = {**clean_env(), **self.env.env}
                if self.env.stubs:  # the [verify] stubs, as for the other checks (a sitecustomize, no tree there)
                    env["PYTHONPATH"] = str(stub_dir(self.env.stubs))
                probe = subprocess.run([str(inst.python), "-c", _PROBE, *self.modules], capture_output=True,
                                       text=True, timeout=self.timeout, cwd=inst.scratch, env=env)
        except InstallError as exc:
            return str(exc)
        except subprocess.TimeoutExpired:
            return f"timed out after {self.timeout} s"
        for line in probe.stdout.splitlines():
            if line.startswith("SLIMFORK-PROBE "):
                return json.loads(line[len("SLIMFORK-PROBE "):])
        return "the import probe crashed: " + " | ".join(probe.stderr.strip().splitlines()[-3:])


def builds(tree: Path) -> bool:
    return (Path(tree) / "pyproject.toml").is_file() or (Path(tree) / "setup.py").is_file()


def _failures(outcome: dict) -> list[str]:
    out = []
    for module, found in sorted(outcome.items()):
        if found["import"]:
            out.append(f"installed, import {module} fails: {found['import']}")
        out += [f"installed, {module}.{name} fails: {why}" for name, why in sorted(found["names"].items())]
    return out
