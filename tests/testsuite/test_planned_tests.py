"""The tests stage on a small CLI project written as fixture files (tests/testsuite/fixtures/minicli): tests of
removed code and tests that fake a folded fact leave the fork with their reasons; the rest pass in the fork."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from slimfork.api import analyse, shrink
from slimfork.report.stats import walk_files
from slimfork.report.write import shrink_stats

FIXTURE = Path(__file__).parent / "fixtures" / "minicli"


@pytest.fixture(scope="module")
def analysis():
    return analyse(FIXTURE / "slimfork.toml", jobs=1)


def _removed(analysis):
    return {(r["path"], r["test"]): (r["category"], r["reason"]) for r in analysis.stages.data["tests"]["removed"]}


def test_test_of_a_removed_module_goes_whole(analysis):
    category, reason = _removed(analysis)[("tests/test_winconsole.py", None)]
    assert category == "uses removed code"
    assert "minicli._winconsole" in reason and "tests/test_winconsole.py:1" in reason


def test_tests_faking_a_fact_are_listed_separately(analysis):
    removed = _removed(analysis)
    category, reason = removed[("tests/test_console.py", "test_windows_console_via_helper")]
    assert category == "fakes a folded fact"
    assert "via _pretend_windows" in reason and "sys.platform to 'win32'" in reason
    category, reason = removed[("tests/test_console.py", "test_windows_flag_via_fixture")]
    assert category == "fakes a folded fact" and "via fake_windows" in reason and "minicli._compat.WIN" in reason
    assert removed[("tests/test_console.py", "TestConsole.test_flag")][0] == "fakes a folded fact"
    assert ("tests/test_console.py", "_pretend_windows") in removed  # a faking helper only removed tests used


def test_consistent_patches_helpers_and_conftest_stay(analysis):
    removed = {key for key in _removed(analysis)}
    for kept in ("test_posix_console", "test_linux_platform_is_consistent", "TestConsole.test_kept"):
        assert ("tests/test_console.py", kept) not in removed
    assert not any(path.startswith("tests/support") for path, _ in removed)
    # the conftest stays; only its faking fixture goes, since every test that used it went
    assert [key for key in removed if key[0] == "tests/conftest.py"] == [("tests/conftest.py", "fake_windows")]


def test_registry_entries_take_their_tests_and_data(analysis):
    removed = _removed(analysis)
    assert removed[("tests/test_formats.py", "test_yaml_class")][0] == "uses removed code"
    assert ("tests/test_formats.py", "test_get") not in removed
    data = analysis.stages.data["tests"]["removed_data"]
    # test_snippet.txt matches pytest's doctest glob but holds no >>> example: data, not a doctest file
    assert data == ["tests/data/yaml/sample.yaml", "tests/data/yaml/test_snippet.txt"]
    removed_modules = {r.module for r in analysis.plan.removals if r.kind == "unreachable"}
    assert {"minicli.fmt_yaml", "minicli._winconsole"} <= removed_modules
    assert "minicli.fmt_json" not in removed_modules
    before, _ = shrink_stats(analysis)  # what the tests stage removes counts in the source's size too
    assert before.total.files == len(walk_files(FIXTURE))


def test_fork_passes_its_remaining_tests_and_keeps_formatting(tmp_path):
    out = tmp_path / "fork"
    result = shrink(FIXTURE / "slimfork.toml", out, jobs=1)
    assert not result.apply.restored, result.apply.to_markdown()  # test_sample_per_format[YamlFormat] too
    names = [b.name for b in result.apply.batches]  # test data goes once its registry entry is gone
    assert names.index("tests") < names.index("folded") < names.index("test data")
    pytest_base = next(b for b in result.apply.baselines if b.check == "pytest")
    assert pytest_base.usable and "5 of them leave the fork" in pytest_base.note
    text = (out / "tests" / "test_console.py").read_text()
    assert "def test_windows_console_via_helper" not in text and "_pretend_windows" not in text
    assert "def test_posix_console():\n    assert shout(" in text  # untouched code stays byte for byte
    mapping = (out / "src" / "minicli" / "_mapping.py").read_text()
    assert mapping == ("# name -> (module, aliases)\nFORMATS = {\n    'JsonFormat': ('minicli.fmt_json', ('json',)),\n}\n")
    assert not (out / "tests" / "test_winconsole.py").exists() and not (out / "src/minicli/fmt_yaml.py").exists()
    shutil.rmtree(out / ".git")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=out,
                          capture_output=True, text=True, env={"PYTHONPATH": str(out / "src"), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert "5 passed" in proc.stdout


def test_selected_tests_the_plan_cut_leave_the_selection(tmp_path):
    from slimfork.testsuite.check import PlannedTestsCheck
    from slimfork.verify.checks.pytest import PytestCheck
    from slimfork.verify.env import current_env
    from slimfork.verify.spec import PytestSpec
    from tests.verify.verify_helpers import LAYOUT, copy_project, edit

    original, fork = copy_project(tmp_path)
    spec = PytestSpec(tests=("tests/test_core.py::test_run", "tests/test_core.py::test_extra"),
                      args=("-p", "no:xdist"))
    check = PlannedTestsCheck(PytestCheck(LAYOUT, current_env(), spec), set(), {("tests/test_core.py", "test_extra")},
                              set())
    baseline = check.baseline(original)
    assert baseline.data["gone"] == {"tests.test_core::test_extra"}
    text = (fork / "tests/test_core.py").read_text()
    edit(fork, {"pkg/extra.py": None, "tests/test_core.py": text[:text.index("def test_extra")]})
    result = check.run(fork, baseline)  # pytest would run nothing if it were given the cut test's node id
    assert result.ok, result.failures
