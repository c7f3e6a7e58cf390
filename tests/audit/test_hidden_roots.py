"""Hidden roots only where code enumerates its own package; file-name strings resolve to one file."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from slimfork.audit.run import AuditOptions, run_audit
from slimfork.index import summarize
from slimfork.source.layout import open_tree

ROOT = Path(__file__).parent / "fixtures" / "hidden_lib"


@pytest.fixture(scope="module")
def unused():
    result = run_audit(open_tree(ROOT), options=AuditOptions(kinds={"unused-file"}))[0]
    return result, {f.subject: f for f in result.findings}


def test_data_file_globs_and_file_mentions_add_no_roots(unused):
    result, found = unused
    # loader.py globs *.safetensors / *.metal / *.json and reads __file__: the dead folder stays unused
    assert "hidlib/dead/" in found and "not reached" in found["hidlib/dead/"].message
    assert found["hidlib/dead/"].confidence == 40  # a public subpackage of the library its tests import


def test_own_folder_listings_are_roots_with_their_trigger(unused):
    result, found = unused
    assert not any(s.startswith("hidlib/plugins") or s.startswith("hidlib/old") for s in found)
    triggers = {t["trigger"]: t["modules"] for t in result.stats["hidden_root_triggers"]}
    plugins = next(n for t, n in triggers.items() if "hidlib/plugins/__init__.py:5" in t and ".glob('*.py')" in t)
    old = next(n for t, n in triggers.items() if "hidlib/runner.py:8" in t and "os.listdir" in t)
    assert plugins == 2 and old == 1  # the listing of hidlib/old/ keeps only what is below it


def test_basename_string_resolves_to_one_file_or_is_ambiguous(unused):
    _result, found = unused
    # "_compat.py" joined to the folder "hidlib" in conftest: hidlib/_compat.py, not hidlib/dead/_compat.py
    assert "hidlib/_compat.py" not in found and "hidlib/dead/" in found
    # "helpers.py" names two files equally: both reported, low confidence, saying why
    for twin in ("hidlib/twin_a/", "hidlib/twin_b/"):
        assert found[twin].confidence == 30 and '"helpers.py"' in found[twin].reason


@pytest.mark.parametrize("code, expected", [
    ("import os\nfor n in os.listdir(os.path.dirname(__file__)):\n    __import__(n)\n", [(2, 1, "")]),
    ("from pathlib import Path\nfiles = Path(__file__).parent.glob('*.py')\n", [(2, 1, "")]),
    ("from pathlib import Path\nfiles = Path(__file__).parents[1].glob('sub/*.py')\n", [(2, 2, "sub")]),
    ("from pathlib import Path\nw = Path(__file__).parent.glob('*.safetensors')\n", []),
    ("import os\nnames = os.listdir(os.path.dirname(__file__))\n", []),  # no .py, no dynamic import
    ("import os\nnames = os.listdir(some_dir)\nx = __file__\nimport importlib\n", []),
])
def test_self_listing_detection(code, expected):
    assert [item[:3] for item in summarize(code.encode()).scan.self_listings] == expected


def test_relative_imports_of_tests_in_a_folder_package_reach_their_helpers(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "pkg"\nversion = "0"\n')
    fmha = tmp_path / "test" / "attention" / "fmha"  # only the last folder is a package
    fmha.mkdir(parents=True)
    (fmha / "__init__.py").write_text("")
    (fmha / "test_forward.py").write_text("from .utils import helper\n\n\ndef test_x():\n    assert helper()\n")
    (fmha / "utils.py").write_text("def helper():\n    return 1\n")
    result, _ = run_audit(open_tree(tmp_path), options=AuditOptions(kinds={"unused-file"}))
    assert result.findings == []


def test_a_missing_import_whose_tail_is_in_the_tree_keeps_that_module(tmp_path):
    """bench/ is installed as pkg/bench by the build: ``from pkg.bench.common import x`` names bench/common.py."""
    for rel, text in {"pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n', "pkg/__init__.py": "",
                      "bench/__init__.py": "", "bench/common.py": "def x():\n    return 1\n",
                      "tests/test_bench.py": "from pkg.bench.common import x\n"}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    result, _ = run_audit(open_tree(tmp_path), options=AuditOptions(kinds={"unused-file", "orphaned-test"}))
    assert not any(f.subject.startswith("bench") for f in result.findings)
    (test,) = [f for f in result.findings if f.kind == "orphaned-test"]  # its import exists under bench/
    assert test.confidence == 40 and "bench/common.py is" in test.reason


def test_only_the_path_a_statement_builds_from_file_names_a_folder(tmp_path):
    """lmdeploy's setup.py: `setup(name="lmdeploy", ext_modules=ext_modules)`, where ext_modules holds a path from
    __file__, read "lmdeploy" as a folder read by its path and kept the whole package; flashinfer's
    `_root / "flashinfer" / "data"` kept all of flashinfer. Only the constants joined to the base count, as one
    path, and a top-level package's own folder keeps nothing."""
    files = {
        "pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n',
        "setup.py": """
            import os
            from pathlib import Path
            from setuptools import Extension, setup

            pwd = os.path.dirname(__file__)
            _root = Path(__file__).parent
            _data_dir = _root / "pkg" / "data"
            ext_modules = [Extension("_ext", sources=[], library_dirs=[str(Path(__file__).parent.absolute())])]
            include = [_root / "pkg"]

            if __name__ == "__main__":
                setup(name="pkg", author="pkg", ext_modules=ext_modules)
            """,
        "pkg/__init__.py": "from pkg import live\n",
        "pkg/live.py": "X = 1\n",
        "pkg/dead.py": "Y = 2\n",
        "pkg/data/tool.py": "print('a data file')\n",
        "tests/test_live.py": "from pkg.live import X\n\ndef test_x():\n    assert X\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(textwrap.dedent(text))
    result = run_audit(open_tree(tmp_path), options=AuditOptions(kinds={"unused-file"}))[0]
    found = {f.subject for f in result.findings}
    assert "pkg/dead.py" in found and not any(s.startswith("pkg/data") for s in found)
    summary = summarize(textwrap.dedent(files["setup.py"]).encode())
    assert [t for t, _ in summary.folder_strings] == ["./pkg/data", "./pkg"]


def test_bare_imports_of_helpers_in_a_folder_pytest_puts_on_sys_path(tmp_path):
    """Transformer Engine's tests/pytorch/test_*.py say `from utils import dtype_tols` and its references/ say
    `from references.quantize_scale_calc import ...`; lmdeploy's autotest says `from utils.config_utils import ...`.
    pytest (prepend import mode) puts a test's folder, or the first one above it without an __init__.py, on
    sys.path: the helpers are used, by tests only. A bare name nothing there answers stays external."""
    files = {
        "pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n',
        "pkg/__init__.py": "",
        "pkg/ops.py": "def op():\n    return 1\n",
        "pkg/only_helpers_use.py": "def helper_op():\n    return 2\n",
        "tests/pytorch/utils.py": "from pkg.only_helpers_use import helper_op\n\ntols = 1\n",
        "tests/pytorch/references/ref.py": "from references.calc import scale\n",
        "tests/pytorch/references/calc.py": "def scale():\n    return 3\n",
        "tests/pytorch/test_ops.py": "from utils import tols\nfrom references.ref import *\nimport numpy\n\n"
                                     "def test_op():\n    assert tols\n",
        "tests/pytorch/attention/test_attn.py": "from utils import tols\n\ndef test_attn():\n    assert tols\n",
        "tests/pytorch/dead_helper.py": "X = 1\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    result = run_audit(open_tree(tmp_path), options=AuditOptions(kinds={"unused-file"}))[0]
    found = {f.subject: f for f in result.findings}
    assert not any(s.startswith(("tests/pytorch/utils", "tests/pytorch/references")) for s in found)
    assert found["tests/pytorch/dead_helper.py"].confidence >= 50
    # what only the helpers import is reached by tests only, not by the library
    assert "remove with it: tests/pytorch/" in found["pkg/only_helpers_use.py"].reason


def test_modules_native_code_imports_are_roots(tmp_path):
    """mlx's extension init runs ``nb::module_::import_("pkg._reprlib_fix")``; pybind11's
    ``py::module_::import("pkg._hooks")`` and ``PyImport_ImportModule`` likewise: those modules run. A module
    a plain C++ string names (``"pkg._stale"`` as data) is not imported."""
    files = {"pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n', "pkg/__init__.py": "",
             "pkg/_reprlib_fix.py": "X = 1\n", "pkg/_hooks.py": "Y = 1\n", "pkg/_capi.py": "Z = 1\n",
             "pkg/_stale.py": "W = 1\n",
             "csrc/core.cpp": 'NB_MODULE(core, m) {\n  auto fix = nb::module_::import_("pkg._reprlib_fix");\n'
                              '  py::module_::import("pkg._hooks");\n  PyImport_ImportModule("pkg._capi");\n'
                              '  const char* doc = "pkg._stale";\n}\n'}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    result, _ = run_audit(open_tree(tmp_path), options=AuditOptions(kinds={"unused-file"}))
    assert {f.subject for f in result.findings} == {"pkg/_stale.py"}
    assert any("imported by native code at csrc/core.cpp:2" in t["trigger"] for t in result.stats["hidden_root_triggers"])


def test_triggers_of_one_kind_in_one_file_are_one_line():
    """pytest-httpserver 1.1.0's audit printed "hidden roots: 1 module kept by a file name at
    tests/test_release.py:157", then :158, :159 ... ten lines for one test listing its package's files."""
    from slimfork.audit.hidden_roots import hidden_root_triggers

    from slimfork.spec.model import Root

    extra = [Root("module", f"pkg.m{i}", text=f"pkg.m{i} (named as a file at tests/test_release.py:{150 + i})")
             for i in range(7)]
    extra += [Root("module", "pkg.x", text="pkg.x (named as a file at tests/test_other.py:3)"),
              Root("module", "pkg.y", text="pkg.y (imported by native code at csrc/core.cpp:2)")]
    assert hidden_root_triggers(extra) == [
        {"trigger": "a file name at tests/test_release.py:150, 151, 152, 153, 154 ... (7 places)", "modules": 7},
        {"trigger": "a file name at tests/test_other.py:3", "modules": 1},
        {"trigger": "imported by native code at csrc/core.cpp:2", "modules": 1}]
