"""Checks 4-6 (import-modules, command, pytest) on a fixture project, run with the current interpreter.

Each is broken by a removal that static analysis cannot see (a module loaded by a computed name, a module found
by a directory scan), must report exactly the new failure and point at the file; baselines that fail on the
original are marked unusable.
"""

from __future__ import annotations

import sys
import time

import pytest

from slimfork.errors import SpecError
from slimfork.verify.checks.command import CommandCheck
from slimfork.verify.checks.import_modules import ImportModulesCheck, glob_regex
from slimfork.verify.checks.pytest import PytestCheck
from slimfork.verify.env import current_env
from slimfork.verify.spec import CommandSpec, ImportModulesSpec, PytestSpec
from slimfork.verify.tree import open_tree

from tests.verify.verify_helpers import LAYOUT, copy_project, edit

ENV = current_env()


def test_globs_on_dotted_names():
    assert glob_regex("pkg.models.deepseek*").match("pkg.models.deepseek_v2")
    assert not glob_regex("pkg.models.deepseek*").match("pkg.models.deepseek_common.utils")
    assert glob_regex("pkg.models.**").match("pkg.models") and glob_regex("pkg.**").match("pkg.a.b")
    assert glob_regex("**").match("anything.at.all")


def test_import_modules_reports_a_module_loaded_by_a_computed_name(tmp_path):
    original, fork = copy_project(tmp_path)
    check = ImportModulesCheck(LAYOUT, ENV, ImportModulesSpec(jobs=2))
    baseline = check.baseline(original)
    assert baseline.usable
    outcomes = baseline.data["outcomes"]
    assert not outcomes["pkg.legacy_py2"].ok and "SyntaxError" in outcomes["pkg.legacy_py2"].error
    assert not outcomes["pkg.guarded"].ok  # NameError in the original: not counted
    assert outcomes["pkg.plugins"].ok and "pkg/extra.py" in outcomes["pkg.plugins"].loaded
    assert check.run(fork, baseline).ok
    edit(fork, {"pkg/extra.py": None})
    result = check.run(fork, baseline)
    assert result.failures == ("pkg/plugins.py: import pkg.plugins: ModuleNotFoundError: No module named "
                               "'pkg.extra' (at pkg/plugins.py:6)",)
    assert result.paths == ("pkg/plugins.py", "pkg/extra.py")  # the failing module, and the file it lost
    assert "1 imported" in result.detail  # only pkg.plugins loaded pkg/extra.py: the rest is not re-imported


def test_import_modules_does_not_import_again_what_imported_in_the_last_tree(tmp_path):
    original, fork = copy_project(tmp_path)
    check = ImportModulesCheck(LAYOUT, ENV, ImportModulesSpec(jobs=2))
    baseline = check.baseline(original)
    text = (fork / "pkg/extra.py").read_text()
    edit(fork, {"pkg/extra.py": text + "\n# folded\n"})  # a batch rewrote a file pkg.plugins loads
    first = check.run(fork, baseline)
    assert first.ok and first.detail.startswith("2 imported")  # pkg.extra and pkg.plugins load it
    second = check.run(fork, baseline)  # the next batch: that file is as in the last tree where it imported
    assert second.ok and second.detail.startswith("0 imported")
    edit(fork, {"pkg/extra.py": text + "\n# changed again\n"})
    assert check.run(fork, baseline).detail.startswith("2 imported")


def test_import_modules_named_module_must_stay_and_unmatched_selection_is_unusable(tmp_path):
    original, fork = copy_project(tmp_path)
    check = ImportModulesCheck(LAYOUT, ENV, ImportModulesSpec(modules=("pkg.extra", "pkg.formats.*")))
    baseline = check.baseline(original)
    assert sorted(baseline.data["outcomes"]) == ["pkg.extra", "pkg.formats.json", "pkg.formats.yaml"]
    edit(fork, {"pkg/extra.py": None, "pkg/formats/yaml.py": None})  # a glob match may go, a named module not
    assert check.run(fork, baseline).failures == ("pkg.extra: named in [checks.import_modules] but not in the fork",)
    empty = ImportModulesCheck(LAYOUT, ENV, ImportModulesSpec(modules=("nothing.here",))).baseline(original)
    assert not empty.usable and "no module" in empty.note


def _command(name="cli", argv=("python", "-m", "pkg.cli"), **kw):
    return CommandSpec(name, tuple(argv), **kw)


def test_command_reports_a_module_lost_from_a_directory_scan(tmp_path):
    original, fork = copy_project(tmp_path)
    check = CommandCheck(LAYOUT, ENV, _command(match="stdout"), tmp_path)
    baseline = check.baseline(original)
    assert baseline.usable and baseline.data.stdout == "hello, world\nformats: json, yaml\n"
    assert check.run(fork, baseline).ok
    edit(fork, {"pkg/formats/yaml.py": None})
    result = check.run(fork, baseline)
    assert result.failures == ("cli: stdout differs from the original's: @@ -2 +2 @@ | -formats: json, yaml | "
                               "+formats: json",)


