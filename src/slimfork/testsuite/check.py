"""The pytest check of a fork whose tests were planned: a test of the original that the plan removed (its file,
class or function), or that was parametrised over a removed registry entry and is no longer generated, is meant
to be gone; every other test that passed in the original, and every such test the fork still runs (its removal
undone, or put back with the code it tests), must pass in the fork."""

from __future__ import annotations

import re
import time
from collections import Counter
from pathlib import Path

from slimfork.decisions import GONE_KINDS
from slimfork.verify.checks.pytest import RenamedIds, failing_in_original, failing_note, flaky_note, passing_again
from slimfork.verify.model import Baseline, CheckResult

_PARAM = re.compile(r"\[(.*)\]$")
_ENTRY = re.compile(r"(\w+)=\w+\[(\d+)\]")  # a table entry a test loses: alg=ALGS[3]


class PlannedTestsCheck:
    cost = 6

    def __init__(self, inner, gone_files: set[str], gone_units: set[tuple[str, str]], removed_names: set[str],
                 data_files: frozenset[str] | set[str] = frozenset(),
                 removed_code: dict[str, tuple[str, frozenset[str]]] | None = None,
                 cut_cases: dict[str, list[str]] | None = None, emptied_doctests: frozenset[str] = frozenset()):
        self.inner, self.name = inner, inner.name
        self.gone_files = frozenset(gone_files)
        self.data_files = frozenset(data_files)  # removed after their registry entries: until then their tests fail
        self.gone_units = frozenset(gone_units)
        # tests that lose parameter values: "param test_x alg=ALGS[3]" -> (file, "test_x")
        self.cut_values = frozenset((f, q.split(" ")[1]) for f, q in gone_units if q.startswith("param "))
        self.cut_entries: dict[tuple[str, str], dict[str, set[int]]] = {}  # the table entries each loses: alg -> {3}
        for f, q in gone_units:
            if q.startswith("param ") and (entry := _ENTRY.fullmatch(q.split(" ", 2)[2])):
                self.cut_entries.setdefault((f, q.split(" ")[1]), {}).setdefault(entry[1], set()).add(int(entry[2]))
        self.removed_names = frozenset(removed_names)
        # source file -> (its module, the top-level names symbol pruning removed; empty: the whole file goes)
        self.removed_code = removed_code or {}
        self.cut_cases = {path: tuple(names) for path, names in (cut_cases or {}).items()}  # path -> cut entries' names
        self.emptied_doctests = frozenset(emptied_doctests)  # doctests whose every example the plan cut (their names)

    @property
    def original(self):
        return self.inner.original

    @original.setter
    def original(self, path) -> None:
        self.inner.original = path

    def doctest_of_removed(self, test: str, file: str) -> bool:
        """A docstring's doctest (``--doctest-modules``: ``pkg.mod::pkg.mod.func``) of a removed module or of a name
        symbol pruning removed: a test of removed code, gone with it (pydash's doctests in every function)."""
        classname, _, name = test.rpartition("::")
        removed = self.removed_code.get(file or classname.replace(".", "/") + ".py")
        if removed is None:
            return False
        module, names = removed
        return not names or any(name in (f"{module}.{n}", n) or name.startswith((f"{module}.{n}.", f"{n}."))
                                for n in names)

    def case_of_cut_entry(self, test: str, file: str) -> bool:
        """A test class the file makes per entry of a table of cases (``TFileTypeFLAC`` of mutagen's ``_FILETYPES``)
        for an entry the plan cut (one named ``FLAC``): it is no longer made."""
        file, _, cls = self._unit(test, file)
        return cls is not None and any(name in cls for name in self.cut_cases.get(file, ()))

    def planned_gone(self, test: str, file: str) -> bool:
        if (file or test.rpartition("::")[0].replace(".", "/") + ".py") in self.gone_files:
            return True
        file, qualname, cls = self._unit(test, file)
        return (file, qualname) in self.gone_units or (file, cls) in self.gone_units

    def lost_value(self, test: str, file: str) -> bool:
        """An id of a test the plan cut parameter values from: pytest numbers the values it cannot name
        (``test_x[alg7]``), so the ids of the values that stay may be other ones than in the original."""
        return "[" in test and self._unit(test, file)[:2] in self.cut_values

    @staticmethod
    def _unit(test: str, file: str) -> tuple[str, str, str | None]:
        classname, _, name = test.rpartition("::")
        file = file or classname.replace(".", "/") + ".py"
        base = name.split("[")[0]
        last = classname.rsplit(".", 1)[-1]
        cls = last if last != Path(file).stem and last[:1].isupper() else None
        return file, f"{cls}.{base}" if cls else base, cls

    def original_ids(self, outcomes: dict[str, tuple[str, str, str]],
                     original: dict[str, int]) -> dict[str, tuple[str, str, str]]:
        """The fork's outcomes under the original's ids: pytest numbers a value it cannot name by its position
        (``test_x[alg5]``), and the table entries the plan cut move the others down; ``alg5`` of the fork is the
        sixth entry that stays. A test with as many ids as in the original (``original``: test -> ids; its cut put
        back) keeps them."""
        if not self.cut_entries:
            return outcomes
        ran = Counter(test.split("[", 1)[0] for test in outcomes if "[" in test)
        out = {}
        for test, outcome in outcomes.items():
            cuts = self.cut_entries.get(self._unit(test, outcome[2])[:2]) if "[" in test else None
            base = test.split("[", 1)[0]
            if cuts and ran[base] < original.get(base, ran[base] + 1):
                head, _, ids = test[:-1].partition("[")
                test = f"{head}[{'-'.join(_renumbered(part, cuts) for part in ids.split('-'))}]"
            out[test] = outcome
        return out

    def generated_from_removed(self, test: str) -> bool:
        match = _PARAM.search(test)
        return match is not None and any(part in self.removed_names for part in re.split(r"[-\s,]", match.group(1)))

    def execute(self, tree: Path):
        """The inner check's run without the selected node ids of tests the plan cut (pytest would run nothing)."""
        cut = []
        for entry in self.inner.spec.tests:
            file, _, rest = entry.partition("::")
            parts = [p.split("[")[0] for p in rest.split("::") if p]
            if any((file, ".".join(parts[:i])) in self.gone_units for i in range(1, len(parts) + 1)):
                cut.append(entry)
        return self.inner.execute(tree, tuple(cut))

    def baseline(self, original: Path) -> Baseline:
        start = time.monotonic()
        if self.inner.missing(original):
            return self.inner.baseline(original)
        outcomes, proc = self.inner.execute(original)
        if outcomes is None and not proc.timed_out:  # killed or flaky: once more (a suite that timed out would
            outcomes, proc = self.inner.execute(original)  # time out again: three runs of 30 minutes each)
        if outcomes is None:
            return self.inner.unreported(proc, start)
        passed = {test: file for test, (outcome, _, file) in outcomes.items() if outcome == "passed"}
        gone = {test for test, file in passed.items() if self.planned_gone(test, file)}
        note = (f"{len(passed)} of {len(outcomes)} tests pass in the original; {len(gone)} of them leave the fork "
                "with the code they test" + failing_note(outcomes, original))
        ids = Counter(test.split("[", 1)[0] for test in outcomes if "[" in test)
        return Baseline(self.name, bool(passed), {"passed": passed, "gone": gone, "ids": dict(ids)}, note,
                        time.monotonic() - start)

    def run(self, fork: Path, baseline: Baseline) -> CheckResult:
        if not isinstance(baseline.data, dict):  # the plain check's baseline (its first run did not report)
            return self.inner.run(fork, baseline)
        start = time.monotonic()
        outcomes, proc = self.execute(fork)
        if outcomes is not None:
            outcomes = self.original_ids(outcomes, baseline.data.get("ids", {}))
        if outcomes is None:
            return CheckResult(self.name, False, (f"pytest did not run (exit {proc.exit_code}): "
                                                  f"{proc.stderr_tail(3) or proc.stdout[-300:].strip()}",),
                               (), time.monotonic() - start)
        failed: dict[str, tuple[str, str, str]] = {}
        renamed = RenamedIds(outcomes, baseline.data["passed"])
        for test, file in sorted(baseline.data["passed"].items()):
            if test in baseline.data["gone"] and (outcomes.get(test, ("passed",))[0] == "passed"
                                                  or file in self.data_files):
                continue  # meant to be gone; one that still runs (restored, or put back) must pass
            if test not in outcomes and (self.generated_from_removed(test) or renamed.ran(test)
                                         or self.doctest_of_removed(test, file) or self.lost_value(test, file)
                                         or test.rpartition("::")[2] in self.emptied_doctests
                                         or self.case_of_cut_entry(test, file)):
                continue
            outcome, message, where = outcomes.get(test, ("not run", "", file))
            if outcome != "passed":
                failed[test] = (outcome, message, where or file)
        flaky = passing_again(self.inner, fork, failed)
        original = failing_in_original(self.inner, {t: v for t, v in failed.items() if t not in flaky})
        failures = [f"{t}: {o} in the fork{': ' + m if m else ''}" for t, (o, m, _) in failed.items()
                    if t not in flaky and t not in original]
        paths = list(dict.fromkeys(f for t, (_, _, f) in failed.items() if f and t not in flaky | original))
        kept = len(baseline.data["passed"]) - len(baseline.data["gone"])
        return CheckResult(self.name, not failures, tuple(failures), tuple(paths), time.monotonic() - start,
                           f"{kept} tests that pass in the original and stay in the fork"
                           + flaky_note(flaky, original))


