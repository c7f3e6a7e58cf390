"""The two bisection searches on predicates with known answers: "the fork needs at least one edit of each group
restored" (a group of one is a plain culprit; a larger group is a set of alternatives)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from slimfork.apply.bisect import ddmin_restoration, minimal_restoration


def needs(groups):
    def passes(restorations):
        return [all(set(g) & set(r) for g in groups) for r in restorations]
    return passes


@st.composite
def problems(draw):
    count = draw(st.integers(1, 40))
    groups = draw(st.lists(st.lists(st.integers(0, count - 1), min_size=1, max_size=3, unique=True),
                           min_size=1, max_size=4))
    return count, groups, draw(st.integers(1, 4))


@settings(max_examples=150, deadline=None)
@given(problems())
def test_result_passes_and_is_one_minimal(problem):
    count, groups, width = problem
    passes = needs(groups)
    for search in (minimal_restoration, ddmin_restoration):
        found = search(count, passes, width=width)
        assert passes([found])[0]
        for item in found:  # putting back any one culprit fails again
            assert not passes([tuple(x for x in found if x != item)])[0]


@settings(max_examples=60, deadline=None)
@given(problems())
def test_answer_does_not_depend_on_width(problem):
    count, groups, _ = problem
    for search in (minimal_restoration, ddmin_restoration):
        assert len({search(count, needs(groups), width=w) for w in (1, 2, 3, 8)}) == 1


def test_few_trees_for_few_culprits():
    calls = []

    def passes(restorations):
        calls.extend(restorations)
        return needs([[100], [700]])(restorations)

    assert minimal_restoration(1000, passes) == (100, 700)
    assert len(calls) <= 2 * 11 + 2  # two binary searches over 1000 edits
    calls.clear()
    assert minimal_restoration(1000, passes, guess=(100, 700, 5)) == (100, 700)
    assert len(calls) <= 1 + 2 * 2 + 2


def test_alternatives_restore_only_one():
    assert minimal_restoration(3, needs([[1, 2]])) == (1,)
    assert ddmin_restoration(3, needs([[1, 2]])) in {(1,), (2,)}
