"""Python files that build the project (``setup.py``, pyproject build hooks, an in-tree backend): pip runs them to
install the fork, so they are roots of the shrink and of the audit."""

from __future__ import annotations

import configparser
import posixpath
import tomllib
from pathlib import Path


def build_scripts(root: Path, python_paths: list[str]) -> dict[str, str]:
    """Python files that build the project: ``setup.py`` beside a pyproject/setup.cfg or at the root, and
    build hooks a pyproject names (hatch ``hooks.custom.path``, an in-tree ``backend-path`` backend)."""
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
