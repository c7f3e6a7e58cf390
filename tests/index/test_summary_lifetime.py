"""Summaries by content are shared while something holds them, and freed when nothing does: the symbol stage's
intermediate rounds must not pile up (issue 30's memory goal)."""

from __future__ import annotations

import gc
import weakref

from slimfork.index import build
from slimfork.index.build import build_index, is_held, summary_of
from slimfork.index.parse import content_hash
from slimfork.verify.tree import TreeLayout, open_tree


def test_a_summary_nothing_holds_is_freed_after_the_recent_ones(monkeypatch):
    monkeypatch.setattr(build, "_RECENT_SIZE", 4)
    first = summary_of(b"x = 1\n")
    gone = weakref.ref(first)
    del first
    for i in range(5):
        summary_of(f"y = {i}\n".encode())
    gc.collect()
    assert gone() is None
    assert not is_held(content_hash(b"x = 1\n"))


def test_an_index_reuses_a_summary_the_process_holds(tmp_path):
    (tmp_path / "a.py").write_text("import os\n")
    held = summary_of(b"import os\n")
    index = build_index(tmp_path, jobs=1, use_cache=False)
    assert index.parsed == 0
    assert index.files["a.py"] is held


def test_a_tree_holds_its_summaries_and_shares_them(tmp_path, monkeypatch):
    monkeypatch.setattr(build, "_RECENT_SIZE", 1)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("from pkg import mod\n")
    (tmp_path / "pkg" / "mod.py").write_text("VALUE = 1\n")
    tree = open_tree(tmp_path, TreeLayout(packages=("pkg",)), jobs=1)
    for i in range(3):
        summary_of(f"z = {i}\n".encode())  # pushes anything summary_of returned out of the recent ones
    gc.collect()
    assert tree.summary("pkg/mod.py").defs == {"VALUE": 1}
    again = open_tree(tmp_path, TreeLayout(packages=("pkg",)), jobs=1)
    assert again.summary("pkg/mod.py") is tree.summary("pkg/mod.py")
