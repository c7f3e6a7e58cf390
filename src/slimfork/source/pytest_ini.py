"""The pytest options of a project's configuration files, as pytest reads them (``[tool.pytest.ini_options]`` and
pytest 9's ``[tool.pytest]`` in pyproject.toml, ``[pytest]`` of pytest.ini and tox.ini, ``[tool:pytest]`` of
setup.cfg); testsuite/pytest_config.py reads what they mean."""

from __future__ import annotations

import configparser
import tomllib
from pathlib import Path
from typing import Iterator

_INI = (("pytest.ini", "pytest"), (".pytest.ini", "pytest"), ("tox.ini", "pytest"), ("setup.cfg", "tool:pytest"))


def pytest_options(root: Path) -> Iterator[tuple[str, dict]]:
    """(file name, its pytest options) for each configuration file that has a pytest section."""
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        try:
            tool = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {}).get("pytest", {})
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError):
            tool = {}
        if isinstance(tool, dict):
            ini = tool.get("ini_options", {})
            if isinstance(ini, dict) and ini:
                yield "pyproject.toml", ini
            native = {k: v for k, v in tool.items() if k != "ini_options"}  # pytest 9's [tool.pytest]
            if native:
                yield "pyproject.toml", native
    for name, section in _INI:
        path = root / name
        if not path.is_file():
            continue
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(path.read_text(encoding="utf-8"))
        except (configparser.Error, UnicodeDecodeError, OSError):
            continue
        if parser.has_section(section):
            yield name, dict(parser.items(section))


def configured_testpaths(root: Path) -> list[str]:
    """The ``testpaths`` entries of every configuration file, as written."""
    out: list[str] = []
    for _, options in pytest_options(root):
        paths = options.get("testpaths", [])
        out += paths.split() if isinstance(paths, str) else [str(p) for p in paths]
    return list(dict.fromkeys(out))
