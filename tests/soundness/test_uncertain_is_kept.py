"""The rule of docs/soundness.md on several projects: every candidate an uncertain place lists is kept, and every
place says what the user can declare to decide it."""

from __future__ import annotations

import pytest

from slimfork.api import analyse
from tests.conftest import EXAMPLE
from tests.soundness.soundkit import uncertain_not_kept

PROJECTS = [("soundness", "relstrings"), ("soundness", "scans"), ("graph", "forms"), ("symbols", "libpit"),
            ("testsuite", "minicli")]


@pytest.mark.parametrize("area,name", PROJECTS)
def test_every_uncertain_candidate_is_kept(copy_fixture, area, name):
    analysis = analyse(copy_fixture(area, name) / "slimfork.toml", jobs=1)
    assert uncertain_not_kept(analysis) == []
    graph_places = [u for u in analysis.plan.uncertain if u.what and not u.what.startswith(("symbols of",
                                                                                              "methods of"))]
    assert all(u.declare for u in graph_places), graph_places
    # only a name computed entirely at run time keeps no listed candidates (strings elsewhere name its targets)
    assert [u for u in graph_places if not u.kept and "entirely at run time" not in u.why] == []


def test_the_example_keeps_what_its_uncertain_places_name():
    analysis = analyse(EXAMPLE / "slimfork.toml", jobs=1)
    assert uncertain_not_kept(analysis) == []
