"""Files only the build or compiled code names: setup.py's `exec(open(os.path.join("src", "pkg",
"_version.py")).read())`, a module a Cython source imports; a module only the tests import, which leaves with their imports of it."""

from __future__ import annotations

from slimfork.api import analyse
from tests.soundness.soundkit import shrink_and_compare


def test_the_fork_builds_and_its_extension_finds_its_imports(copy_fixture, tmp_path):
    project = copy_fixture("soundness", "buildnames")
    _, original, fork = shrink_and_compare(project, tmp_path / "fork")
    assert original.stdout == "3.1\nTrue\n", original.stderr
    assert (fork.returncode, fork.stdout) == (0, original.stdout), fork.stderr[-2000:]
    assert "def scale" in (tmp_path / "fork/src/bnames/cyhelpers.py").read_text()  # symbol pruning kept it
    # bnames.legacy.old is no test-support module: it leaves with the conftest's import and fixture, and with the
    # import of tests/helpers/builders.py, a helper tests/test_core.py imports as helpers.builders: that test stays
    # (before session 30 the helper went whole, test_core stayed and failed, and the check restored old.py)
    assert not (tmp_path / "fork/src/bnames/legacy/old.py").exists()
    assert "legacy" not in (tmp_path / "fork/tests/helpers/builders.py").read_text()
    assert (tmp_path / "fork/tests/test_core.py").exists()


def test_the_edges_say_who_names_them(copy_fixture):
    reached = analyse(copy_fixture("soundness", "buildnames") / "slimfork.toml", jobs=1).graph.reached
    assert reached["bnames.cyhelpers"].edge.kind == "native"
    assert "src/bnames/_speedups.pyx" in reached["bnames.cyhelpers"].edge.detail
    assert reached["bnames._version"].edge.kind == "path"
