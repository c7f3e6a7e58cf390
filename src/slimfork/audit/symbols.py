"""Finding kind "unused-symbol": private top-level functions, classes and constants of reached modules that no
file of the tree names (vulture's unused-function, kept to what is safe to act on).

A name counts as used when any file reads it (a name or an attribute of that name, outside the statement that
defines it), imports it, writes it in a string (``getattr(mod, "_f")``) or matches an f-string pattern, or the
module lists it in ``__all__``. Statements that always stay for the shrink (decorated ones that may register,
effects at import) and classes with bases (a base may register its subclasses) are not judged. Public names
are left to ``unused-file`` and ``eager-import``: code outside the tree may use them.
"""

from __future__ import annotations

import re

from slimfork.audit.model import Finding
from slimfork.audit.unused import in_test_folder, is_test_file
from slimfork.index.kernel_names import name_regex, specific
from slimfork.index.kernelscan import _MAX_LINES


def symbol_findings(index, scan, reached: set[str]) -> list[Finding]:
    users: dict[str, set[str]] = {}  # name -> files that name it
    for rel, py in scan.py.items():
        for name in set(py.refs) | set(py.strings) | {n for _l, _m, _v, n, _ln in py.imports if n}:
            users.setdefault(name, set()).add(rel)
    patterns = [re.compile(name_regex(text)) for py in scan.py.values() for text, _line in py.patterns
                if specific(text)]
    candidates = [_Candidate(rel, st, scan.py[rel], index.files[rel].symbols) for rel in sorted(reached)
                  if rel in index.files and rel in scan.py and not is_test_file(rel) and not in_test_folder(rel)
                  for st in _judged(index.files[rel].symbols)]
    candidates = [c for c in candidates if not any(
        other != c.rel for n in c.st.binds for other in users.get(n, ())) and not any(
        regex.match(n) for n in c.st.binds for regex in patterns)]
    dead: dict[tuple[str, int], int] = {}  # (file, statement) -> confidence
    readers: dict[tuple[str, int], list[str]] = {}  # (file, statement) -> the dead statements that read it
    changed = True
    while changed:  # a name read only inside dead statements of its file is dead too (``_ONES_TABLE``)
        changed = False
        for c in candidates:
            if (c.rel, c.st.index) not in dead and (judged := c.confidence(dead)) is not None:
                dead[(c.rel, c.st.index)], readers[(c.rel, c.st.index)] = judged
                changed = True
    out: list[Finding] = []
    for c in candidates:
        confidence = dead.get((c.rel, c.st.index))
        if confidence is None:
            continue
        names = ", ".join(c.st.binds)
        what = {"def": "function", "class": "class", "assign": "constant"}[c.st.kind]
        reason = "a private name no file of the tree reads, imports, or names in a string"
        if readers[(c.rel, c.st.index)]:
            reason += " but unused code of its own file: " + ", ".join(readers[(c.rel, c.st.index)][:3])
        if confidence < 60:
            reason += "; the module lists it in __all__, so code outside the tree may import it"
        out.append(Finding("unused-symbol", f"{c.rel}::{names}", f"{what} {names} of {c.rel} is never used",
                           reason, confidence, c.rel, c.st.line,
                           {"names": list(c.st.binds), "lines": c.st.end - c.st.line + 1}))
    return out


def _judged(module):
    binders = module.binders()
    for st in module.statements:
        if st.keep is None and st.kind in ("def", "class", "assign") and st.binds \
                and not (st.kind == "class" and st.bases) \
                and all(_private(n) and len(binders.get(n, ())) == 1 for n in st.binds):
            yield st


class _Candidate:
    def __init__(self, rel: str, st, py, module):
        self.rel, self.st, self.py, self.module = rel, st, py, module
        self.listing = [(s.line, s.end) for s in module.statements if "__all__" in s.binds]

    def confidence(self, dead: dict[tuple[str, int], int]) -> tuple[int, list[str]] | None:
        """60 when nothing outside the statement (and the dead statements of its file) names it; 40 when only
        ``__all__`` does; None when it is used. With the dead statements that read it."""
        confidence, readers = 60, []
        spans = {(s.line, s.end): (dead[(self.rel, s.index)], s.binds[0]) for s in self.module.statements
                 if (self.rel, s.index) in dead}
        for name in self.st.binds:
            refs, strings = self.py.refs.get(name, []), self.py.strings.get(name, [])
            if len(refs) >= _MAX_LINES:
                return None  # read on more lines than the scan records: maybe outside too
            for line in refs + strings:
                if self.st.line <= line <= self.st.end:
                    continue
                if name in (self.module.all_names or ()) and any(a <= line <= b for a, b in self.listing):
                    confidence = min(confidence, 40)
                    continue
                holder = [held for (a, b), held in spans.items() if a <= line <= b]
                if not holder:
                    return None
                confidence = min(confidence, holder[0][0])
                readers += [holder[0][1]] if holder[0][1] not in readers else []
            if name in (self.module.all_names or ()):
                confidence = min(confidence, 40)
        return confidence, readers


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))
