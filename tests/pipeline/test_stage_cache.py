"""The planning stages' cached result holds the original's file summaries by reference: a second run gets the same
plan, and its graph shares the summaries of the files no stage rewrote with the index (no second copy in memory)."""

from __future__ import annotations

import shutil

from slimfork.pipeline.analyse import analyse
from slimfork.source.cache import read_cache, write_cache
from tests.conftest import EXAMPLE


def test_cached_stages_share_the_index_summaries(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "mlserve")
    spec = tmp_path / "mlserve" / "slimfork.toml"
    first = analyse(spec)
    again = analyse(spec)
    assert again.stages is not None and first.stages is not None
    assert again.plan.removed_paths() == first.plan.removed_paths()
    assert set(again.stages.rewritten) == set(first.stages.rewritten) and again.stages.rewritten
    graph = again.stages.graph.index.files
    unchanged = [rel for rel, summary in again.index.files.items() if not summary.placeholder
                 and rel in graph and graph[rel].sha == summary.sha]
    assert len(unchanged) >= 10
    held = {id(summary) for summary in again.index.files.values()}  # (files of equal content share one)
    for rel in unchanged:
        assert id(graph[rel]) in held, rel
    folded = next(iter(again.stages.rewritten))
    assert graph[folded].sha != again.index.files[folded].sha


def test_shared_objects_come_back_as_they_are(tmp_path):
    shared = {"a": ["the", "original"]}
    write_cache(tmp_path / "v.pkl", {"x": shared["a"], "y": [1]}, shared)
    value = read_cache(tmp_path / "v.pkl", None, shared)
    assert value["x"] is shared["a"] and value["y"] == [1]
    assert read_cache(tmp_path / "v.pkl", "missing", {}) == "missing"  # a key the reader lacks: recomputed
