"""Generated-program equivalence of fold + prune: every generated program (platform branches, lazy imports,
registries; see generator.py) gives the same output in the fork as in the original, on Linux, with the Linux facts
folded and symbols pruned, through the real pipeline (``slimfork.api.shrink`` with its static checks). A run
checks PROJECTS x PER_PROJECT programs; each project is one shrink (several smaller projects, not one large one:
slimfork's "is this name used elsewhere?" questions grow with the files that mention a name)."""

from __future__ import annotations

import json

import pytest

from tests.genequiv.generator import Flags
from tests.genequiv.harness import check

SEED = 25
PROJECTS = 4
PER_PROJECT = 260
MIN_PROGRAMS = 1000  # issue 25: at least 1,000 generated programs per CI run
FLAGS = Flags(relative_lazy=True, outside_scan=True, public_fact=True)  # the fixed ones; the others: test_known_breaks.py


def test_a_run_covers_at_least_1000_programs():
    assert PROJECTS * PER_PROJECT >= MIN_PROGRAMS


@pytest.mark.parametrize("project", range(PROJECTS))
def test_forked_programs_behave_like_the_originals(tmp_path, project, record_property):
    outcome = check(tmp_path, PER_PROJECT, SEED, FLAGS, start=project * PER_PROJECT)
    names = {p.name for p in outcome.programs}
    assert len(names) == PER_PROJECT and set(outcome.original) == names == set(outcome.fork)
    raised = {name: r["exc"] for name, r in outcome.original.items() if "exc" in r}
    assert not raised, f"the generator wrote programs that fail in the original: {raised}"
    restored = [(batch, r.path, r.check) for batch, r in outcome.result.apply.restored]
    assert not restored, f"a check had to restore what the analysis removed: {restored}"
    assert not outcome.mismatches, "\n".join(
        f"{name} ({sorted(next(p.features for p in outcome.programs if p.name == name))}):\n"
        f"  original {json.dumps(a)}\n  fork     {json.dumps(b)}" for name, (a, b) in outcome.mismatches.items())
    data = outcome.result.data
    removed = len(data["removed"])
    pruned = sum(len(s["names"]) for s in data["symbols"]["pruned"])
    folded = data["facts"]["summary"]["branches_folded"]
    assert removed > 0 and pruned > 0 and folded > 0, (removed, pruned, folded)
    assert data["after"]["lines"] < data["before"]["lines"]
    summary = (f"{PER_PROJECT} programs, 0 mismatches; {removed} files removed, {folded} branches folded, "
               f"{pruned} names pruned; lines {data['before']['lines']} -> {data['after']['lines']}")
    record_property("genequiv", summary)
    print(summary)


def test_the_comparison_sees_a_fork_that_behaves_differently(tmp_path):
    """Not vacuous: in a fork where one program's helpers module lost a function, that program and only it
    differs."""
    from tests.genequiv.harness import run_programs

    outcome = check(tmp_path, 12, SEED, FLAGS)
    assert not outcome.mismatches
    victim = next(p for p in outcome.programs if "helpers." in p.files[p.name.replace(".", "/") + "/main.py"])
    helpers = outcome.result.out / victim.name.replace(".", "/") / "helpers.py"
    helpers.write_text(helpers.read_text().replace("def h", "def gone_h"))
    fork = run_programs(outcome.result.out, outcome.programs, tmp_path / "run")
    assert {name for name in fork if fork[name] != outcome.original[name]} == {victim.name}
