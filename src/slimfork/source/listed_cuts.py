"""Packages a literal ``packages`` list of the build configuration names and the fork removes.

setuptools fails on a listed package whose folder is missing, so every listed package was a root and kept its
``__init__`` and all it imports (dramatiq's ``setup(packages=["dramatiq", "dramatiq.rate_limits", ...])`` kept the
rate limiters a Redis deployment never loads; mutagen's ``mp4`` and ``asf``). A hand fork deletes the folder and its
line. Here a listed regular package is no root when every file that lists it can lose the entry (``cut_listed``:
``setup.py``'s literal ``setup(packages=[...])``, ``setup.cfg``'s ``[options] packages`` lines,
``[tool.setuptools] packages`` of ``pyproject.toml``), and the fork's build files lose the entries of the packages
the plan removes, in the first batch, before any deletion. Each cut is proven by reading the list again: it must be
the old one without those entries, else nothing is cut and the package stays a root."""

from __future__ import annotations

import ast
import configparser
import re
import tomllib
from pathlib import Path

from slimfork.source.entry_drops import element_spans, line_offsets

__all__ = ["BUILD_FILES", "cut_listed", "listed_in"]

BUILD_FILES = ("pyproject.toml", "setup.cfg", "setup.py")


def listed_in(rel: str, text: str) -> list[str]:
    """The packages ``text`` (the build file ``rel``) lists by name; [] where it lists none literally."""
    if rel == "pyproject.toml":
        try:
            value = tomllib.loads(text).get("tool", {}).get("setuptools", {}).get("packages", [])
        except tomllib.TOMLDecodeError:
            return []
        return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
    if rel == "setup.cfg":
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(text)
            value = parser.get("options", "packages", fallback="")
        except configparser.Error:
            return []
        return [] if value.strip().startswith("find") else value.split()
    node = _setup_packages(text)
    return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)] if node else []


def cut_listed(root: Path, gone: set[str], texts: dict[str, bytes] | None = None) -> dict[str, bytes] | None:
    """path -> the build file's new content without the entries of ``gone`` in its packages list (``texts``: the
    contents already cut, by the spec's entry drops), or None when a file lists one of them and its cut is not
    proven (the list read again must be the old one without them, and nothing else of the file may change)."""
    out: dict[str, bytes] = {}
    for rel in BUILD_FILES:
        path = root / rel
        if rel in (texts or {}):
            text = (texts or {})[rel].decode("utf-8")
        elif path.is_file():
            text = path.read_text(encoding="utf-8")
        else:
            continue
        if rel == "setup.py" and _computed_packages(text):
            return None
        old = listed_in(rel, text)
        if not set(old) & gone:
            continue
        new = _CUTS[rel](text, gone)
        if listed_in(rel, new) != [p for p in old if p not in gone] or not _same_otherwise(rel, text, new):
            return None
        out[rel] = new.encode("utf-8")
    return out


def _same_otherwise(rel: str, old: str, new: str) -> bool:
    """Whether the cut changed nothing but the list: the rest of the file reads the same."""
    if rel == "pyproject.toml":
        a, b = tomllib.loads(old), tomllib.loads(new)
        for data in (a, b):
            data.get("tool", {}).get("setuptools", {}).pop("packages", None)
        return a == b
    if rel == "setup.cfg":
        return _ini_without_packages(old) == _ini_without_packages(new)
    return ast.dump(_without_packages(old)) == ast.dump(_without_packages(new))


def _ini_without_packages(text: str) -> dict[str, dict[str, str]]:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text)
    return {s: {k: v for k, v in parser[s].items() if (s, k) != ("options", "packages")} for s in parser.sections()}


