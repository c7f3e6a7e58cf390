"""The spec's two kinds of glob.

Path globs (`drop`, `tests`, `keep` paths): '**' spans folders; a pattern naming a folder covers everything below it.

Module globs (`roots`, `keep`): over dotted module names, `pkg.*` (direct submodules), `pkg.**` (every module
below, the package itself included). As a shell's `*` skips hidden files, a wildcard skips private parts (a leading
underscore) unless the pattern part itself starts with one (`pkg._*`)."""

from __future__ import annotations

import fnmatch
import re
from functools import lru_cache


@lru_cache(maxsize=512)
def compile_glob(pattern: str) -> re.Pattern:
    return re.compile(glob_body(pattern.strip().lstrip("./").rstrip("/")) + "(?:/.*)?$")


def glob_body(pattern: str, classes: bool = False) -> str:
    """A glob as a regex: ``*`` and ``?`` inside one folder, ``**/`` any number of folders, ``**`` anything below;
    with ``classes``, ``[...]`` and ``[!...]`` sets too (Python's ``glob``)."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif classes and pattern[i] == "[" and "]" in pattern[i + 2:]:
            end = pattern.index("]", i + 2)
            body = pattern[i + 1:end].replace("\\", "\\\\")
            out.append("[^" + body[1:] + "]" if body.startswith("!") else "[" + body + "]")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out)


def first_match(patterns: list[str], path: str) -> int | None:
    """Index of the first pattern that matches ``path`` (relative posix), else None."""
    for i, pattern in enumerate(patterns):
        if compile_glob(pattern).match(path):
            return i
    return None


# Module globs

_PART = r"(?:[A-Za-z_][A-Za-z0-9_]*|\*\*|[A-Za-z0-9_*?]*[*?][A-Za-z0-9_*?]*)"
SYNTAX = re.compile(rf"^[A-Za-z_][A-Za-z0-9_]*(?:\.{_PART})+$")


def is_glob_form(text: str) -> bool:
    """Written as a module glob: dotted, no '/', the first part a name, some later part a wildcard."""
    return "/" not in text and bool(SYNTAX.match(text)) and any(c in text for c in "*?")


@lru_cache(maxsize=256)
def _parts(pattern: str) -> tuple[str, ...]:
    return tuple(pattern.split("."))


def _part_matches(pattern: str, name: str) -> bool:
    if name.startswith("_") and not pattern.startswith("_") and pattern != name:
        return False
    return fnmatch.fnmatchcase(name, pattern)


def _match(pats: tuple[str, ...], names: tuple[str, ...]) -> bool:
    if not pats:
        return not names
    if pats[0] == "**":
        return any(_match(pats[1:], names[i:]) for i in range(len(names) + 1)
                   if all(not n.startswith("_") for n in names[:i]))
    return bool(names) and _part_matches(pats[0], names[0]) and _match(pats[1:], names[1:])


def match_modules(pattern: str, modules) -> list[str]:
    """The module names (of ``modules``) that ``pattern`` matches, sorted."""
    pats = _parts(pattern)
    return sorted(m for m in modules if _match(pats, tuple(m.split("."))))


def is_module_glob(pattern: str, top_names) -> bool:
    """A `keep` entry that globs modules rather than paths: the glob form, its first part a top-level package."""
    return is_glob_form(pattern) and pattern.split(".", 1)[0] in top_names


def first_path_keep(keep: list[str], path: str, top_names) -> int | None:
    """Index of the first path glob of ``keep`` matching ``path`` (module globs are roots, not paths)."""
    return next((i for i, p in enumerate(keep) if not is_module_glob(p, top_names) and compile_glob(p).match(path)),
                None)
