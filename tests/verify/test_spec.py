"""[checks] and [verify]: parsed through the spec loader; bad keys and types stop with a key path and a hint."""

from __future__ import annotations

import pytest

from slimfork.errors import SpecError
from slimfork.spec import load_spec
from slimfork.verify.spec import ChecksSpec, CommandSpec, VerifySpec, parse_checks, parse_verify

SPEC = """
source = "src"
roots = ["pkg"]

[verify]
requirements = "verify-requirements.txt"
stubs = ["torchvision", "aiter"]
pip_args = ["--no-deps"]
env = { CUDA_VISIBLE_DEVICES = "" }

[checks]
skip = ["pyflakes"]

[checks.import_modules]
modules = ["pkg.models.deepseek*", "pkg.server"]
timeout = 60

[[checks.command]]
name = "help"
argv = ["python", "-m", "pkg.server", "--help"]
env = { PYTHONHASHSEED = "0", COLUMNS = "80" }
match = "stdout"

[[checks.command]]
argv = ["python", "{spec_dir}/checks/layer.py"]
stubs = ["vllm"]

[checks.pytest]
tests = ["tests/test_x.py::test_a"]
k = "not slow"
"""


def test_sections_are_parsed_through_the_loader(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "slimfork.toml").write_text(SPEC)
    (tmp_path / "verify-requirements.txt").write_text("# pins\nsix==1.17.0  # why\n\nidna==3.10\n")
    spec = load_spec(tmp_path / "slimfork.toml")
    checks: ChecksSpec = spec.sections["checks"]
    assert checks.skip == ("pyflakes",) and not checks.enabled("pyflakes") and checks.enabled("parse")
    assert checks.import_modules.modules == ("pkg.models.deepseek*", "pkg.server")
    assert checks.import_modules.timeout == 60
    assert checks.commands[0] == CommandSpec("help", ("python", "-m", "pkg.server", "--help"),
                                             {"PYTHONHASHSEED": "0", "COLUMNS": "80"}, None, "stdout", 600)
    assert checks.commands[1].name == "python {spec_dir}/checks/layer.py" and checks.commands[1].stubs == ("vllm",)
    assert checks.pytest.tests == ("tests/test_x.py::test_a",) and checks.pytest.k == "not slow"
    verify: VerifySpec = spec.sections["verify"]
    config = verify.config(spec.base_dir)
    assert config.requirements == ("six==1.17.0", "idna==3.10")
    assert config.origin == "verify-requirements.txt" and config.stubs == ("torchvision", "aiter")
    assert config.env == {"CUDA_VISIBLE_DEVICES": ""} and config.pip_args == ("--no-deps",)


@pytest.mark.parametrize("raw, key, hint", [
    ({"skip": ["pyflake"]}, "checks.skip[0]", "checks: parse"),
    ({"comand": []}, "checks.comand", "did you mean 'command'?"),
    ({"command": [{"argv": "python -m x"}]}, "checks.command[0].argv", "The command"),
    ({"command": [{"argv": []}]}, "checks.command[0].argv", "for example"),
    ({"command": [{"argv": ["x"], "match": "stderr"}]}, "checks.command[0].match", "exit code"),
    ({"command": [{"argv": ["x"], "env": {"COLUMNS": 80}}]}, "checks.command[0].env.COLUMNS", "strings"),
    ({"command": [{"argv": ["x"], "timeout": 0}]}, "checks.command[0].timeout", "seconds"),
    ({"command": [{"argv": ["x"]}, {"argv": ["x"]}]}, "checks.command[1].name", "unique"),
    ({"command": [{"argv": ["x"], "stubs": ["*"]}]}, "checks.command[0].stubs[0]", "no wildcard"),
    ({"import_modules": {"modules": ["pkg/models"]}}, "checks.import_modules.modules[0]", "dotted names"),
    ({"import_modules": {"timeout": "60"}}, "checks.import_modules.timeout", "Seconds"),
    ({"pytest": {"k": 1}}, "checks.pytest.k", "-k"),
])
def test_bad_checks_tables_name_the_key(raw, key, hint):
    with pytest.raises(SpecError) as err:
        parse_checks(raw)
    assert err.value.key == key
    assert hint in err.value.hint


@pytest.mark.parametrize("raw, key", [
    ({"requirements": 3}, "verify.requirements"),
    ({"requirements": ["torch==2.13.0", ""]}, "verify.requirements[1]"),
    ({"stubs": ["torch vision"]}, "verify.stubs[0]"),
    ({"pythn": "python3"}, "verify.pythn"),
])
def test_bad_verify_tables_name_the_key(raw, key):
    with pytest.raises(SpecError) as err:
        parse_verify(raw)
    assert err.value.key == key


def test_a_missing_requirements_file_is_a_spec_error(tmp_path):
    with pytest.raises(SpecError) as err:
        parse_verify({"requirements": "nope.txt"}).config(tmp_path)
    assert err.value.key == "verify.requirements" and "nope.txt" in err.value.message
    assert err.value.hint == "a path relative to the spec file"


def test_one_requirement_as_a_string_gets_the_array_as_hint(tmp_path):
    """``requirements = "pytest"`` is read as a file name (a string is a requirements file): the hint said only
    "a path relative to the spec file"."""
    with pytest.raises(SpecError) as err:
        parse_verify({"requirements": "pytest>=8"}).config(tmp_path)
    assert err.value.hint.endswith('or an array of requirements: requirements = ["pytest>=8"]')