def _setup_packages(text: str) -> ast.List | ast.Tuple | None:
    """The literal list of ``setup(packages=[...])`` (the first ``setup`` call that has one)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "setup":
            for kw in node.keywords:
                if kw.arg == "packages" and isinstance(kw.value, (ast.List, ast.Tuple)):
                    return kw.value
    return None


def _computed_packages(text: str) -> bool:
    """Whether a ``setup()`` call may list packages this module does not read: ``packages=`` neither a list of
    literal strings nor ``find_packages(...)``/``find_namespace_packages(...)`` (which find only folders that are there), or
    ``setup(**kw)``; a ``setup.py`` that does not parse too."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "setup":
            for kw in node.keywords:
                value = kw.value
                if kw.arg is None or kw.arg == "packages" and not (
                        isinstance(value, (ast.List, ast.Tuple)) and all(
                            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts)
                        or isinstance(value, ast.Call) and getattr(
                            value.func, "id", getattr(value.func, "attr", None)) in _FINDERS):
                    return True
    return False


_FINDERS = frozenset({"find_packages", "find_namespace_packages"})


def _without_packages(text: str) -> ast.Module:
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "setup":
            node.keywords = [kw for kw in node.keywords if kw.arg != "packages"]
    return tree


def _cut_setup_py(text: str, gone: set[str]) -> str:
    node = _setup_packages(text)
    if node is None:
        return text
    hits = [i for i, e in enumerate(node.elts) if isinstance(e, ast.Constant) and e.value in gone]
    data = text.encode("utf-8")  # ast's columns are UTF-8 byte offsets
    offsets = line_offsets(data)
    for a, b in sorted(element_spans(node, hits), reverse=True):
        data = data[:offsets[a[0] - 1] + a[1]] + data[offsets[b[0] - 1] + b[1]:]
    return data.decode("utf-8")


def _cut_setup_cfg(text: str, gone: set[str]) -> str:
    """``[options] packages = a`` and its continuation lines ``    a.b``, one name a line."""
    out, section, option = [], None, None
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]") and not line[:1].isspace():
            section, option = stripped[1:-1].strip(), None
        elif stripped and not line[:1].isspace():
            option = stripped.partition("=")[0].strip() if "=" in stripped else None
            if section == "options" and option == "packages":
                value = stripped.partition("=")[2].split()
                kept = [v for v in value if v not in gone]
                if kept != value:
                    line = f"{stripped.partition('=')[0].rstrip()} = {' '.join(kept)}".rstrip() + "\n"
        elif stripped and section == "options" and option == "packages" and stripped in gone:
            continue
        out.append(line)
    return "".join(out)


_HEADER = re.compile(r"^\[\s*tool\s*\.\s*setuptools\s*\]\s*(#.*)?$")


def _cut_pyproject(text: str, gone: set[str]) -> str:
    """``packages = ["a", "a.b"]`` under ``[tool.setuptools]``, on one line or one name a line."""
    lines = text.splitlines(keepends=True)
    inside, start = False, None
    for i, line in enumerate(lines):
        if line.startswith("["):  # a table header (the array values we cut come after the one we look for)
            inside = bool(_HEADER.match(line.strip()))
        elif inside and re.match(r"packages\s*=\s*\[", line.strip()):
            start = i
            break
    if start is None:
        return text
    end = start
    while "]" not in lines[end].split("#")[0] and end + 1 < len(lines):
        end += 1
    block = "".join(lines[start:end + 1])
    names = "|".join(re.escape(n) for n in sorted(gone))
    quoted = rf"""(?:"(?:{names})"|'(?:{names})')"""
    block = re.sub(rf"{quoted}\s*,[ \t]*", "", block)  # an entry with its comma
    block = re.sub(rf",\s*{quoted}(?=\s*\])", "", block)  # the last one, with the comma before it
    block = re.sub(rf"{quoted}", "", block)  # the only one
    block = "".join(line for line in block.splitlines(keepends=True) if line.strip())  # lines left empty
    return "".join(lines[:start]) + block + "".join(lines[end + 1:])


_CUTS = {"pyproject.toml": _cut_pyproject, "setup.cfg": _cut_setup_cfg, "setup.py": _cut_setup_py}
