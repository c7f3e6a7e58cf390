"""Modules a package's own data files name: ``{"class": "pkg.handlers.JsonHandler"}`` in a logging config the
package loads, a plugin list in a YAML file. The package's code reads them at run time, so the package reaches
what they name (an edge from the package, not a root: data of a package the fork leaves out keeps nothing)."""

from __future__ import annotations

import posixpath
import re

from slimfork.graph.modules import ModuleMap

DATA_SUFFIXES = (".json", ".yaml", ".yml", ".toml", ".cfg", ".ini", ".txt", ".conf")
_MAX_BYTES = 512_000
_READ: dict[tuple[str, str], list[str]] = {}  # (root, path) -> dotted names in it, read once per process


def data_file_edges(mm: ModuleMap, root: str, other_files: list[str]) -> list[tuple[str, str, str]]:
    """(package, module it names, data file path) for the text files inside package folders."""
    if not mm.top_names:
        return []
    pattern = re.compile(r"\b((?:%s)(?:\.[A-Za-z_]\w*)+)" % "|".join(map(re.escape, sorted(mm.top_names))))
    out = []
    for path in other_files:
        if not path.endswith(DATA_SUFFIXES):
            continue
        package = mm.module_of(posixpath.join(posixpath.dirname(path), "__init__.py"))
        if package is None:
            continue
        for text in _names(root, path, pattern):
            target = mm.longest_module(text)
            if target and target != package:
                out.append((package, target, path))
    return out


def _names(root: str, path: str, pattern: re.Pattern) -> list[str]:
    key = (root, path)
    if key not in _READ:
        try:
            with open(posixpath.join(root, path), "rb") as f:
                data = f.read(_MAX_BYTES + 1)
        except OSError:
            data = b""
        text = data.decode("utf-8", "replace") if len(data) <= _MAX_BYTES else ""
        _READ[key] = list(dict.fromkeys(pattern.findall(text)))
    return _READ[key]
