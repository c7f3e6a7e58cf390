"""The checks of one batch open the same tree one after the other: the summaries of the trees opened last stay
held, so only files whose content is new are summarised again (sglang's folded fork: 40-70 s a check before)."""

from __future__ import annotations

import gc

from slimfork.index import build
from slimfork.verify.tree import TreeLayout, open_tree


def _project(root, n):
    pkg = root / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    for i in range(n):
        (pkg / f"m{i}.py").write_text(f"import os\n\nVALUE_{i} = {i}\n\n\ndef f{i}():\n    return os.sep\n")
    return pkg


def test_a_tree_opened_again_is_not_summarised_again(tmp_path, monkeypatch):
    pkg = _project(tmp_path / "t", 5)
    layout = TreeLayout("", ("pkg",))
    calls = []
    real = build.summarize
    monkeypatch.setattr(build, "summarize", lambda data, sha=None: calls.append(sha) or real(data, sha))
    first = open_tree(tmp_path / "t", layout, jobs=1)
    assert first.summary("pkg/m3.py").defs  # summarised here
    summarised = len(calls)
    del first
    gc.collect()
    again = open_tree(tmp_path / "t", layout, jobs=1)
    assert len(calls) == summarised and again.summary("pkg/m3.py").defs
    (pkg / "m3.py").write_text("VALUE = 3\n")  # one file changed: only it is summarised
    (pkg / "m4.py").unlink()
    changed = open_tree(tmp_path / "t", layout, jobs=1)
    assert len(calls) == summarised + 1 and "VALUE" in changed.summary("pkg/m3.py").defs
