"""Every subcommand's ``--help`` describes every option, states the defaults it has, and ends with the exit codes
(the README's list, with what 1 means for that command). The descriptions were the modules' docstrings, reST
usage line and double backquotes included, and no help said what an exit code meant."""

from __future__ import annotations

import argparse

import pytest

from slimfork.cli import GATES, build_parser, main


def _commands():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices


@pytest.mark.parametrize("name", sorted(_commands()))
def test_every_option_is_described_and_the_exit_codes_are_given(name, capsys):
    cmd = _commands()[name]
    for action in cmd._actions:
        assert action.help, f"{name} {action.dest} has no help"
        if action.default not in (None, False, [], argparse.SUPPRESS) and not isinstance(action, argparse._HelpAction):
            assert "default" in action.help, f"{name} {action.dest}: its default {action.default!r} is not said"
    with pytest.raises(SystemExit) as done:
        main([name, "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "``" not in text
    assert "exit codes: 0 success;" in text and "2 bad input" in text and "130 interrupted" in text
    assert ("1 " + GATES[name]) in text if name in GATES else "; 1 " not in text.split("exit codes:")[1]


def test_the_top_level_help_lists_the_exit_codes(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "exit codes: 0 success; 1 the command ran and found what it gates on" in text


@pytest.mark.parametrize("name", sorted(_commands()))
def test_the_usage_names_what_the_description_names(name, capsys):
    """shrink's description said "Write the fork to DIR ... reports to DIR.report/" over `--out OUT` and a
    lowercase `[spec]`; init's "--out OUT  write the spec to FILE": each placeholder is now the usage's."""
    cmd = _commands()[name]
    for action in cmd._actions:
        if not action.option_strings:
            assert action.metavar and action.metavar[:1].isupper(), f"{name} {action.dest}: lowercase"
    with pytest.raises(SystemExit):
        main([name, "--help"])
    usage, _, rest = capsys.readouterr().out.partition("\n\n")
    for word in ("DIR", "FILE"):
        if f" {word} " in f" {rest.split('options:')[0]} ".replace(".", " "):
            assert word in usage, f"{name}: the description names {word}, the usage does not"
