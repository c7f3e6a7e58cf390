"""Check 1: every .py file of the fork parses (and decodes), unless the same file already failed in the original."""

from __future__ import annotations

import time
from pathlib import Path

from slimfork.verify.model import Baseline, CheckResult
from slimfork.verify.tree import Tree, TreeLayout, open_tree


class ParseCheck:
    name = "parse"
    cost = 1

    def __init__(self, layout: TreeLayout):
        self.layout = layout

    def baseline(self, original: Path) -> Baseline:
        start = time.monotonic()
        tree = open_tree(original, self.layout, original=True)
        broken = {rel: tree.summary(rel).error for rel in tree.shas if tree.summary(rel).error}
        note = f"{len(tree.shas)} files, {len(broken)} do not parse in the original" if broken else \
            f"{len(tree.shas)} files"
        return Baseline(self.name, True, {"tree": tree, "broken": broken}, note, time.monotonic() - start)

    def run(self, fork: Path, baseline: Baseline) -> CheckResult:
        start = time.monotonic()
        original: Tree = baseline.data["tree"]
        tree = open_tree(fork, self.layout)
        failures, paths = [], []
        for rel in tree.changed_from(original):
            error = tree.summary(rel).error
            if error and rel not in baseline.data["broken"]:
                failures.append(f"{rel}: {error}")
                paths.append(rel)
        return CheckResult(self.name, not failures, tuple(failures), tuple(paths), time.monotonic() - start,
                           f"{len(tree.shas)} files, {len(tree.changed_from(original))} changed")
