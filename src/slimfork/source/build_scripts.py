"""Python files that build the project (``setup.py``, pyproject build hooks, an in-tree backend): pip runs them to
install the fork, so they are roots of the shrink and of the audit."""

from __future__ import annotations

import configparser
import posixpath
import re
import tomllib
from pathlib import Path

_SETUP_IMPORT = re.compile(r"^[ \t]*(from[ \t]+(setuptools|distutils\.core)[ \t]+import[ \t][^\n]*\bsetup\b|import[ \t]+setuptools\b)",
                           re.M)
_SETUP_CALL = re.compile(r"^[ \t]*(setuptools\.)?setup\(", re.M)
_PACKAGES = re.compile(r"\b(packages|py_modules)\s*=")


def calls_setup(text: str) -> bool:
    """Whether a Python file's text imports setuptools' (or distutils') ``setup`` and calls it with packages: the
    build script of a distribution, whatever its name (SeerAttention's ``block_sparse_attention/build.py``). One
    building extensions only (hqq's ``setup_cuda.py``) is a build run by hand."""
    return bool(_SETUP_CALL.search(text) and _SETUP_IMPORT.search(text) and _PACKAGES.search(text))


def named_build_script(folder: Path) -> str | None:
    """The file directly in ``folder``, other than ``setup.py``, that builds a distribution with setuptools'
    ``setup()`` (the first by name), or None."""
    try:
        candidates = sorted(p for p in folder.iterdir() if p.suffix == ".py" and p.name != "setup.py" and p.is_file())
    except OSError:
        return None
    for path in candidates:
        try:
            stat = path.stat()
            key = (str(path), stat.st_mtime_ns, stat.st_size)
            if key not in _CALLS_SETUP:  # the audit asks for every folder several times
                _CALLS_SETUP[key] = calls_setup(path.read_text(errors="replace"))
        except OSError:
            continue
        if _CALLS_SETUP[key]:
            return path.name
    return None


_CALLS_SETUP: dict[tuple[str, int, int], bool] = {}


def build_scripts(root: Path, python_paths: list[str]) -> dict[str, str]:
    """Python files that build the project: ``setup.py`` beside a pyproject/setup.cfg or at the root, and
    build hooks a pyproject names (hatch ``hooks.custom.path``, an in-tree ``backend-path`` backend), and the files
    hatch's ``force-include`` names."""
    out: dict[str, str] = {}
    present = set(python_paths)
    for path in python_paths:
        if posixpath.basename(path) == "setup.py":
            here = posixpath.dirname(path)
            if not here or (root / here / "pyproject.toml").is_file() or (root / here / "setup.cfg").is_file():
                out[path] = "a setuptools build script"
    if (root / "setup.cfg").is_file():
        for path, why in _setup_cfg_sources(root, present).items():
            out.setdefault(path, why)
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        try:
            data = tomllib.loads(pyproject.read_text(errors="replace"))
        except (tomllib.TOMLDecodeError, OSError):
            data = {}
        tool = data.get("tool", {})
        for hook in _hook_paths(tool.get("hatch", {})):
            if hook in present:
                out[hook] = "a hatch build hook (pyproject.toml)"
        for path, why in _version_sources(tool, present).items():
            out.setdefault(path, why)
        for path in _forced(tool.get("hatch") or {}, present):
            out.setdefault(path, FORCED)
        system = data.get("build-system", {})
        backend = str(system.get("build-backend", "")).split(":")[0].replace(".", "/")
        for folder in system.get("backend-path", []) or []:
            for cand in (f"{folder}/{backend}.py", f"{folder}/{backend}/__init__.py"):
                cand = posixpath.normpath(cand)
                if cand in present:
                    out[cand] = "the in-tree build backend (pyproject.toml)"
    return out


def _module_files(module: str, present: set[str]) -> list[str]:
    """The file of a dotted module name, at the root or under ``src/``."""
    path = module.replace(".", "/")
    return [c for c in (f"{base}{path}{tail}" for base in ("", "src/") for tail in (".py", "/__init__.py"))
            if path and c in present]


def _setup_cfg_sources(root: Path, present: set[str]) -> dict[str, str]:
    """``[options] cmdclass = build_py = pkg._build.BuildPy`` and ``[metadata] version = attr: pkg._meta.VERSION``
    of a setup.cfg (setuptools imports or reads that module to build the fork)."""
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(root / "setup.cfg")
    except (configparser.Error, OSError, UnicodeDecodeError):
        return {}
    out: dict[str, str] = {}
    version = parser.get("metadata", "version", fallback="").strip()
    if version.startswith("attr:"):
        attr = version[5:].strip()
        for cand in _module_files(attr.rpartition(".")[0], present):
            out[cand] = f"the version source of setup.cfg's [metadata] (attr: {attr})"
    for line in parser.get("options", "cmdclass", fallback="").splitlines():
        name, _, value = line.partition("=")
        for cand in _module_files(value.strip().rpartition(".")[0], present) if value.strip() else ():
            out.setdefault(cand, f"the command class of setup.cfg's [options] cmdclass ({name.strip()})")
    return out


def _hook_paths(node) -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "custom" and isinstance(value, dict):
                found.append(posixpath.normpath(str(value.get("path", "hatch_build.py"))))
            else:
                found += _hook_paths(value)
    return found


FORCED = "force-included by [tool.hatch.build] (pyproject.toml): the build stops without it"


def _forced(hatch: dict, present: set[str]) -> list[str]:
    """The Python files hatch's ``force-include`` copies into the wheel or the sdist (jupyter_core 5.9.1's
    ``"./jupyter.py" = "jupyter.py"``): "Forced include not found" stops the build of a fork without one."""
    build = hatch.get("build")
    build = build if isinstance(build, dict) else {}
    targets = build.get("targets")
    tables = [build, *(t for t in (targets.values() if isinstance(targets, dict) else ()) if isinstance(t, dict))]
    found = []
    for table in tables:
        forced = table.get("force-include")
        for source in forced if isinstance(forced, dict) else ():
            path = posixpath.normpath(str(source).lstrip("/"))
            if path in present and path not in found:
                found.append(path)
    return found


def _version_sources(tool: dict, present: set[str]) -> dict[str, str]:
    """The Python files the build reads the version from: ``[tool.setuptools.dynamic] version = {attr = "a.b.V"}``,
    ``[tool.hatch.version] path`` and ``[tool.pdm.version] path``; and the command classes it runs:
    ``[tool.setuptools.cmdclass] build_py = "pkg._build.BuildPy"``."""
    out: dict[str, str] = {}
    attr = ((tool.get("setuptools") or {}).get("dynamic") or {}).get("version")
    if isinstance(attr, dict) and isinstance(attr.get("attr"), str):
        for cand in _module_files(attr["attr"].rpartition(".")[0], present):
            out[cand] = f"the version source of [tool.setuptools.dynamic] (attr {attr['attr']})"
    for name, value in ((tool.get("setuptools") or {}).get("cmdclass") or {}).items():
        for cand in _module_files(str(value).rpartition(".")[0], present):
            out.setdefault(cand, f"the command class of [tool.setuptools.cmdclass] ({name} = {value})")
    for table in ("hatch", "pdm"):
        version = (tool.get(table) or {}).get("version")
        if isinstance(version, dict) and isinstance(version.get("path"), str):
            path = posixpath.normpath(version["path"])
            if path in present:
                out[path] = f"the version source of [tool.{table}.version] (pyproject.toml)"
    return out
