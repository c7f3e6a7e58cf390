"""The modules a project's documents show users importing, read off the text of a README or a docs page (never
run): ``import pkg.mod`` and ``from pkg import a, b`` at the start of a line (a code block, a ``>>>`` prompt, a diff's
``+``). ``slimfork init`` roots the private ones a top-level README names (init/documented.py); the audit counts
every documented module as public API (audit/documented.py)."""

from __future__ import annotations

import re
from typing import Iterator

_IMPORT = re.compile(r"^[ \t>+.]*(?:from\s+([A-Za-z_][\w.]*)\s+import\s+\(?([\w, ]+)|import\s+([A-Za-z_][\w.]*))",
                     re.M)


def imported_names(text: str) -> Iterator[tuple[int, str]]:
    """(line, dotted name) for each import statement: ``from a.b import c, d`` gives ``a.b``, ``a.b.c`` and
    ``a.b.d`` (a name that is a module is one); ``import a.b`` gives ``a.b``."""
    for match in _IMPORT.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        base = match.group(1) or match.group(3)
        yield line, base
        for name in (match.group(2) or "").split(","):
            if name.strip().isidentifier():
                yield line, f"{base}.{name.strip()}"
