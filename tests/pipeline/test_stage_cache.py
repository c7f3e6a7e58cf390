"""The planning stages' cached result holds the original's file summaries by reference: a second run gets the same
plan, and its graph shares the summaries of the files no stage rewrote with the index (no second copy in memory)."""

from __future__ import annotations

import os
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


def _example_with_symbols(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "mlserve")
    engine = tmp_path / "mlserve" / "src" / "mlserve" / "core" / "engine.py"
    engine.write_text(engine.read_text() + "\n\ndef _nobody_calls():\n    return 1\n")
    spec = tmp_path / "slimfork.toml"  # beside the source: the spec's own edits do not change the source
    text = (tmp_path / "mlserve" / "slimfork.toml").read_text().replace('source = "."', 'source = "mlserve"')
    (tmp_path / "mlserve" / "slimfork.toml").unlink()
    return spec, text


def _outcome(analysis):
    stages = analysis.stages
    return (analysis.plan.removed_paths(), stages.rewritten,
            sorted((p.module, tuple(p.names)) for p in stages.symbols.pruned))


def test_a_symbols_change_replans_from_the_folded_tree(tmp_path, monkeypatch):
    from slimfork.pipeline import stages

    spec, text = _example_with_symbols(tmp_path)
    spec.write_text(text + "\n[symbols]\nmethods = true\n")
    first = _outcome(analyse(spec))
    assert ("mlserve.core.engine", ("_nobody_calls",)) in first[2]
    spec.write_text(text + '\n[symbols]\nmethods = true\nkeep = ["mlserve.core.engine:_nobody_calls"]\n')
    warm_cache = os.environ["SLIMFORK_CACHE"]
    monkeypatch.setenv("SLIMFORK_CACHE", str(tmp_path / "cold-cache"))
    expected = _outcome(analyse(spec))  # the same spec with nothing cached
    monkeypatch.setenv("SLIMFORK_CACHE", warm_cache)

    calls = []
    monkeypatch.setattr(stages, "fold_tree", lambda *a, **k: calls.append("fold"))
    monkeypatch.setattr(stages, "cut_registries", lambda *a, **k: calls.append("cut"))
    warm = _outcome(analyse(spec))
    assert calls == []  # registries, facts and the plan after them came from the cache
    assert warm == expected and warm[1]  # the folded engine.py, and the symbol stage ran again:
    assert ("mlserve.core.engine", ("_nobody_calls",)) not in warm[2]  # the function is kept now


def test_a_facts_change_folds_again(tmp_path, monkeypatch):
    from slimfork.pipeline import stages

    spec, text = _example_with_symbols(tmp_path)
    spec.write_text(text + "\n[symbols]\nmethods = true\n")
    analyse(spec)
    spec.write_text(text.replace('"mlserve.platform.is_hip" = false', '"mlserve.platform.is_hip" = true')
                    + "\n[symbols]\nmethods = true\n")
    folds = []
    real = stages.fold_tree
    monkeypatch.setattr(stages, "fold_tree", lambda *a, **k: folds.append(1) or real(*a, **k))
    again = analyse(spec)
    assert folds == [1]
    assert "src/mlserve/core/kernels_cuda.py" in again.plan.removed_paths()
