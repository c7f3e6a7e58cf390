"""Class 5 of issue 25: tests follow the code they test. Test-support modules inside the package that only tests
reach (`netlib.testing._fake_net`) stay with the kept tests that import them; a test goes only when it uses removed
code, and an import of a removed module inside a test function (absolute, relative or by name) takes that test out
exactly as a module-level import takes its file out, with the reason, never restoring the module."""

from __future__ import annotations

import shutil
import subprocess
import sys

from slimfork.api import analyse, shrink


def _removed(analysis):
    return {(r["path"], r["test"]): r["reason"] for r in analysis.stages.data["tests"]["removed"]}


def test_support_module_stays_with_the_tests_of_kept_code(copy_fixture):
    analysis = analyse(copy_fixture("soundness", "testsupport") / "slimfork.toml", jobs=1)
    support = analysis.stages.data["tests"]["support"]
    assert set(support) == {"netlib.testing", "netlib.testing._fake_net"}
    assert support["netlib.testing._fake_net"].startswith("kept test ")
    kept = {k.path: k.reason for k in analysis.plan.kept}
    assert kept["src/netlib/testing/_fake_net.py"].startswith("test support: ")
    removed = _removed(analysis)
    assert not any(path == "tests/test_client.py" for path, _ in removed)
    assert ("src/netlib/tests/test_inpkg.py", "test_fetch_in_package") not in removed


def test_a_test_of_nothing_but_code_the_roots_leave_out_goes_with_it(copy_fixture):
    """Found on boltons 26.2.0 (root boltons.iterutils): each test file imported the module it tests, and that
    import alone made the module test support, so 24 modules no root reaches stayed. A test file that uses no code
    the roots reach tests code the spec leaves out: it goes, and its module with it."""
    analysis = analyse(copy_fixture("soundness", "testsupport") / "slimfork.toml", jobs=1)
    assert "netlib.legacy" not in analysis.stages.data["tests"]["support"]
    assert "netlib.legacy" in {r.module for r in analysis.plan.removals}
    assert "module netlib.legacy, which the fork removes" in _removed(analysis)[("tests/test_legacy.py", None)]


def test_function_and_module_level_imports_of_a_removed_module_remove_the_test(copy_fixture):
    removed = _removed(analyse(copy_fixture("soundness", "testsupport") / "slimfork.toml", jobs=1))
    assert "netlib._winsock" in removed[("tests/test_win_module.py", None)]  # module level: the file
    for path, test in [("tests/test_win_function.py", "test_win_frame"),  # inside the test function
                       ("tests/test_win_function.py", "test_win_frame_by_name"),  # import_module("...")
                       ("src/netlib/tests/test_inpkg.py", "test_win_in_package")]:  # from .. import _winsock
        assert "module netlib._winsock, which the fork removes" in removed[(path, test)], (path, test)
    assert ("tests/test_win_function.py", "test_posix_fetch") not in removed


def test_the_fork_runs_the_tests_of_kept_code_without_restoring_anything(copy_fixture, tmp_path):
    project = copy_fixture("soundness", "testsupport")
    result = shrink(project / "slimfork.toml", tmp_path / "fork", jobs=1)
    assert not result.apply.restored, result.apply.to_markdown()
    fork = tmp_path / "fork"
    assert (fork / "src/netlib/testing/_fake_net.py").is_file() and not (fork / "src/netlib/_winsock.py").exists()
    shutil.rmtree(fork / ".git")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", "src/netlib/tests"],
                          cwd=fork, capture_output=True, text=True,
                          env={"PYTHONPATH": str(fork / "src"), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert "4 passed" in proc.stdout  # test_client (2), test_posix_fetch, test_fetch_in_package


def test_without_a_tests_key_the_tests_folders_are_found(copy_fixture):
    """Without `tests`, the test files of kept code looked unreachable and left the fork (boltons' whole tests/
    with the root boltons.iterutils). The folders named tests/test/testing that hold test files are the tests then;
    `tests = []` says there are none."""
    project = copy_fixture("soundness", "testsupport")
    spec = project / "slimfork.toml"
    spec.write_text("\n".join(line for line in spec.read_text().splitlines() if not line.startswith("tests =")))
    analysis = analyse(spec, jobs=1)
    kept = {k.path: k.kind.value for k in analysis.plan.kept}
    assert kept["src/netlib/tests/test_inpkg.py"] == "test-file" and "tests/test_client.py" in kept
    assert kept["src/netlib/testing/_fake_net.py"] == "test-support"
    assert ("tests/test_legacy.py", None) in _removed(analysis)
    spec.write_text("tests = []\n" + spec.read_text())
    gone = {r.path for r in analyse(spec, jobs=1).plan.removals}
    assert "src/netlib/tests/test_inpkg.py" in gone