def test_command_stdout_mismatch_carries_what_the_command_said_on_stderr(tmp_path):
    """A check script that prints one verdict per unit and its reasons on stderr (a compile check): the failure,
    and so a restoration's reason, keeps the reason, not only the changed verdict."""
    original, fork = copy_project(tmp_path)
    script = ("import os, sys; ok = os.path.exists(os.path.join(sys.argv[1], 'pkg/formats/yaml.py')); "
              "print('yaml:', 'ok' if ok else 'failed'); ok or sys.stderr.write('yaml.py: source missing\\n')")
    check = CommandCheck(LAYOUT, ENV, _command(argv=("{python}", "-c", script, "{tree}"), match="stdout"), tmp_path)
    baseline = check.baseline(original)
    edit(fork, {"pkg/formats/yaml.py": None})
    assert check.run(fork, baseline).failures == (
        "cli: stdout differs from the original's: @@ -1 +1 @@ | -yaml: ok | +yaml: failed; "
        "stderr ends: yaml.py: source missing",)


def test_command_reports_a_crash_with_the_file_from_the_traceback(tmp_path):
    original, fork = copy_project(tmp_path)
    check = CommandCheck(LAYOUT, ENV, _command(match="exit"), tmp_path)
    baseline = check.baseline(original)
    edit(fork, {"pkg/util.py": "def fmt(greeting, name):\n    return greeting + undefined\n\n\nshout = str\n"})
    result = check.run(fork, baseline)
    assert len(result.failures) == 1
    assert result.failures[0].startswith("cli: exit code 1, the original's 0: ")
    assert "NameError: name 'undefined' is not defined" in result.failures[0]
    assert result.paths[0] == "pkg/util.py" and "pkg/cli.py" in result.paths


def test_command_substitutes_placeholders_and_hides_the_tree_path(tmp_path):
    original, fork = copy_project(tmp_path)
    argv = ("{python}", "-c", "import os, sys; print(os.getcwd(), sys.argv[1], os.environ['GREETING'])", "{tree}")
    check = CommandCheck(LAYOUT, ENV, _command(argv=argv, env={"GREETING": "hi from {spec_dir}"}), tmp_path)
    baseline = check.baseline(original)
    assert baseline.data.stdout == f"<tree> <tree> hi from {tmp_path}\n"
    assert check.run(fork, baseline).ok  # the two trees differ only by their paths


def test_command_unusable_when_it_fails_or_wavers_on_the_original(tmp_path):
    original, _ = copy_project(tmp_path)
    failing = CommandCheck(LAYOUT, ENV, _command(argv=("python", "-c", "raise SystemExit('no such option')")), tmp_path)
    baseline = failing.baseline(original)
    assert not baseline.usable and "fails on the original (exit 1): no such option" in baseline.note
    wavering = CommandCheck(LAYOUT, ENV, _command(argv=("python", "-c", "import time; print(time.time_ns())")),
                            tmp_path)
    baseline = wavering.baseline(original)
    assert not baseline.usable and "differs between two runs of the original" in baseline.note
    sleep = ("python", "-c", "import time; time.sleep(30)")
    slow = CommandCheck(LAYOUT, ENV, _command(argv=sleep, timeout=1), tmp_path)
    baseline = slow.baseline(original)
    assert not baseline.usable and "times out" in baseline.note and baseline.seconds < 10


PYTEST_ARGS = ("-p", "no:hypothesispytest", "-p", "no:benchmark", "-p", "no:xdist")


def test_pytest_reports_the_test_that_passed_in_the_original_only(tmp_path):
    original, fork = copy_project(tmp_path)
    check = PytestCheck(LAYOUT, ENV, PytestSpec(args=PYTEST_ARGS))
    baseline = check.baseline(original)
    assert baseline.usable and baseline.data == {"tests.test_core::test_run", "tests.test_core::test_loud",
                                                 "tests.test_core::test_extra"}
    edit(fork, {"pkg/extra.py": None})
    result = check.run(fork, baseline)
    assert len(result.failures) == 1
    assert result.failures[0].startswith("tests.test_core::test_extra: failed in the fork: ModuleNotFoundError")
    assert result.paths == ("tests/test_core.py",)


def test_pytest_selection_and_unusable_baseline(tmp_path):
    original, fork = copy_project(tmp_path)
    check = PytestCheck(LAYOUT, ENV, PytestSpec(tests=("tests/test_core.py::test_run",), k="run", args=PYTEST_ARGS))
    baseline = check.baseline(original)
    assert baseline.data == {"tests.test_core::test_run"}
    edit(fork, {"pkg/extra.py": None})
    assert check.run(fork, baseline).ok  # test_extra is not selected
    none = PytestCheck(LAYOUT, ENV, PytestSpec(k="fails_in_the_original", args=PYTEST_ARGS)).baseline(original)
    assert not none.usable and none.note.startswith("0 of 1 tests pass in the original (first: tests.test_core::")
    assert "AssertionError" in none.note  # why the only test fails


