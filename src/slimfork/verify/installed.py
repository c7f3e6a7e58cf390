"""A tree installed as a user installs it: ``pip install --no-deps`` into a scratch venv that sees the verification
environment's packages (its dependencies) through a ``.pth`` file.

A tree with build files (``pyproject.toml``, ``setup.py``) is installed as a folder (from a copy: a build writes
``build/`` and ``*.egg-info`` into it). An unpacked wheel (a top-level ``*.dist-info`` with ``WHEEL`` and
``RECORD``: a ``pypi:`` wheel source) has none: it is zipped back into the ``.whl`` it came from and installed, so
the original of a wheel source installs exactly as its users install it. The scratch folder also holds an empty
``work/`` folder to run from, so nothing of the tree is importable but what pip installed.
"""

from __future__ import annotations

import configparser
import csv
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from slimfork.verify.messages import pip_error

BUILD_FILES = ("pyproject.toml", "setup.py", "setup.cfg")
_SKIP = shutil.ignore_patterns(".git", "__pycache__", "build", "*.egg-info")


class InstallError(Exception):
    """The tree does not install; the message says why (pip's error line, messages.pip_error)."""


@dataclass(frozen=True)
class InstallSize:
    files: int  # every file the install wrote (its RECORD), console scripts and compiled .pyc included
    bytes: int
    pyc_files: int  # of which compiled bytecode (pip compiles at install unless told not to)
    pyc_bytes: int


@dataclass(frozen=True)
class Installed:
    scratch: Path  # everything lives here; removed when the context ends
    venv: Path
    site: Path

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    @property
    def bin(self) -> Path:
        return self.venv / "bin"

    @property
    def work(self) -> Path:
        """An empty folder to run from: nothing of the tree is importable from it."""
        return self.scratch / "work"

    def size(self) -> InstallSize:
        """What the install wrote, from the RECORD of every distribution in the scratch venv (there is one)."""
        files = size = pyc = pyc_size = 0
        for record in self.site.glob("*.dist-info/RECORD"):
            with open(record, newline="", encoding="utf-8") as f:
                for row in csv.reader(f):
                    if not row:
                        continue
                    path = (self.site / row[0]).resolve()
                    if not path.is_file():
                        continue
                    n = path.stat().st_size
                    files, size = files + 1, size + n
                    if path.suffix == ".pyc":
                        pyc, pyc_size = pyc + 1, pyc_size + n
        return InstallSize(files, size, pyc, pyc_size)

    def metadata(self) -> dict:
        """Name, version and console scripts of the installed distribution, as its dist-info says."""
        info = next(iter(sorted(self.site.glob("*.dist-info"))), None)
        if info is None:
            return {}
        meta = (info / "METADATA").read_text(encoding="utf-8", errors="replace") if (info / "METADATA").is_file() else ""
        field = {k: re.search(rf"(?m)^{k}: (.*)$", meta) for k in ("Name", "Version")}
        parser = configparser.ConfigParser(delimiters=("=",), interpolation=None)
        parser.optionxform = str  # type: ignore[assignment,method-assign]  # keep the scripts' case
        if (info / "entry_points.txt").is_file():
            parser.read(info / "entry_points.txt", encoding="utf-8")
        scripts = dict(parser["console_scripts"]) if parser.has_section("console_scripts") else {}
        return {"name": field["Name"].group(1).strip() if field["Name"] else "",
                "version": field["Version"].group(1).strip() if field["Version"] else "",
                "scripts": {k: v.strip() for k, v in sorted(scripts.items())}}


def installable(tree: Path) -> str | None:
    """How ``tree`` installs: ``"build"`` (it has build files), ``"wheel"`` (an unpacked wheel), else None."""
    tree = Path(tree)
    if (tree / "pyproject.toml").is_file() or (tree / "setup.py").is_file():
        return "build"
    return "wheel" if _wheel_info(tree) is not None else None


@contextmanager
def installed(tree: Path, deps_python: Path, timeout: float = 600, compile: bool = True) -> Iterator[Installed]:
    """Install ``tree`` in a scratch venv whose dependencies are ``deps_python``'s packages; raise InstallError
    (the reason) if it does not install. ``compile=False`` skips pip's bytecode compilation (faster, for checks)."""
    scratch = Path(tempfile.mkdtemp(prefix="slimfork-install-"))
    try:
        yield _install(Path(tree), Path(deps_python), scratch, timeout, compile)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _install(tree: Path, deps_python: Path, scratch: Path, timeout: float, compile: bool) -> Installed:
    venv = scratch / "venv"
    made = subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], capture_output=True, text=True)
    if made.returncode != 0:
        raise InstallError(f"cannot create a venv: {made.stderr.strip()[-300:]}")
    python = venv / "bin" / "python"
    site = Path(site_dir(python))
    deps = site_dirs(deps_python)
    # after the venv's own site-packages, with their .pth files (editable installs of dependencies)
    deps_pth = f"import site; list(map(site.addsitedir, {deps!r}))\n"
    (scratch / "work").mkdir()
    how = installable(tree)
    env = clean_env()
    if how == "wheel":
        target, isolation = str(_pack_wheel(tree, scratch)), []
    else:
        src = scratch / "src"
        shutil.copytree(tree, src, ignore=_SKIP)
        target, isolation = str(src), (["--no-build-isolation"] if backend_here(src) else [])
        if not (src / "PKG-INFO").is_file():
            env = vcs_version_env(env)
    # a build in place uses the dependencies' backend, so they are on the path first; an isolated build gets them
    # after it: pip's isolated env does not hide them, and their setuptools (65) shadowed the one it installed
    # (whitenoise 6.12.0 asks setuptools>=77: "invalid pyproject.toml config: project.license")
    if isolation or how == "wheel":
        (site / "_slimfork_deps.pth").write_text(deps_pth)
    try:
        pip = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
                              "--no-input", "--quiet", "--disable-pip-version-check", *isolation,
                              *([] if compile else ["--no-compile"]), target],
                             capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        raise InstallError(f"timed out after {timeout} s") from None
    if pip.returncode != 0:
        raise InstallError("pip: " + pip_error(pip.stderr))
    (site / "_slimfork_deps.pth").write_text(deps_pth)
    for leftover in (scratch / "src", scratch / "wheel"):
        shutil.rmtree(leftover, ignore_errors=True)
    return Installed(scratch, venv, site)