def _renumbered(part: str, cuts: dict[str, set[int]]) -> str:
    """``alg5`` -> ``alg7`` where the entries 1 and 3 of the table alg takes its values from were cut."""
    match = re.fullmatch(r"([A-Za-z_]\w*?)(\d+)", part)
    if match is None or match[1] not in cuts:
        return part
    position, index = int(match[2]), -1
    while position >= 0:
        index += 1
        position -= index not in cuts[match[1]]
    return f"{match[1]}{index}"


def planned_checks(checks: list, stages) -> list:
    """Replace the pytest check by one that knows the tests the plan removed (when the spec has ``tests``)."""
    data = stages.data.get("tests")
    if data is None:
        return checks
    gone_files = {r["path"] for r in data["removed"] if r["test"] is None} | set(data["removed_data"])
    gone_units = {(r["path"], r["test"]) for r in data["removed"] if r["test"] is not None}
    gone_units |= {(path, qualname) for path, qualname in data.get("inherited", ())}  # a mixin's removed test
    names = set(data["removed_registry_names"])
    removed_code: dict[str, tuple[str, frozenset[str]]] = {}
    for removal in stages.plan.removals:
        if removal.kind in GONE_KINDS and removal.module and removal.path.endswith(".py"):
            removed_code[removal.path] = (removal.module, frozenset())
    for pruned in (stages.data.get("symbols") or {}).get("pruned", []):
        if pruned["path"] not in removed_code or removed_code[pruned["path"]][1]:
            module, before = removed_code.get(pruned["path"], (pruned["module"], frozenset()))
            removed_code[pruned["path"]] = (module, before | set(pruned["names"]))
    emptied = frozenset(name for _, name in data.get("emptied_doctests", ()))
    return [PlannedTestsCheck(c, gone_files, gone_units, names, set(data["removed_data"]), removed_code,
                              data.get("cut_cases"), emptied)
            if getattr(c, "name", "") == "pytest" else c for c in checks]
