"""Path globs of the spec ('**' spans folders; a pattern naming a folder covers everything below it)."""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=512)
def compile_glob(pattern: str) -> re.Pattern:
    pattern = pattern.strip().lstrip("./").rstrip("/")
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
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + "(?:/.*)?$")


def first_match(patterns: list[str], path: str) -> int | None:
    """Index of the first pattern that matches ``path`` (relative posix), else None."""
    for i, pattern in enumerate(patterns):
        if compile_glob(pattern).match(path):
            return i
    return None
