"""The README documents every spec key and every subcommand, and its commands exist."""

from __future__ import annotations

import re

from slimfork.cli import build_parser
from slimfork.commands import COMMANDS
from slimfork.spec.fields import REGISTRY, TOP
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text()


def test_readme_opens_with_the_two_commands():
    block = README.split("```bash", 1)[1].split("```", 1)[0].strip().splitlines()
    assert block[0].startswith("pip install -e . && slimfork shrink && slimfork shrink profiles/sglang-deepseek.toml")
    assert block[1].startswith("bash scripts/test.sh")
    assert "exec bash scripts/test.sh" in (ROOT / ".ci" / "run").read_text()


def test_every_spec_key_is_documented():
    for field in TOP.fields:
        assert f"`{field.name}`" in README or f"`[{field.name}]`" in README or f"`[[{field.name}]]`" in README, field.name
    for field in REGISTRY.fields:
        assert f"`registries[].{field.name}`" in README, field.name


def test_every_command_is_documented_and_exists():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert set(sub.choices) == set(COMMANDS)
    for name in COMMANDS:
        assert f"slimfork {name}" in README, name
    for used in set(re.findall(r"`slimfork (\w+)", README)):
        assert used in COMMANDS, used
