"""Tests of code a check restored come back: the tests batch runs first and removes the tests of everything the
plan removes; when a later batch's check needs a module, a fold or a symbol cut undone, the tests of that code are
decided again against what the fork now has, and those that no longer use removed code return in a last batch
(verified like the others: a returned test that fails is removed again)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from slimfork.decisions import PUT_BACK, Batch, Edit, Removal
from slimfork.testsuite.cut import cut_units
from slimfork.testsuite.decide import TestRemoval, decide_across
from slimfork.testsuite.scan import TestFile


@dataclass
class TestsPlan:
    """What the tests stage decided from: the scanned test files, the registry cuts, the support modules kept."""

    files: dict[str, TestFile]
    cuts: list
    support: dict[str, str]


@dataclass
class TestsBack:
    """The batch that returns tests, and per file the removed units (None: the whole file) it brings back."""

    batch: Batch
    units: dict[str, set[str | None]] = field(default_factory=dict)
    still: dict[str, list[TestRemoval]] = field(default_factory=dict)  # per file, the removals that stay

    def returned(self, removal: Removal, kept_paths: set[str]) -> bool:
        """Whether a tests-stage removal came back (its file's put-back edit passed the checks)."""
        return removal.path in kept_paths and removal.symbol in self.units.get(removal.path, set())


def tests_back(analysis, stages, root: Path, applied_tests: set[str], restored: frozenset[str]) -> TestsBack | None:
    """The batch returning the tests that only used code a check restored (``restored``: the paths whose edits
    were undone; ``applied_tests``: the test files whose tests-batch edit the fork has), or None."""
    from slimfork.testsuite.stage import library_of  # the stage builds the library; it imports this module

    plan = stages.tests
    if plan is None or not restored or not applied_tests:
        return None
    decisions = decide_across(plan.files, library_of(analysis, stages, plan.cuts, plan.support, restored))
    now: dict[str, set[str | None]] = {}
    decided: dict[str, list[TestRemoval]] = {}
    for r in decisions.removals:
        now.setdefault(r.path, set()).add(r.qualname)
        decided.setdefault(r.path, []).append(r)
    data = stages.data["tests"]
    before: dict[str, set[str | None]] = {}
    for removed in data["removed"]:  # the decisions (not the data files of removed registry entries)
        if removed["path"] not in data["removed_data"]:
            before.setdefault(removed["path"], set()).add(removed["test"])
    edits, units, still = [], {}, {}
    for path in sorted(applied_tests & before.keys()):
        old, new = before[path], now.get(path, set())
        if None in new or old <= new:
            continue
        source = (root / path).read_bytes()
        keep = {q for q in new if q is not None and (None in old or q in old)}  # never a new cut
        try:
            content = cut_units(source, keep) if keep else source
        except Exception:  # unknown means keep: the tests stay out
            continue
        back = old - new
        names = ", ".join(sorted(q or "the whole file" for q in back))[:300]
        edits.append(Edit(path, content, f"the code it tests stays in the fork (a check restored it): {names}",
                          PUT_BACK))
        units[path] = back
        still[path] = [r for r in decided.get(path, []) if r.qualname in keep]
    if not edits:
        return None
    return TestsBack(Batch("tests back", f"Tests of code a check restored: {len(edits)} files", edits), units, still)
