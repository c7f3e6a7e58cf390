"""What pytest's configuration in the source tree tells the tests stage: the plugins ``-p MODULE`` loads at start
(``addopts``), the doctest text files it collects (``--doctest-glob``, default ``test*.txt``), whether it runs the
docstrings of Python files (``--doctest-modules``), ``testpaths`` and the fixtures ``usefixtures`` makes every test
request (as ``pytest.mark.usefixtures`` on each: a fixture named there must stay, or every test errs with
"fixture not found"). Every file pytest may read counts
(``pytest.ini``, ``.pytest.ini``, ``pyproject.toml``, ``tox.ini``, ``setup.cfg``): which one pytest picks depends
on where it starts, and unknown means keep."""

from __future__ import annotations

import configparser
import re
import shlex
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DOCTEST_GLOB = "test*.txt"
_INI = (("pytest.ini", "pytest"), (".pytest.ini", "pytest"), ("tox.ini", "pytest"), ("setup.cfg", "tool:pytest"))


@dataclass
class PytestConfig:
    plugins: list[tuple[str, str]] = field(default_factory=list)  # (module, where: "pyproject.toml addopts")
    doctest_globs: list[str] = field(default_factory=list)  # as given; the default when none is
    doctest_modules: bool = False
    testpaths: list[str] = field(default_factory=list)
    usefixtures: list[str] = field(default_factory=list)  # the ini option: every test requests them
    pythonpath: list[str] = field(default_factory=list)  # folders (from the root) pytest puts on sys.path
    named: list[tuple[str, str]] = field(default_factory=list)  # (dotted name, where) in any option's value


def read_pytest_config(root: Path) -> PytestConfig:
    out = PytestConfig()
    for name, options in _options(root):
        addopts = options.get("addopts", "")
        try:
            args = shlex.split(addopts) if isinstance(addopts, str) else [str(a) for a in addopts]
        except ValueError:
            args = addopts.split()
        _read_args(args, f"{name} addopts", out)
        paths = options.get("testpaths", [])
        out.testpaths += paths.split() if isinstance(paths, str) else [str(p) for p in paths]
        used = options.get("usefixtures", [])
        out.usefixtures += used.split() if isinstance(used, str) else [str(u) for u in used]
        folders = options.get("pythonpath", [])
        out.pythonpath += folders.split() if isinstance(folders, str) else [str(f) for f in folders]
        for key, value in options.items():  # DJANGO_SETTINGS_MODULE = pkg.settings, filterwarnings =
            for text in value if isinstance(value, list) else [value]:  # error::pkg.errors.Old, a plugin's own
                out.named += [(found, f"{name} {key}") for found in _DOTTED.findall(str(text))]  # option
    out.doctest_globs = list(dict.fromkeys(out.doctest_globs)) or [DEFAULT_DOCTEST_GLOB]
    out.testpaths = list(dict.fromkeys(out.testpaths))
    out.usefixtures = list(dict.fromkeys(out.usefixtures))
    out.pythonpath = list(dict.fromkeys(out.pythonpath))
    return out


def _read_args(args: list[str], where: str, out: PytestConfig) -> None:
    for i, arg in enumerate(args):
        following = args[i + 1] if i + 1 < len(args) else ""
        if arg == "-p" or arg.startswith("-p") and not arg.startswith("--"):
            value = following if arg == "-p" else arg[2:]
            if value and not value.startswith(("no:", "-")):
                out.plugins.append((value, where))
        elif arg == "--doctest-glob" and following:
            out.doctest_globs.append(following)
        elif arg.startswith("--doctest-glob="):
            out.doctest_globs.append(arg.partition("=")[2])
        elif arg == "--doctest-modules":
            out.doctest_modules = True


def _options(root: Path):
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


_DOTTED = re.compile(r"(?<![\w./-])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)")


def plugin_modules(config: PytestConfig, modules) -> dict[str, str]:
    """The project's modules ``-p`` loads (``modules``: the analysed modules by name) -> why they stay; and those
    any option's value names (a plugin's option read by a conftest, ``import_module(config.getini("helpers"))``,
    pytest-django's settings module, a warning class ``filterwarnings`` imports): pytest or a plugin may import
    them before any test runs, and unknown means keep."""
    out = {name: f"pytest loads it at start (-p {name} in {where})" for name, where in config.plugins
           if name in modules}
    for dotted, where in config.named:
        parts = dotted.split(".")
        module = next((m for i in range(len(parts), 1, -1) if (m := ".".join(parts[:i])) in modules), None)
        if module is not None and module not in out:
            out[module] = f"pytest's configuration names it ({dotted} in {where})"
    return out