def test_pytest_selection_with_paths_a_tree_lacks(tmp_path):
    original, fork = copy_project(tmp_path)
    edit(original, {"tests/test_more.py": "def test_more():\n    pass\n"})
    typo = PytestCheck(LAYOUT, ENV, PytestSpec(tests=("tests/test_core.py", "tests/nope"), args=PYTEST_ARGS))
    baseline = typo.baseline(original)
    assert not baseline.usable and baseline.note == "selected tests not in the original: tests/nope"
    check = PytestCheck(LAYOUT, ENV, PytestSpec(tests=("tests/test_core.py::test_run", "tests/test_more.py"),
                                                args=PYTEST_ARGS))
    baseline = check.baseline(original)
    assert baseline.data == {"tests.test_core::test_run", "tests.test_more::test_more"}
    result = check.run(fork, baseline)  # the fork lost tests/test_more.py: the rest of the selection still runs
    assert result.failures == ("tests.test_more::test_more: not run in the fork",)
    edit(fork, {"tests/test_core.py": None})
    assert check.execute(fork)[0] == {}  # nothing of the selection is left: nothing runs, not the whole suite


def test_checks_never_write_into_the_trees(tmp_path):
    original, fork = copy_project(tmp_path)
    ImportModulesCheck(LAYOUT, ENV, ImportModulesSpec()).baseline(original)
    CommandCheck(LAYOUT, ENV, _command(), tmp_path).baseline(original)
    PytestCheck(LAYOUT, ENV, PytestSpec(args=PYTEST_ARGS)).baseline(original)
    assert not [p for p in original.rglob("*") if p.name in ("__pycache__", ".pytest_cache")]
    assert sys.executable  # the current interpreter ran them


def test_import_server_with_preload_gives_the_same_outcomes_and_enforces_timeouts(tmp_path):
    from slimfork.verify import importer

    original, fork = copy_project(tmp_path)
    edit(original, {"pkg/slow.py": "import time\ntime.sleep(30)\n", "pkg/noisy.py": "print('ready')\nX = 1\n"})
    plain = ImportModulesCheck(LAYOUT, ENV, ImportModulesSpec(jobs=2, timeout=2))
    served = ImportModulesCheck(LAYOUT, ENV, ImportModulesSpec(jobs=2, timeout=2, preload=("json", "no_such_lib")))
    tree = open_tree(original, LAYOUT)
    modules = plain.select(tree)
    start = time.monotonic()
    by_server = served.import_all(tree, modules)
    assert time.monotonic() - start < 20
    assert importer._LIVE == set()  # every server stopped
    by_process = plain.import_all(tree, modules)
    strip = [(o.module, o.ok, o.error, o.frames, o.loaded) for o in by_process]
    assert [(o.module, o.ok, o.error, o.frames, o.loaded) for o in by_server] == strip
    slow = next(o for o in by_server if o.module == "pkg.slow")
    assert not slow.ok and slow.error == "timed out after 2s"
    assert next(o for o in by_server if o.module == "pkg.noisy").ok  # its print did not confuse the server


def test_preloading_the_package_under_test_is_refused():
    with pytest.raises(SpecError) as err:
        ImportModulesCheck(LAYOUT, ENV, ImportModulesSpec(preload=("torch", "pkg.core")))
    assert err.value.key == "checks.import_modules.preload[1]"


def test_pytest_ignores_the_configuration_of_a_project_around_the_fork(tmp_path):
    """A fork written inside another project (its pyproject has [tool.pytest.ini_options] with other options) runs
    with the fork's own rootdir: the test ids match the original's and the outer options do not apply."""
    outer = tmp_path / "outer"
    outer.mkdir()
    (outer / "pyproject.toml").write_text('[tool.pytest.ini_options]\naddopts = "--no-such-option"\n')
    original, fork = copy_project(outer)
    for tree in (original, fork):
        (tree / "pytest.ini").unlink()  # the project has no configuration of its own (pyserial)
    check = PytestCheck(LAYOUT, ENV, PytestSpec(args=PYTEST_ARGS))
    baseline = check.baseline(original)
    assert baseline.usable and "tests.test_core::test_run" in baseline.data
    assert check.run(fork, baseline).ok


def test_pytest_matches_parameter_ids_made_at_run_time(tmp_path):
    original, fork = copy_project(tmp_path)
    stamped = ("import itertools, time\nimport pytest\n_n = itertools.count()\n\n"
               "@pytest.mark.parametrize('when', [time.time_ns()])\ndef test_stamp(when):\n    assert when\n\n"
               "@pytest.mark.parametrize('when', [time.time_ns()])\ndef test_stamp_gone(when):\n    assert when\n")
    edit(original, {"tests/test_stamp.py": stamped})
    edit(fork, {"tests/test_stamp.py": stamped.replace("def test_stamp_gone", "def _gone")})
    check = PytestCheck(LAYOUT, ENV, PytestSpec(args=PYTEST_ARGS))
    result = check.run(fork, check.baseline(original))
    # test_stamp ran under a new id and passed; test_stamp_gone did not run at all
    assert [f.split("[")[0] for f in result.failures] == ["tests.test_stamp::test_stamp_gone"]
