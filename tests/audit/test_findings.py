"""Unused files and folders, orphaned tests and eager imports on a fixture library (the seed's clean-up)."""

from __future__ import annotations

from pathlib import Path

import pytest

from slimfork.audit.run import AuditOptions, run_audit
from slimfork.source.layout import open_tree
from slimfork.spec.model import Root

ROOT = Path(__file__).parent / "fixtures" / "cleanup_lib"


@pytest.fixture(scope="module")
def result():
    return run_audit(open_tree(ROOT))[0]


def _of(result, kind):
    return {f.subject: f for f in result.findings if f.kind == kind}


def test_unused_folder_is_reported_once_and_files_individually(result):
    unused = _of(result, "unused-file")
    assert set(unused) == {"cleanlib/guided/", "cleanlib/packing.py", "cleanlib/ops/impl/slow.py", "scripts/",
                           "cleanlib/hybrid.py"}
    # a library file only a test imports is reported, with the test that goes with its removal; cleanlib is an
    # installable library its tests import, so its public modules may be what users import: 40, not dead
    assert unused["cleanlib/hybrid.py"].confidence == 40 and "only from tests" in unused["cleanlib/hybrid.py"].message
    assert unused["cleanlib/hybrid.py"].details["tests"] == ["tests/test_hybrid.py"]
    assert unused["cleanlib/guided/"].confidence == 40 and unused["cleanlib/packing.py"].confidence == 40
    assert "public module of the library package cleanlib" in unused["cleanlib/guided/"].reason
    assert unused["scripts/"].confidence == 30  # only scripts (__main__ blocks): may be run by hand
    assert unused["cleanlib/guided/"].details["files"] == ["cleanlib/guided/__init__.py", "cleanlib/guided/decode.py"]
    # the plugin found by pkgutil.iter_modules(__path__) and the console script's module are reached
    assert "cleanlib/plugins/csv_plugin.py" not in unused and "cleanlib/cli.py" not in unused
    # a model found by pkgutil.iter_modules of a package named by its caller ("cleanlib.models") is kept
    assert "cleanlib/models/" not in unused and "cleanlib/models/llama.py" not in unused
    # a submodule a lazy __getattr__ names in a string ("impl.fast:fast_norm") is kept; its sibling is not
    assert "cleanlib/ops/impl/fast.py" not in unused
    # a module named by f"{_PKG}.fast_kernel:run" with the constant _PKG = "cleanlib.kimpl" is kept
    assert "cleanlib/kimpl/fast_kernel.py" not in unused and "cleanlib/kimpl/" not in unused
    # a script another module runs by file name, and modules found by listing a package's own folder
    assert "cleanlib/tools/prepare_pack.py" not in unused and "cleanlib/tools/" not in unused
    assert "cleanlib/components/vision/model.py" not in unused and "cleanlib/components/vision/" not in unused
    assert result.stats["hidden_roots"] == 6


def test_orphaned_tests(result):
    tests = _of(result, "orphaned-test")
    assert set(tests) == {"tests/test_ane.py", "tests/test_core.py", "tests/test_hybrid.py"}
    assert "cleanlib.ane" in tests["tests/test_ane.py"].reason
    assert "gone_function from cleanlib.core" in tests["tests/test_core.py"].reason
    assert tests["tests/test_hybrid.py"].confidence == 40 and "cleanlib.hybrid" in tests["tests/test_hybrid.py"].reason
    assert "public modules" in tests["tests/test_hybrid.py"].reason


def test_eager_init(result):
    eager = _of(result, "eager-import")
    assert sorted(eager) == ["cleanlib", "cleanlib:unused-exports"]
    assert eager["cleanlib"].details["names"] == 33 and eager["cleanlib"].details["statements"] == 9
    # the public names the __init__ imports that no other file uses (cli.py and the tests use op_0..op_2)
    unused = eager["cleanlib:unused-exports"].details["unused"]
    assert "op_5" in unused and not {"op_0", "op_1", "op_2", "plugins"} & set(unused)


def test_spec_roots_replace_the_defaults():
    result, _ = run_audit(open_tree(ROOT), roots=[Root("module", "cleanlib.cli", text="cleanlib.cli")],
                          options=AuditOptions(kinds={"unused-file"}))
    found = {f.subject: f for f in result.findings}
    # the tests are no roots now, so what only they import is unused too
    assert {"cleanlib/guided/", "cleanlib/packing.py", "cleanlib/hybrid.py", "tests/"} <= set(found)
    # the spec names the roots, so unreached public modules are dead, not "public, no internal user"
    assert found["cleanlib/guided/"].confidence == 70 and found["cleanlib/packing.py"].confidence == 60


