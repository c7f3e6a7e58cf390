"""A project's test dependencies, read from where projects declare them: pyproject ``[dependency-groups]`` and
``[project.optional-dependencies]`` (test, tests, testing), then tox.ini ``[testenv] deps``."""

from __future__ import annotations

import configparser
import re
import tomllib
from pathlib import Path

GROUPS = ("tests", "test", "testing")
_FACTOR = re.compile(r"^[\w.,!-]+:\s+")
_SKIP = re.compile(r"^(-|\.|git\+|pytest-cov|coverage|pytest-randomly|pytest-xdist|tox)", re.I)


def test_requirements(root: Path) -> tuple[list[str], str]:
    """(requirement lines, where they came from); pytest is always there."""
    reqs, origin = [], ""
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
        groups = data.get("dependency-groups", {})
        extras = data.get("project", {}).get("optional-dependencies", {})
        for table, name in [(groups, "dependency-groups"), (extras, "optional-dependencies")]:
            for group in GROUPS:
                if group in table:
                    reqs += [r for r in table[group] if isinstance(r, str)]
                    origin = origin or f"pyproject.toml [{name}] {group}"
    tox = root / "tox.ini"
    if not reqs and tox.is_file():
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(tox.read_text(encoding="utf-8"))
            reqs = [line.strip() for line in parser.get("testenv", "deps", fallback="").splitlines() if line.strip()]
            origin = "tox.ini [testenv] deps"
        except configparser.Error:
            pass
    reqs = [_FACTOR.sub("", r) for r in reqs]  # tox's "trio: trio" (a dependency of the trio factor's envs)
    reqs = [r for r in reqs if not _SKIP.match(r) and "{" not in r]
    if not any(re.match(r"pytest\b", r) for r in reqs):
        reqs.append("pytest")
    return sorted(dict.fromkeys(reqs)), origin or "none declared (pytest only)"
