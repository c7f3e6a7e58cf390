"""Tests of code a check restored come back (tests/testsuite/fixtures/testsback): the spec drops a plugin that a
config file outside the package names, the tests batch removes the plugin's tests, pytest restores the plugin, and
a last batch puts its tests back; one that also needs a dropped data file fails once back and stays out. A library
module no root reaches (tb.unused) is no test support: it goes with the test that imports it."""

from __future__ import annotations

import json

from slimfork.api import shrink


def test_tests_of_restored_code_come_back(copy_fixture, tmp_path):
    project = copy_fixture("testsuite", "testsback")
    result = shrink(project / "slimfork.toml", tmp_path / "fork", jobs=1)
    fork = tmp_path / "fork"
    assert [b.name for b in result.apply.batches] == ["tests", "dropped", "unreachable src/tb", "packaging",
                                                        "tests back"]
    restored = {r.path: (name, r.check) for name, r in result.apply.restored}
    assert restored == {"src/tb/plugin.py": ("dropped", "pytest"),
                        "tests/test_plugin_data.py": ("tests back", "pytest")}
    assert (fork / "tests/test_plugin.py").read_bytes() == (project / "tests/test_plugin.py").read_bytes()
    mixed = (fork / "tests/test_mixed.py").read_text()  # tb.unused (no root reaches it) goes with its test
    assert "def test_plugin_value" in mixed and "test_unused" not in mixed and not (fork / "src/tb/unused.py").exists()
    assert not (fork / "tests/test_plugin_data.py").exists() and not (fork / "data/extra.txt").exists()
    report = json.loads((tmp_path / "fork.report/report.json").read_text())
    assert report["tests"]["put_back"] == [{"path": "tests/test_mixed.py", "tests": ["test_plugin_value"]},
                                           {"path": "tests/test_plugin.py", "tests": [""]},
                                           {"path": "tests/test_plugin_partial.py", "tests": [""]}]
    assert [(r["path"], r["test"]) for r in report["tests"]["removed"]] == [  # what a put-back file leaves out too
        ("tests/test_mixed.py", "test_unused"), ("tests/test_plugin_data.py", None),
        ("tests/test_plugin_partial.py", "test_unused_again")]
    partial = (fork / "tests/test_plugin_partial.py").read_text()
    assert "def test_helper_again" in partial and "test_unused_again" not in partial
    removed = {r["path"] for r in report["removed"]}
    assert "tests/test_plugin.py" not in removed and "tests/test_plugin_data.py" in removed
    kept = {k["path"]: k["reason"] for k in report["kept"]}
    assert "put back" in kept["tests/test_plugin.py"]
    message = (tmp_path / "fork.report/report.md").read_text()
    assert "`tests/test_plugin_data.py` (batch tests back): not put back, check **pytest** fails with it" in message
    assert (report["before"]["files"], report["after"]["files"]) == (13, 9)