def test_eager_import_cost_measured_with_an_interpreter():
    import sys

    result, _ = run_audit(open_tree(ROOT), options=AuditOptions(kinds={"eager-import"}, python=sys.executable))
    (finding,) = [f for f in result.findings if f.subject == "cleanlib"]
    assert finding.details["import_ms"] > 0 and "measured" in finding.message


def test_projection_before_and_after(result):
    p = result.stats["projection"]
    removed = {"tests/test_ane.py", "tests/test_core.py"}  # confidence 50+: public modules (40), scripts/ (30) stay
    assert p["before"]["python_files"] - p["after"]["python_files"] == len(removed)
    assert p["before"]["tests"] - p["after"]["tests"] == 2 and p["after"]["scripts"] == p["before"]["scripts"]


def test_test_only_modules_of_a_package_whose_init_imports_none_are_possible_api(tmp_path):
    (tmp_path / "lib" / "gemm").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "lib"\nversion = "0"\n')
    (tmp_path / "lib" / "__init__.py").write_text("import os\n")  # imports none of its modules
    (tmp_path / "lib" / "gemm" / "__init__.py").write_text("def gemm():\n    return 1\n")
    (tmp_path / "tests" / "test_gemm.py").write_text("from lib.gemm import gemm\n")
    result, _ = run_audit(open_tree(tmp_path), options=AuditOptions(kinds={"unused-file", "orphaned-test"}))
    finding, test = result.findings
    assert finding.subject == "lib/gemm/" and finding.confidence == 30 and "public API?" in finding.reason
    assert test.subject == "tests/test_gemm.py" and test.confidence == 30 and "public API?" in test.reason


def test_a_package_of_scripts_is_run_by_hand(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "pkg"\nversion = "0"\n')
    (tmp_path / "pkg" / "bench").mkdir()
    (tmp_path / "pkg" / "bench" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "bench" / "attn_bench.py").write_text(
        'def main():\n    pass\n\n\nif __name__ == "__main__":\n    main()\n')
    result, _ = run_audit(open_tree(tmp_path), options=AuditOptions(kinds={"unused-file"}))
    assert [(f.subject, f.confidence) for f in result.findings] == [("pkg/bench/", 30)]


def test_a_file_that_does_not_parse_is_unknown_not_dead(tmp_path):
    (tmp_path / "pkg" / "bench").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "bench" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "bench" / "new_syntax.py").write_text("def f(:\n    pass\n")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "pkg"\nversion = "0"\n')
    result, _ = run_audit(open_tree(tmp_path), options=AuditOptions(kinds={"unused-file"}))
    (finding,) = result.findings
    assert finding.confidence == 30 and "does not parse" in finding.reason


def test_a_reference_only_tests_use_beside_live_code_is_a_test_helper(tmp_path):
    files = {"pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n',
             "pkg/__init__.py": "from pkg import fast\n", "pkg/fast.py": "def op():\n    return 1\n",
             "pkg/naive.py": "def op_ref():\n    return 1\n", "pkg/old.py": "def gone():\n    return 1\n",
             "tests/test_op.py": "from pkg.fast import op\nfrom pkg.naive import op_ref\n",
             "tests/test_old.py": "from pkg.old import gone\n"}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    result, _ = run_audit(open_tree(tmp_path), options=AuditOptions(kinds={"unused-file"}))
    found = {f.subject: f for f in result.findings}
    assert found["pkg/naive.py"].confidence == 30 and "test helper" in found["pkg/naive.py"].reason
    assert found["pkg/old.py"].confidence == 40 and "tests/test_old.py" in found["pkg/old.py"].reason


def test_a_test_importing_an_extension_module_whose_defs_are_elsewhere_is_no_orphan(tmp_path):
    """mlx: ``NB_MODULE(core, m) { init_array(m); ... }`` builds ``mlx.core`` (CMake puts it in the package), its
    functions bound in other files; ``import mlx.core`` in the tests is no missing import. A test importing a
    module nothing builds is still orphaned."""
    files = {"pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n', "pkg/__init__.py": "",
             "csrc/core.cpp": "#include <nanobind/nanobind.h>\nvoid init_array(nanobind::module_&);\n"
                                    "NB_MODULE(core, m) {\n  init_array(m);\n}\n",
             "csrc/array.cpp": "void init_array(nanobind::module_& m) { m.def(\"zeros\", &zeros); }\n",
             "tests/test_array.py": "import pkg.core as mx\n\ndef test_zeros():\n    assert mx.zeros\n",
             "tests/test_gone.py": "import pkg.removed\n\ndef test_gone():\n    assert pkg.removed\n"}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    result, _ = run_audit(open_tree(tmp_path), options=AuditOptions(kinds={"orphaned-test"}))
    assert {f.subject for f in result.findings} == {"tests/test_gone.py"}
