"""Check 3: undefined names (pyflakes) do not increase in any file of the fork.

pyflakes reads one file at a time, so only files whose content changed can change; per file the multiset of
(message type, name) is compared with the original's file, so a folded branch that leaves a name without its
definition (pitfall 20) is caught, while names the original already left undefined are not counted.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

from pyflakes import checker, messages

from slimfork.index.parse import decode, parse_python
from slimfork.verify.model import Baseline, CheckResult
from slimfork.verify.tree import Tree, TreeLayout, open_tree

UNDEFINED = (messages.UndefinedName, messages.UndefinedExport, messages.UndefinedLocal)
_CACHE: dict[str, list[tuple[str, str, int]]] = {}  # sha -> [(message type, name, line)]


def undefined_names(data: bytes, filename: str = "<fork>") -> list[tuple[str, str, int]]:
    """(message type, name, line) for every undefined name pyflakes finds; [] if the file does not parse."""
    try:
        tree = parse_python(decode(data), filename)
        found = checker.Checker(tree, filename).messages
    except (SyntaxError, ValueError, UnicodeDecodeError, LookupError, RecursionError):
        return []  # the parse check's business
    return sorted((type(m).__name__, str(m.message_args[0]), m.lineno) for m in found if isinstance(m, UNDEFINED))


class PyflakesCheck:
    name = "pyflakes"
    cost = 3

    def __init__(self, layout: TreeLayout):
        self.layout = layout

    def baseline(self, original: Path) -> Baseline:
        start = time.monotonic()
        tree = open_tree(original, self.layout, original=True)
        return Baseline(self.name, True, tree, "compared per changed file", time.monotonic() - start)

    def run(self, fork: Path, baseline: Baseline) -> CheckResult:
        start = time.monotonic()
        original: Tree = baseline.data
        tree = open_tree(fork, self.layout)
        failures, paths = [], []
        changed = tree.changed_from(original)
        for rel in changed:
            now = self._names(tree, rel)
            before = Counter((kind, name) for kind, name, _ in self._names(original, rel)) if rel in original.shas \
                else Counter()
            extra = Counter((kind, name) for kind, name, _ in now) - before
            lines: dict[tuple[str, str], list[int]] = {}
            for kind, name, line in reversed(now):  # which occurrence is new is ambiguous: name the last ones
                if extra[(kind, name)] > 0:
                    extra[(kind, name)] -= 1
                    lines.setdefault((kind, name), []).insert(0, line)
            for (kind, name), where in sorted(lines.items(), key=lambda item: item[1][0]):
                more = f" ({len(where)} more than in the original, lines {', '.join(map(str, where[:5]))}" \
                    f"{', ...' if len(where) > 5 else ''})" if len(where) > 1 else ""
                failures.append(f"{rel}:{where[0]}: {_describe(kind)} '{name}' (pyflakes {kind}){more}")
            if lines:
                paths.append(rel)
        return CheckResult(self.name, not failures, tuple(failures), tuple(paths), time.monotonic() - start,
                           f"{len(changed)} changed files checked")

    @staticmethod
    def _names(tree: Tree, rel: str) -> list[tuple[str, str, int]]:
        sha = tree.shas[rel]
        if sha not in _CACHE:
            _CACHE[sha] = undefined_names((tree.root / rel).read_bytes(), rel)
        return _CACHE[sha]


def _describe(kind: str) -> str:
    return {"UndefinedExport": "undefined name in __all__", "UndefinedLocal": "local name used before assignment"}.get(
        kind, "undefined name")