def _wheel_info(tree: Path) -> Path | None:
    infos = [p for p in tree.glob("*.dist-info") if (p / "WHEEL").is_file() and (p / "RECORD").is_file()]
    return infos[0] if len(infos) == 1 else None


def _pack_wheel(tree: Path, scratch: Path) -> Path:
    """Zip an unpacked wheel back into ``NAME-VERSION-TAG.whl``: the files its RECORD lists (what pip installs)."""
    info = _wheel_info(tree)
    assert info is not None
    tags = re.findall(r"(?m)^Tag: *(\S+)", (info / "WHEEL").read_text(encoding="utf-8"))
    dist = info.name[: -len(".dist-info")]
    out = scratch / "wheel" / f"{dist}-{tags[0] if tags else 'py3-none-any'}.whl"
    out.parent.mkdir()
    with open(info / "RECORD", newline="", encoding="utf-8") as f:
        names = [row[0] for row in csv.reader(f) if row]
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        for name in names:
            if (tree / name).is_file() and not name.startswith(("/", "..")):
                zf.write(tree / name, name)
    return out


def backend_here(tree: Path) -> bool:
    """Every build requirement is importable here (setuptools, usually), at a version it accepts: build without an
    isolated env (faster, and no download)."""
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
        if not _version_satisfies(req):
            return False
    return True


def _version_satisfies(req: str) -> bool:
    """The installed distribution meets the requirement's version (``setuptools>=77``: whitenoise's and
    bitstruct's SPDX ``project.license`` fails under setuptools 65, and an importable but too old backend made the
    install check "the original does not install"); a requirement it cannot read counts as met (as before)."""
    import importlib.metadata

    from packaging.requirements import InvalidRequirement, Requirement

    try:
        parsed = Requirement(req)
    except InvalidRequirement:
        return True
    if parsed.marker is not None and not parsed.marker.evaluate():
        return True
    if not parsed.specifier:
        return True
    try:
        version = importlib.metadata.version(parsed.name)
    except importlib.metadata.PackageNotFoundError:
        return True  # importable without metadata: what it was before
    return parsed.specifier.contains(version, prereleases=True)


def site_dir(python: Path) -> str:
    return subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()


def site_dirs(python: Path) -> list[str]:
    code = "import site, sys, json; print(json.dumps([p for p in sys.path if p.endswith('-packages')]))"
    proc = subprocess.run([str(python), "-c", code], capture_output=True, text=True, env=clean_env())
    return json.loads(proc.stdout) if proc.returncode == 0 else []


# A version the VCS plugins take instead of asking git: the tree is installed from a copy without .git (and a fork's
# history has none of the original's tags), so setuptools-scm, hatch-vcs and pdm's scm source would fail ("unable
# to detect version"). An sdist's PKG-INFO carries its version and needs none; one the user set is kept.
VCS_STANDIN_VERSION = "0.0.0"
VCS_VERSION_VARS = ("SETUPTOOLS_SCM_PRETEND_VERSION", "PDM_BUILD_SCM_VERSION")


def vcs_version_env(env: dict[str, str]) -> dict[str, str]:
    return {**{var: VCS_STANDIN_VERSION for var in VCS_VERSION_VARS}, **env}


def clean_env() -> dict[str, str]:
    drop = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PIP_REQUIRE_VIRTUALENV")
    return {k: v for k, v in os.environ.items() if k not in drop}


def build_digest(tree: Path) -> str:
    """The build files' contents and which of the paths they name exist."""
    h = hashlib.blake2b(digest_size=12)
    for name in BUILD_FILES:
        path = Path(tree) / name
        h.update(name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"-") + b"\0")
    for rel in build_named(tree):
        h.update(rel.encode() + b"\0")
    return h.hexdigest()


_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./-]*")


def build_named(tree: Path) -> list[str]:
    """The files and folders of ``tree`` its build files name: a word of them that is a path (``src``,
    ``pkg/_version.py``, a glob's folder) or a dotted module (``pkg.build_ext``: ``pkg/build_ext.py``)."""
    root, out = Path(tree), set()
    for name in BUILD_FILES:
        path = root / name
        if not path.is_file():
            continue
        for word in set(_WORD.findall(path.read_text("utf-8", "replace"))):
            word, parts = word.strip("./"), word.strip("./").split(".")
            modules = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]  # pkg.cmds.Build: its module
            for rel in [word] + [f"{base}{m}{end}" for m in modules for base in ("", "src/")
                                 for end in (".py", "/__init__.py")]:
                if rel and rel not in BUILD_FILES and ".." not in rel and (root / rel).exists():
                    out.add(rel)
    return sorted(out)
