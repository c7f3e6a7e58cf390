"""The two bisection searches on predicates with known answers: "the fork needs at least one edit of each group
restored" (a group of one is a plain culprit; a larger group is a set of alternatives)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slimfork.apply.bisect import BisectionLimit, ddmin_restoration, minimal_restoration


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


@settings(max_examples=100, deadline=None)
@given(problems(), st.integers(1, 12))
def test_a_limit_stops_the_search_with_a_passing_restoration(problem, limit):
    count, groups, width = problem
    for search in (minimal_restoration, ddmin_restoration):
        calls = []

        def passes(restorations):
            calls.extend(restorations)
            return needs(groups)(restorations)

        try:
            found = search(count, passes, width=width, limit=limit)
        except BisectionLimit as stop:
            assert len(calls) == stop.trees <= limit and not set(stop.found) & set(stop.rest)
            found = tuple(sorted(stop.found + stop.rest))
        else:
            assert len(calls) <= limit
        assert passes([found])[0]


def test_the_limit_keeps_the_culprits_found_and_restores_the_rest():
    passes = needs([[100], [700]])
    with pytest.raises(BisectionLimit) as stop:
        minimal_restoration(1000, passes, limit=14)
    assert stop.value.trees == 14 and stop.value.found == (700,)  # the first search took 11 trees
    assert 100 in stop.value.rest and len(stop.value.rest) < 700  # a prefix the second search saw pass
    assert minimal_restoration(1000, passes, limit=100) == (100, 700)  # a limit not reached changes nothing
