"""A command that names the files it depends on (`watch`) is not run again while none of them changed."""

from __future__ import annotations

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
    edit(fork, {"pkg/formats/yaml.py": None})  # the formats line changes: declared removed
    passed = check.run(fork, baseline)
    assert passed.ok and "1 parts of the original's output deliberately removed" in passed.detail
    edit(fork, {"pkg/cli.py": (original / "pkg/cli.py").read_text().replace("print(run(", "print('x', run(")})
    failed = check.run(fork, baseline)
    assert not failed.ok and "stdout differs" in failed.failures[0]
