"""The original's baselines are cached by its content and each check's own configuration: a second profile (another
spec file, in another folder) with the same checks on the same original reuses them; a changed command or script
does not."""

from __future__ import annotations

from pathlib import Path

from slimfork.apply.ladder import Ladder
from slimfork.verify.checks.command import CommandCheck
from slimfork.verify.checks.import_modules import ImportModulesCheck
from slimfork.verify.env import current_env
from slimfork.verify.spec import CommandSpec, ImportModulesSpec

from tests.verify.verify_helpers import LAYOUT, copy_project, edit

CLI = CommandSpec("cli", ("python", "{spec_dir}/checks/cli.py", "{python_root}"), match="stdout",
                  watch=("pkg/formats/**",))


def _profile(folder: Path, script: str = "import subprocess, sys\n"
             "subprocess.run([sys.executable, '-m', 'pkg.cli'], cwd=sys.argv[1], check=True)\n") -> Path:
    """A profile's folder with the check script its command runs."""
    (folder / "checks").mkdir(parents=True)
    (folder / "checks" / "cli.py").write_text(script)
    return folder


def _checks(spec_dir: Path, command: CommandSpec = CLI) -> list:
    return [CommandCheck(LAYOUT, current_env(), command, spec_dir),
            ImportModulesCheck(LAYOUT, current_env(), ImportModulesSpec(modules=("pkg.**",), jobs=1))]


def _baselines(checks: list, original: Path, cache: Path) -> Ladder:
    ladder = Ladder(checks, cache_root=cache, jobs=1)
    ladder.compute_baselines(original, "the original's git tree")
    return ladder


def test_a_second_profile_with_the_same_checks_reuses_the_baselines(tmp_path):
    original, fork = copy_project(tmp_path)
    cache = tmp_path / "cache"
    first = _baselines(_checks(_profile(tmp_path / "a")), original, cache)
    assert [r.cached for r in first.baseline_runs] == [False, False]
    assert all(r.usable for r in first.baseline_runs), first.baseline_runs

    second = _baselines(_checks(_profile(tmp_path / "profiles" / "b")), original, cache)
    assert [r.cached for r in second.baseline_runs] == [True, True]
    assert {n: b.note for n, b in second.baselines.items()} == {n: b.note for n, b in first.baselines.items()}
    # the reused baselines judge a fork as the computed ones do: the watched files' skip included
    edit(fork, {"pkg/util.py": "def fmt(greeting, name):\n    return greeting + undefined\n\n\nshout = str\n"})
    command = second.checks[1]
    assert command.run(fork, second.baselines[command.name]).detail == "watched files unchanged: not run"
    edit(fork, {"pkg/formats/yaml.py": None})
    assert second.run(fork, "fork").failure.check == "command:cli"
    assert first.run(fork, "fork-again").failure.check == "command:cli"


def test_a_changed_command_or_script_computes_its_baseline_again(tmp_path):
    original, _ = copy_project(tmp_path)
    cache = tmp_path / "cache"
    _baselines(_checks(_profile(tmp_path / "a")), original, cache)
    other_script = _profile(tmp_path / "b", "print('another script')\n")
    assert [r.cached for r in _baselines(_checks(other_script), original, cache).baseline_runs] == [True, False]
    other_command = CommandSpec("cli", CLI.argv + ("--verbose",), match="stdout", watch=CLI.watch)
    again = _baselines(_checks(_profile(tmp_path / "c"), other_command), original, cache)
    assert [r.cached for r in again.baseline_runs] == [True, False]
    # the same profile's folder named by {spec_dir} outside a script stays in the key
    data = CommandSpec("cli", ("python", "-c", "print(1)", "{spec_dir}/data"), match="stdout")
    _baselines(_checks(tmp_path / "a", data), original, cache)
    assert _baselines(_checks(tmp_path / "c", data), original, cache).baseline_runs[1].cached is False
