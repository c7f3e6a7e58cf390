"""Entry points a source tree declares outside PEP 621 metadata: ``setup.cfg``'s ``[options.entry_points]``, a
literal ``entry_points=`` of ``setup.py`` and poetry's ``[tool.poetry.scripts]``/``[tool.poetry.plugins]``.
A git checkout has no PKG-INFO or ``entry_points.txt``; without these its plugins and scripts look unused."""

from __future__ import annotations

import ast
import configparser
import tomllib
from pathlib import Path

Groups = dict[str, dict[str, str]]  # group -> name -> "module:attr"


def declared_entry_points(root: Path) -> Groups:
    out: Groups = {}
    for found in (_setup_cfg(root / "setup.cfg"), _setup_py(root / "setup.py"), _poetry(root / "pyproject.toml")):
        for group, entries in found.items():
            for name, value in entries.items():
                out.setdefault(group, {}).setdefault(name, value)
    return out


def setup_cfg_metadata(root: Path) -> tuple[str, str]:
    """(name, version) of ``setup.cfg``'s ``[metadata]``, '' where absent or not literal (``attr:``)."""
    parser = _read_cfg(root / "setup.cfg")
    name = parser.get("metadata", "name", fallback="").strip() if parser else ""
    version = parser.get("metadata", "version", fallback="").strip() if parser else ""
    return name, "" if ":" in version else version


def _read_cfg(path: Path) -> configparser.ConfigParser | None:
    if not path.is_file():
        return None
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(path.read_text(encoding="utf-8", errors="replace"))
    except configparser.Error:
        return None
    return parser


def _setup_cfg(path: Path) -> Groups:
    parser = _read_cfg(path)
    if parser is None or not parser.has_section("options.entry_points"):
        return {}
    return {group: _lines(text) for group, text in parser.items("options.entry_points")}


def _lines(text: str | list) -> dict[str, str]:
    """``name = module:attr`` lines (a string of them, or a list of such strings)."""
    lines = text.splitlines() if isinstance(text, str) else [str(t) for t in text]
    pairs = (line.split("=", 1) for line in lines if "=" in line)
    return {k.strip(): v.strip() for k, v in pairs if k.strip() and v.strip()}


def _setup_py(path: Path) -> Groups:
    if not path.is_file():
        return {}
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (SyntaxError, ValueError):
        return {}
    assigned = {t.id: n.value for n in tree.body if isinstance(n, ast.Assign) for t in n.targets
                if isinstance(t, ast.Name)}  # ENTRY_POINTS = {...}; setup(entry_points=ENTRY_POINTS)
    for node in ast.walk(tree):
        for kw in node.keywords if isinstance(node, ast.Call) else ():
            if kw.arg == "entry_points":
                value = assigned.get(kw.value.id, kw.value) if isinstance(kw.value, ast.Name) else kw.value
                try:
                    value = ast.literal_eval(value)
                except ValueError:
                    continue
                if isinstance(value, dict):
                    return {str(g): _lines(v) for g, v in value.items() if isinstance(v, (str, list))}
    return {}


def _poetry(path: Path) -> Groups:
    if not path.is_file():
        return {}
    try:
        poetry = tomllib.loads(path.read_text(encoding="utf-8")).get("tool", {}).get("poetry", {})
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return {}
    out: Groups = {}
    scripts = {k: v if isinstance(v, str) else v.get("reference", "") for k, v in poetry.get("scripts", {}).items()
               if isinstance(v, (str, dict))}
    if scripts := {k: v for k, v in scripts.items() if ":" in v}:
        out["console_scripts"] = scripts
    for group, entries in poetry.get("plugins", {}).items():
        if isinstance(entries, dict):
            out[group] = {k: v for k, v in entries.items() if isinstance(v, str)}
    return out
