"""setuptools' package finder as the build configures it: the literal ``include`` and ``exclude`` patterns of
``find_packages(...)`` in ``setup.py``, ``setup.cfg``'s ``[options.packages.find]`` (with ``packages = find:``) or
``pyproject.toml``'s ``[tool.setuptools.packages.find]``. Each is a ``fnmatch`` pattern on a dotted package name."""

from __future__ import annotations

import ast
import configparser
import re
import tomllib
from pathlib import Path

_FINDERS = ("find_packages", "find_namespace_packages")


def literal_strings(node: ast.expr | None) -> list[str] | None:
    """The strings of a literal list, tuple or set; None for anything else."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)) and all(isinstance(e, ast.Constant) for e in node.elts):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return None


def find_patterns(root: Path) -> tuple[list[str], list[str]] | None:
    """(include, exclude) of the build's package finder, literal patterns only; None when it has no finder or one
    whose patterns are computed."""
    try:
        tree = ast.parse((root / "setup.py").read_text(errors="replace"))
    except (OSError, SyntaxError, ValueError):
        tree = None
    for node in ast.walk(tree) if tree else ():
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) in _FINDERS:
            given: dict[str | None, ast.expr] = {**dict(zip(("where", "exclude", "include"), node.args)),
                                                 **{kw.arg: kw.value for kw in node.keywords}}
            include, exclude = literal_strings(given.get("include")), literal_strings(given.get("exclude"))
            if ("include" in given and include is None) or ("exclude" in given and exclude is None):
                return None
            return include or [], exclude or []
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(root / "setup.cfg", encoding="utf-8")
        if parser.get("options", "packages", fallback="").strip().startswith("find"):
            return (_cfg_list(parser.get("options.packages.find", "include", fallback="")),
                    _cfg_list(parser.get("options.packages.find", "exclude", fallback="")))
    except configparser.Error:
        return None
    try:
        find = tomllib.loads((root / "pyproject.toml").read_text(errors="replace")).get("tool", {}) \
            .get("setuptools", {}).get("packages", {})
    except (tomllib.TOMLDecodeError, OSError):
        return None
    if isinstance(find, dict) and isinstance(find.get("find"), dict):
        include, exclude = find["find"].get("include", []), find["find"].get("exclude", [])
        if all(isinstance(x, list) for x in (include, exclude)):
            return [str(x) for x in include], [str(x) for x in exclude]
    return None


def finder_excludes(root: Path) -> list[str]:
    """The finder's ``exclude`` patterns (``tests*``, ``benchmarks``): a top-level package one matches is not
    installed."""
    patterns = find_patterns(root)
    return patterns[1] if patterns else []


def finder_includes(root: Path) -> set[str]:
    """The top-level names the finder's ``include`` patterns let in (``foo*`` and ``foo.*`` give ``foo*``, ``foo``)."""
    patterns = find_patterns(root)
    return {p.split(".")[0] for p in patterns[0] if p.split(".")[0]} if patterns else set()


def _cfg_list(value: str) -> list[str]:
    """A ``list-comma`` value of ``setup.cfg``: one per line or separated by commas."""
    return [part for part in re.split(r"[,\s]+", value) if part]
