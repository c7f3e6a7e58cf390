"""Check 7: the fork installs and its API loads once installed (issue 25, class 4).

``pip install --no-deps`` of the tree into a scratch venv that sees the verification environment's packages (its
dependencies) through a ``.pth`` file, then, from a neutral folder, import every root module and read every
public name of it (``__all__``, else ``dir()``, which asks a module ``__dir__``: lazily loaded names too). Run on
the original for the baseline (failures there do not count) and on a fork only when its build files
(``pyproject.toml``, ``setup.py``, ``setup.cfg``) differ from the original's: the packaging batch, whose version
change a failure restores. A project without build files is not checked (the check reports so).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from slimfork.verify.env import VerifyEnv, stub_dir
from slimfork.verify.model import Baseline, CheckResult

BUILD_FILES = ("pyproject.toml", "setup.py", "setup.cfg")
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
        note = f"installed; {len(self.modules)} root modules imported and their public names read"
        if broken:
            note += "; failing in the original too (not counted): " + "; ".join(broken[:3])
        return Baseline(self.name, True, {"failures": set(broken), "build": build_digest(original)}, note,
                        time.monotonic() - start)

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
        paths = tuple(p for p in BUILD_FILES if (Path(fork) / p).is_file())
        return CheckResult(self.name, not failures, tuple(failures), paths if failures else (),
                           time.monotonic() - start)

    def install_and_probe(self, tree: Path) -> dict | str:
        """The probe's result, or why the install failed."""
        scratch = Path(tempfile.mkdtemp(prefix="slimfork-install-"))
        try:
            venv = scratch / "venv"
            made = subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], capture_output=True,
                                  text=True)
            if made.returncode != 0:
                return f"cannot create a venv: {made.stderr.strip()[-300:]}"
            python = venv / "bin" / "python"
            site = _site_dir(python)
            deps = _site_dirs(self.env.python)
            # after the venv's own site-packages, with their .pth files (editable installs of dependencies)
            (Path(site) / "_slimfork_deps.pth").write_text(f"import site; list(map(site.addsitedir, {deps!r}))\n")
            src = scratch / "src"  # a copy: the build writes build/ and *.egg-info into the tree
            shutil.copytree(tree, src, ignore=shutil.ignore_patterns(".git", "__pycache__", "build", "*.egg-info"))
            isolation = ["--no-build-isolation"] if _backend_here(src) else []
            pip = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
                                  "--no-input", "--quiet", "--disable-pip-version-check", *isolation, str(src)],
                                 capture_output=True, text=True, timeout=self.timeout, env=_clean_env())
            if pip.returncode != 0:
                return "pip: " + " | ".join(pip.stderr.strip().splitlines()[-4:])[-600:]
            env = {**_clean_env(), **self.env.env}
            if self.env.stubs:  # the [verify] stubs, as for the other checks (a sitecustomize, no tree there)
                env["PYTHONPATH"] = str(stub_dir(self.env.stubs))
            probe = subprocess.run([str(python), "-c", _PROBE, *self.modules], capture_output=True, text=True,
                                   timeout=self.timeout, cwd=scratch, env=env)
            for line in probe.stdout.splitlines():
                if line.startswith("SLIMFORK-PROBE "):
                    return json.loads(line[len("SLIMFORK-PROBE "):])
            return "the import probe crashed: " + " | ".join(probe.stderr.strip().splitlines()[-3:])
        except subprocess.TimeoutExpired:
            return f"timed out after {self.timeout} s"
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


def _backend_here(tree: Path) -> bool:
    """Every build requirement is importable here (setuptools, usually): build without an isolated env (faster,
    and no download)."""
    import importlib.util
    import re
    import tomllib

    try:
        data = tomllib.loads((tree / "pyproject.toml").read_text(encoding="utf-8"))
        requires = data.get("build-system", {}).get("requires", ["setuptools"])
    except FileNotFoundError:
        requires = ["setuptools"]
    except (OSError, ValueError):
        return False
    if any(r.strip().lower().startswith("setuptools") for r in requires):
        requires = [*requires, "wheel"]  # setuptools before 70.1 builds wheels with it
    for req in requires:
        name = re.match(r"[A-Za-z0-9_.-]+", req)
        if name is None or importlib.util.find_spec(name.group(0).replace("-", "_").lower()) is None:
            return False
    return True


def builds(tree: Path) -> bool:
    return (Path(tree) / "pyproject.toml").is_file() or (Path(tree) / "setup.py").is_file()


def build_digest(tree: Path) -> str:
    h = hashlib.blake2b(digest_size=12)
    for name in BUILD_FILES:
        path = Path(tree) / name
        h.update(name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"-") + b"\0")
    return h.hexdigest()


def _failures(outcome: dict) -> list[str]:
    out = []
    for module, found in sorted(outcome.items()):
        if found["import"]:
            out.append(f"installed, import {module} fails: {found['import']}")
        out += [f"installed, {module}.{name} fails: {why}" for name, why in sorted(found["names"].items())]
    return out


def _site_dir(python: Path) -> str:
    return subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()


def _site_dirs(python: Path) -> list[str]:
    code = "import site, sys, json; print(json.dumps([p for p in sys.path if p.endswith('-packages')]))"
    proc = subprocess.run([str(python), "-c", code], capture_output=True, text=True, env=_clean_env())
    return json.loads(proc.stdout) if proc.returncode == 0 else []


def _clean_env() -> dict[str, str]:
    import os

    drop = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PIP_REQUIRE_VIRTUALENV")
    return {k: v for k, v in os.environ.items() if k not in drop}
