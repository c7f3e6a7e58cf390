"""A command that names the files it depends on (`watch`) is not run again while none of them changed."""

from __future__ import annotations

from slimfork.apply.ladder import Ladder
from slimfork.verify.checks.command import CommandCheck
from slimfork.verify.env import current_env
from slimfork.verify.spec import CommandSpec

from tests.verify.verify_helpers import LAYOUT, copy_project, edit


def test_watched_command_runs_only_when_a_watched_file_changes(tmp_path):
    original, fork = copy_project(tmp_path)
    spec = CommandSpec("cli", ("python", "-m", "pkg.cli"), match="stdout", watch=("pkg/formats/**",))
    check = CommandCheck(LAYOUT, current_env(), spec, tmp_path)
    baseline = check.baseline(original)
    edit(fork, {"pkg/util.py": "def fmt(greeting, name):\n    return greeting + undefined\n\n\nshout = str\n"})
    skipped = check.run(fork, baseline)
    assert skipped.ok and skipped.detail == "watched files unchanged: not run"
    edit(fork, {"pkg/formats/yaml.py": None})
    ran = check.run(fork, baseline)
    assert not ran.ok and "stdout differs" in ran.failures[0]


def test_output_the_spec_declares_removed_is_not_compared_and_the_rest_is(tmp_path):
    original, fork = copy_project(tmp_path)
    spec = CommandSpec("cli", ("python", "-m", "pkg.cli"), match="stdout", removed_output=(r"^formats:.*$",))
    check = CommandCheck(LAYOUT, current_env(), spec, tmp_path)
    baseline = check.baseline(original)
    assert baseline.note.endswith("; the fork deliberately lacks 1 parts of it, in: 'formats: json, yaml'")
    edit(fork, {"pkg/formats/yaml.py": None})  # the formats line changes: declared removed
    passed = check.run(fork, baseline)
    assert passed.ok and "1 parts of the original's output deliberately removed" in passed.detail
    edit(fork, {"pkg/cli.py": (original / "pkg/cli.py").read_text().replace("print(run(", "print('x', run(")})
    failed = check.run(fork, baseline)
    assert not failed.ok and "stdout differs" in failed.failures[0]


def test_a_check_script_edited_since_a_cached_run_is_run_again(tmp_path):
    """Check results are cached by tree and by the check's key, which holds the content of the script the command
    names: the profile's compile check changed its units, and a result of the old script must not stand for the
    new one on the same tree."""
    original, fork = copy_project(tmp_path)
    edit(fork, {"pkg/formats/yaml.py": None})
    script = tmp_path / "checks" / "units.py"
    script.parent.mkdir()
    script.write_text("print('json: ok')\n")
    spec = CommandSpec("units", ("python", "{spec_dir}/checks/units.py", "{tree}"), match="stdout")

    def checked():
        ladder = Ladder([CommandCheck(LAYOUT, current_env(), spec, tmp_path)], cache_root=tmp_path / "cache", jobs=1)
        ladder.compute_baselines(original, "original-tree")
        return ladder, ladder.run(fork, "fork-tree")

    first, outcome = checked()
    assert outcome.ok and outcome.cached == [False]
    again, outcome = checked()
    assert outcome.ok and outcome.cached == [True] and again.keys == first.keys
    script.write_text("import os, sys\n"
                      "print('yaml:', 'ok' if os.path.exists(sys.argv[1] + '/pkg/formats/yaml.py') else 'failed')\n")
    edited, outcome = checked()
    assert edited.keys != first.keys and outcome.cached == [False]
    assert not outcome.ok and "+yaml: failed" in outcome.results[0].failures[0]
