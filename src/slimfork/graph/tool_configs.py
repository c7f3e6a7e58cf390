"""The text of a project's configuration files that can make the project's code run: the tables of the static tools
(mypy's ``module = "pkg.sub.*"`` overrides, ruff's per-file ignores, coverage's ``source``) name modules that no
one loads, so they keep nothing; everything else (pytest's options, entry points, build hooks) is read as written.
A plugin a static tool loads (mypy's and pylint's ``plugins``) still counts: removing it breaks that tool."""

from __future__ import annotations

import configparser
import posixpath
import tomllib

STATIC_TOOLS = ("mypy", "ruff", "black", "isort", "coverage", "pyright", "flake8", "codespell", "pycodestyle",
                "pydocstyle", "pylint", "bandit", "towncrier", "yapf", "autopep8", "pyupgrade", "docformatter",
                "interrogate", "vulture", "basedpyright", "pytype", "pyre", "typos", "commitizen", "bumpversion")
LOADED_KEYS = ("plugins", "load-plugins", "load_plugins")
_INI_FILES = ("setup.cfg", "tox.ini", "mypy.ini", ".mypy.ini", ".coveragerc", ".pylintrc", "pylintrc", ".flake8",
              ".isort.cfg")


def runtime_text(path: str, text: str) -> str:
    """``text`` without the static tools' sections when ``path`` is a configuration file they read (the loaded
    plugins kept); the text as it is for any other file, or one that does not parse."""
    name = posixpath.basename(path)
    if name == "pyproject.toml":
        return _toml_text(text)
    if name in _INI_FILES:
        return _ini_text(text)
    if ("%(" in text or "${" in text) and (values := interpolated_values(text)):
        return text + "\n" + "\n".join(values)  # backend = %(base)s.backends.fast: what configparser reads
    return text


def interpolated_values(text: str) -> list[str]:
    """The values of an INI text that interpolate others (``%(base)s``, ``${base}``), as configparser's basic and
    extended interpolation give them; none when the text is no INI file."""
    out: list[str] = []
    for interpolation in (configparser.BasicInterpolation(), configparser.ExtendedInterpolation()):
        parser = configparser.ConfigParser(strict=False, interpolation=interpolation)
        try:
            parser.read_string(text)
        except (configparser.Error, UnicodeError):
            return []
        for section in parser.sections():
            for key, raw in parser.items(section, raw=True):
                if "%(" in raw or "${" in raw:
                    try:
                        out.append(parser.get(section, key))
                    except (configparser.Error, ValueError):
                        continue
    return out


def _static(section: str) -> bool:
    head = section.split(":")[-1] if section.startswith(("tool:", "coverage:")) else section
    if section.startswith("coverage:"):
        return True
    return any(head == tool or head.startswith((tool + "-", tool + ".", tool + "_")) for tool in STATIC_TOOLS)


def _toml_text(text: str) -> str:
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, UnicodeError):
        return text
    tools = data.get("tool")
    if isinstance(tools, dict):
        for name in [n for n in tools if _static(n)]:
            loaded = [v for k, v in _items(tools[name]) if k in LOADED_KEYS]
            tools[name] = {"plugins": loaded}
    return "\n".join(_strings(data))


def _ini_text(text: str) -> str:
    parser = configparser.RawConfigParser(strict=False, interpolation=None)
    try:
        parser.read_string(text)
    except (configparser.Error, UnicodeError):
        return text
    out: list[str] = []
    for section in parser.sections():
        static = _static(section)
        out += [f"[{section}]"] if not static else []
        for key, value in parser.items(section):
            if not static or key in LOADED_KEYS:
                out.append(f"{key} = {value}")
    return "\n".join(out)


def _items(value, key: str = ""):
    """(key, value) of every leaf of a TOML value, the key its nearest table's."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _items(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from _items(v, key)
    else:
        yield key, value


def _strings(value) -> list[str]:
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []
