"""Checks 1-3 (parse, imports, pyflakes): each is broken by one removal in a fixture project and must report
exactly that new failure, pointing at the file, and nothing the original already had."""

from __future__ import annotations

from slimfork.verify.checks.imports import ImportsCheck
from slimfork.verify.checks.parse import ParseCheck
from slimfork.verify.checks.pyflakes import PyflakesCheck
from slimfork.verify.tree import TreeLayout

from tests.verify.verify_helpers import LAYOUT, copy_project, edit


def test_identical_copy_passes_every_static_check(tmp_path):
    original, fork = copy_project(tmp_path)
    for check in (ParseCheck(LAYOUT), ImportsCheck(LAYOUT), PyflakesCheck(LAYOUT)):
        baseline = check.baseline(original)
        assert baseline.usable
        result = check.run(fork, baseline)
        assert result.ok, result.failures
        assert result.failures == () and result.paths == ()


def test_parse_reports_a_truncated_file_only(tmp_path):
    original, fork = copy_project(tmp_path)
    check = ParseCheck(LAYOUT)
    baseline = check.baseline(original)
    assert "1 do not parse in the original" in baseline.note  # legacy_py2.py
    edit(fork, {"pkg/util.py": "def fmt(greeting, name):\n    return f\"{greeting}, {name\n"})
    result = check.run(fork, baseline)
    assert not result.ok
    assert result.paths == ("pkg/util.py",)
    assert len(result.failures) == 1 and result.failures[0].startswith("pkg/util.py: cannot parse")


def test_imports_reports_a_removed_module_at_its_importer(tmp_path):
    original, fork = copy_project(tmp_path)
    check = ImportsCheck(LAYOUT)
    baseline = check.baseline(original)
    assert baseline.data["broken"] == set()  # pkg.not_shipped is missing, but under try/except ImportError
    edit(fork, {"pkg/util.py": None})
    result = check.run(fork, baseline)
    assert result.paths == ("pkg/core.py", "pkg/util.py")  # the importer, and the removed file (a bisection hint)
    assert result.failures == ("pkg/core.py:3: from pkg.util import fmt, shout: no module pkg.util",)


def test_imports_accepts_a_gone_module_the_code_guards_but_not_a_gone_name(tmp_path):
    original, fork = copy_project(tmp_path)
    guarded = {"pkg/optional.py": "def extra():\n    return 1\n",
               "pkg/feature.py": "try:\n    from pkg.optional import extra\nexcept (ImportError, OSError):\n"
                                 "    extra = None\n"}
    edit(original, guarded)
    edit(fork, guarded)
    check = ImportsCheck(LAYOUT)
    baseline = check.baseline(original)
    edit(fork, {"pkg/optional.py": "def other():\n    return 2\n"})  # the module stays, the name is gone
    assert check.run(fork, baseline).failures == (
        "pkg/feature.py:2: from pkg.optional import extra: pkg.optional has no name or submodule 'extra'",)
    edit(fork, {"pkg/optional.py": None})  # the whole optional module is gone: the code handles that
    assert check.run(fork, baseline).ok


def test_imports_accept_a_gone_module_only_type_checkers_import(tmp_path):
    original, fork = copy_project(tmp_path)
    typed = {"pkg/engine.py": "class Engine:\n    pass\n",
             "pkg/typed.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from pkg.engine import Engine\n"
                             "\n\ndef run(engine: 'Engine') -> None:\n    import pkg.engine\n"}
    edit(original, typed)
    edit(fork, typed)
    check = ImportsCheck(LAYOUT)
    baseline = check.baseline(original)
    edit(fork, {"pkg/engine.py": None})  # the import in run() runs, the TYPE_CHECKING one never does
    assert check.run(fork, baseline).failures == ("pkg/typed.py:8: import pkg.engine: no module pkg.engine",)
    edit(fork, {"pkg/typed.py": typed["pkg/typed.py"].replace("    import pkg.engine\n", "    pass\n")})
    assert check.run(fork, baseline).ok


def test_imports_reports_a_removed_name(tmp_path):
    original, fork = copy_project(tmp_path)
    check = ImportsCheck(LAYOUT)
    baseline = check.baseline(original)
    edit(fork, {"pkg/util.py": "def fmt(greeting, name):\n    return f'{greeting}, {name}'\n"})
    result = check.run(fork, baseline)
    assert result.failures == ("pkg/core.py:3: from pkg.util import shout: pkg.util has no name or submodule 'shout'",)
    assert result.paths == ("pkg/core.py", "pkg/util.py")


def test_imports_accepts_names_it_cannot_see(tmp_path):
    original, fork = copy_project(tmp_path)
    check = ImportsCheck(LAYOUT)
    baseline = check.baseline(original)
    edit(fork, {
        # shout now comes through a star import of an internal module (followed) ...
        "pkg/util.py": "from pkg.shouting import *\n\ndef fmt(greeting, name):\n    return greeting + name\n",
        "pkg/shouting.py": "__all__ = ['shout']\n\ndef shout(text):\n    return text\n",
        # ... and a package with a module __getattr__ may provide anything
        "pkg/lazy.py": "def __getattr__(name):\n    return name\n",
        "pkg/uses.py": "from pkg.lazy import whatever\nfrom pkg import formats, plugins\n",
    })
    assert check.run(fork, baseline).ok
    edit(fork, {"pkg/shouting.py": "__all__ = ['whisper']\n\ndef whisper(text):\n    return text\n"})
    result = check.run(fork, baseline)
    assert result.failures == ("pkg/core.py:3: from pkg.util import shout: pkg.util has no name or submodule 'shout'",)


def test_pyflakes_reports_a_name_whose_definition_was_folded_away(tmp_path):
    original, fork = copy_project(tmp_path)
    check = PyflakesCheck(LAYOUT)
    baseline = check.baseline(original)
    core = (original / "pkg/core.py").read_text()
    # a fold that keeps the else branch's body but loses the assignment in the if branch (pitfall 20)
    edit(fork, {"pkg/core.py": core.replace('if sys.version_info >= (3, 0):\n    GREETING = "hello"\nelse:\n    '
                                            'GREETING = "hi"\n', "")})
    result = check.run(fork, baseline)
    assert result.paths == ("pkg/core.py",)
    assert result.failures == ("pkg/core.py:8: undefined name 'GREETING' (pyflakes UndefinedName)",)


def test_pyflakes_counts_only_increases_per_file(tmp_path):
    original, fork = copy_project(tmp_path)
    check = PyflakesCheck(LAYOUT)
    baseline = check.baseline(original)
    guarded = (original / "pkg/guarded.py").read_text()
    edit(fork, {"pkg/guarded.py": "\n\n" + guarded})  # same undefined name, other line: not new
    assert check.run(fork, baseline).ok
    edit(fork, {"pkg/guarded.py": guarded + "again = missing_name\n"})  # the same name once more: new
    result = check.run(fork, baseline)
    assert result.failures == ("pkg/guarded.py:7: undefined name 'missing_name' (pyflakes UndefinedName)",)


def test_imports_know_namespace_packages_and_src_layouts(tmp_path):
    original, fork = copy_project(tmp_path)
    check = ImportsCheck(LAYOUT)
    baseline = check.baseline(original)
    (fork / "pkg/nsdir").mkdir()  # a folder without __init__.py (as sglang/srt/) is a package
    edit(fork, {"pkg/nsdir/mod.py": "X = 1\n",
                "pkg/uses_ns.py": "import pkg.nsdir.mod\nfrom pkg.nsdir import mod\nfrom .nsdir.mod import X\n"})
    assert check.run(fork, baseline).ok
    edit(fork, {"pkg/uses_ns.py": "from pkg.nsdir import X\n"})  # a namespace package has only submodules
    assert check.run(fork, baseline).failures == (
        "pkg/uses_ns.py:1: from pkg.nsdir import X: pkg.nsdir has no name or submodule 'X'",)
    src = TreeLayout("src", ("pkg",))
    assert src.module_of("src/pkg/a/__init__.py") == "pkg.a" and src.module_of("src/pkg/a/b.py") == "pkg.a.b"
    assert src.module_of("tests/test_a.py") is None and src.module_of("src/other/x.py") is None


def test_imports_note_tells_other_distributions_namespace_parts_apart(tmp_path):
    """google-cloud-core's tree imports google.auth, another distribution's part of the namespace ``google``: the
    original's note says so instead of counting it as a module the tree lacks."""
    root = tmp_path / "orig"
    for rel, text in {"google/cloud/core.py": "import google.auth\nfrom google import protobuf\n",
                      "google/cloud/client.py": "from google.cloud import gone\n",
                      "pkg/__init__.py": "", "pkg/a.py": "import pkg.missing\n"}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    baseline = ImportsCheck(TreeLayout("", ("google", "pkg"))).baseline(root)
    assert len(baseline.data["broken"]) == 4
    assert baseline.note == "4 imports do not resolve in the original (3 of them into a namespace package other " \
                            "distributions share)"
