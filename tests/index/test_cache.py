"""The index is cached by content: a second run re-parses only the files that changed."""

from __future__ import annotations

import os

from slimfork.index import build_index


def _project(tmp_path, n=5):
    pkg = tmp_path / "proj" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    for i in range(n):
        (pkg / f"m{i}.py").write_text(f"import pkg.m{(i + 1) % n}\nX = {i}\n")
    return tmp_path / "proj"


def test_second_run_parses_nothing(tmp_path):
    root = _project(tmp_path)
    first = build_index(root, jobs=1)
    assert first.parsed == 6
    second = build_index(root, jobs=1)
    assert second.parsed == 0
    assert second.files == first.files


def test_changed_file_is_reparsed_and_unchanged_are_not(tmp_path):
    root = _project(tmp_path)
    build_index(root, jobs=1)
    (root / "pkg" / "m2.py").write_text("import pkg.m0\nimport json\nX = 'changed'\n")
    again = build_index(root, jobs=1)
    assert again.parsed == 1
    assert [e.module for e in again.files["pkg/m2.py"].imports] == ["pkg.m0", "json"]


def test_touched_file_with_same_content_is_not_reparsed(tmp_path):
    root = _project(tmp_path)
    build_index(root, jobs=1)
    path = root / "pkg" / "m1.py"
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    assert build_index(root, jobs=1).parsed == 0


def test_new_and_deleted_files(tmp_path):
    root = _project(tmp_path)
    build_index(root, jobs=1)
    (root / "pkg" / "m0.py").unlink()
    (root / "pkg" / "new.py").write_text("Y = 1\n")
    again = build_index(root, jobs=1)
    assert again.parsed == 1
    assert "pkg/m0.py" not in again.files and "pkg/new.py" in again.files


def test_parallel_and_serial_agree(tmp_path):
    root = _project(tmp_path, n=150)
    serial = build_index(root, jobs=1, use_cache=False)
    parallel = build_index(root, jobs=2, use_cache=False)
    assert serial.files == parallel.files


def test_corrupt_cache_is_only_a_slower_run(tmp_path, monkeypatch):
    root = _project(tmp_path)
    build_index(root, jobs=1)
    for cache_file in (tmp_path.parent.glob("**/index/*.pkl")):
        cache_file.write_bytes(b"garbage")
    for cache_file in __import__("pathlib").Path(os.environ["SLIMFORK_CACHE"]).glob("index/**/*.pkl"):
        cache_file.write_bytes(b"garbage")  # the tree's cache and the summaries stored by content
    assert build_index(root, jobs=1).parsed == 6


def test_skipped_files_are_counted_not_parsed_nor_cached(tmp_path):
    root = _project(tmp_path)
    (root / "pkg" / "m3.py").write_text("def broken(:\n    pass\n")
    index = build_index(root, jobs=1, skip=lambda rel: rel == "pkg/m3.py")
    assert index.parsed == 5
    assert index.files["pkg/m3.py"].lines == 2 and index.files["pkg/m3.py"].error is None
    full = build_index(root, jobs=1)  # without skip the file is parsed (and its error reported)
    assert full.parsed == 1 and full.files["pkg/m3.py"].error.startswith("cannot parse")
    assert build_index(root, jobs=1, skip=lambda rel: rel == "pkg/m3.py").parsed == 0  # cached now: reused


def test_a_copy_of_a_tree_parses_nothing(tmp_path, monkeypatch):
    """Summaries are stored by content across trees: a copy elsewhere (another checkout, a scratch copy, the next
    release's unchanged files) parses only what it changed, also in a new process (session 47: a copy of
    SQLAlchemy re-parsed all 677 files, 3 minutes)."""
    import shutil
    from collections import OrderedDict
    from weakref import WeakValueDictionary

    from slimfork.index import build

    root = _project(tmp_path)
    assert build_index(root, jobs=1).parsed == 6
    copy = tmp_path / "copy"
    shutil.copytree(root, copy)
    (copy / "pkg" / "m3.py").write_text("X = 'changed'\n")
    monkeypatch.setattr(build, "_BY_CONTENT", WeakValueDictionary())  # as a new process has
    monkeypatch.setattr(build, "_RECENT", OrderedDict())
    again = build_index(copy, jobs=1)
    assert again.parsed == 1
    assert again.files["pkg/m1.py"] == build_index(root, jobs=1).files["pkg/m1.py"]
    assert again.files["pkg/m3.py"].imports == []
