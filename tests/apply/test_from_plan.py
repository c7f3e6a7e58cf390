"""Removals of a plan become batches: grouped, ordered, merged per file, and applied by the engine."""

from __future__ import annotations

import pytest
from tests.apply.applykit import ImportCheck, ParseCheck, make_fixture

from slimfork.apply.engine import run_batches
from slimfork.apply.from_plan import batches_from_removals
from slimfork.errors import SlimforkError
from slimfork.decisions import Removal


def test_removals_become_ordered_batches(tmp_path):
    root = make_fixture(tmp_path / "src")
    removals = [
        Removal("folded", "app/util.py", "if is_hip(): folded", group="folded"),
        Removal("symbol", "app/util.py", "double is unused", group="symbols"),
        Removal("unreachable", "app/unused.py", "no module imports it", "app.unused", group="app"),
        Removal("unreachable", "app/plugins/a.py", "no module imports it", "app.plugins.a", group="app/plugins"),
        Removal("dropped", "data/notes.txt", "dropped by drop[0]", group="dropped"),
        Removal("dropped", "app/old", "dropped by drop[1]", group="dropped"),  # a folder: its files are listed
        Removal("empty-dir", "app/old", "empty"),
        Removal("symbol", "app/unused.py", "U is unused", group="symbols"),  # deleted anyway
    ]
    new_util = b"from app.core import answer\n"
    batches = batches_from_removals(removals, root, {"app/util.py": new_util})
    # folding first (it cuts imports), then deletions (importers first), then symbol pruning
    assert [b.name for b in batches] == ["folded", "dropped", "unreachable app", "unreachable app/plugins",
                                         "symbol symbols"]
    assert [[e.path for e in b.edits] for b in batches] == [
        ["app/util.py"], ["data/notes.txt"], ["app/unused.py"], ["app/plugins/a.py"], ["app/util.py"]]
    assert batches[0].edits[0].content == new_util and batches[1].edits[0].content is None
    assert batches[2].message == "Remove modules nothing kept imports under app: 1 file(s)."

    report = run_batches(root, tmp_path / "fork", batches[1:4], [ParseCheck(), ImportCheck(["app.plugins.b"])])
    assert [len(b.restored) for b in report.batches] == [0, 0, 1]


def test_a_rewrite_without_content_is_an_error(tmp_path):
    root = make_fixture(tmp_path / "src")
    with pytest.raises(SlimforkError, match="has no rewritten content"):
        batches_from_removals([Removal("folded", "app/util.py", "r")], root)


def test_importers_are_deleted_before_what_they_import(tmp_path):
    root = tmp_path / "src"
    files = {"pkg/__init__.py": "", "pkg/low/base.py": "B = 1\n", "pkg/mid/user.py": "from pkg.low import base\n",
             "pkg/top/app.py": "from ..mid import user\n", "pkg/c1/x.py": "from pkg.c2 import y\n",
             "pkg/c2/y.py": "import pkg.c1.x\n"}
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    removals = [Removal("unreachable", rel, "no module imports it", group=rel.rsplit("/", 1)[0])
                for rel in sorted(files) if rel != "pkg/__init__.py"]
    removals.append(Removal("dropped", "pkg/low/base.py", "dropped by drop[0]", group="dropped"))
    names = [b.name for b in batches_from_removals(removals, root)]
    # top imports mid imports low; c1 and c2 import each other and go together
    assert names == ["unreachable pkg/c1 + unreachable pkg/c2", "unreachable pkg/top", "unreachable pkg/mid",
                     "dropped"]


def test_a_merged_batch_names_each_kind_once_with_its_folders():
    from slimfork.apply.from_plan import _describe

    assert _describe("dropped + unreachable pkg/a + unreachable pkg/b") == \
        "paths the spec drops; modules nothing kept imports under pkg/a, pkg/b"


def test_deletions_importing_what_a_rewrite_removes_go_with_it(tmp_path):
    root = tmp_path / "src"
    files = {"pkg/__init__.py": "", "pkg/reg/sub.py": "",
             "pkg/reg/__init__.py": "from . import sub\n\n\ndef keep():\n    pass\n\n\ndef helper():\n    pass\n",
             "pkg/old/__init__.py": "",
             "pkg/old/user.py": "def f():\n    from ..reg import helper, keep\n    return helper, keep\n",
             "pkg/old/typed.py": "import typing\nif typing.TYPE_CHECKING:\n    from pkg.reg import helper\n",
             "pkg/old/needs_user.py": "from . import user\n", "pkg/far/uses.py": "import pkg.old.needs_user\n",
             "pkg/far/guarded.py": "try:\n    from pkg.old import user\nexcept ImportError:\n    user = None\n",
             "pkg/far/sub_user.py": "from pkg.reg import sub, keep\n", "pkg/far/base.py": "X = 1\n"}
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    removals = [Removal("unreachable", rel, "no module imports it", group=rel.rsplit("/", 1)[0])
                for rel in sorted(files) if rel.startswith(("pkg/old/", "pkg/far/"))]
    removals.append(Removal("folded", "pkg/reg/__init__.py", "registry cut", group="folded"))
    new_reg = b"def keep():\n    pass\n"  # loses helper, and sub (still a submodule: importable by name)
    batches = {b.name: b for b in batches_from_removals(removals, root, {"pkg/reg/__init__.py": new_reg})}
    folded = {e.path: e for e in batches["folded"].edits}
    # a function's relative import and a TYPE_CHECKING import of helper (the imports check reads both), then
    # (transitively) the planned deletions importing those files unguarded
    assert sorted(folded) == ["pkg/far/uses.py", "pkg/old/needs_user.py", "pkg/old/typed.py", "pkg/old/user.py",
                              "pkg/reg/__init__.py"]
    assert folded["pkg/old/user.py"].content is None and folded["pkg/old/user.py"].kind == "unreachable"
    assert folded["pkg/old/user.py"].reason == ("no module imports it; deleted with the folded files: it imports "
                                                "helper, which the rewrite of pkg/reg/__init__.py removes")
    assert folded["pkg/far/uses.py"].reason.endswith("it imports pkg/old/needs_user.py, which goes with them")
    assert batches["folded"].message.endswith("(4 planned deletion(s) among them: they import what a rewrite "
                                              "removes).")
    # the ImportError-guarded importer, the one importing only a submodule, and the rest stay where planned
    assert [e.path for e in batches["unreachable pkg/far"].edits] == ["pkg/far/base.py", "pkg/far/guarded.py",
                                                                       "pkg/far/sub_user.py"]
    assert [e.path for e in batches["unreachable pkg/old"].edits] == ["pkg/old/__init__.py"]
