"""What pytest's configuration in the source tree tells the tests stage: the plugins ``-p MODULE`` loads at start
(``addopts``), the doctest text files it collects (``--doctest-glob``, default ``test*.txt``), whether it runs the
docstrings of Python files (``--doctest-modules``), ``testpaths`` and the fixtures ``usefixtures`` makes every test
request (as ``pytest.mark.usefixtures`` on each: a fixture named there must stay, or every test errs with
"fixture not found"). Every file pytest may read counts
(``pytest.ini``, ``.pytest.ini``, ``pyproject.toml``, ``tox.ini``, ``setup.cfg``): which one pytest picks depends
on where it starts, and unknown means keep."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from slimfork.source.pytest_ini import configured_testpaths, pytest_options

DEFAULT_DOCTEST_GLOB = "test*.txt"
DEFAULT_NORECURSEDIRS = ("*.egg", ".*", "_darcs", "build", "CVS", "dist", "node_modules", "venv", "{arch}")


@dataclass
class PytestConfig:
    plugins: list[tuple[str, str]] = field(default_factory=list)  # (module, where: "pyproject.toml addopts")
    doctest_globs: list[str] = field(default_factory=list)  # as given; the default when none is
    doctest_modules: bool = False
    testpaths: list[str] = field(default_factory=list)
    norecursedirs: list[str] = field(default_factory=list)  # folder globs pytest does not enter (its defaults)
    usefixtures: list[str] = field(default_factory=list)  # the ini option: every test requests them
    pythonpath: list[str] = field(default_factory=list)  # folders (from the root) pytest puts on sys.path
    named: list[tuple[str, str]] = field(default_factory=list)  # (dotted name, where) in any option's value
    needs: dict[str, str] = field(default_factory=dict)  # plugin distribution -> why (`setup.cfg addopts: --cov`)
    pyargs: list[str] = field(default_factory=list)  # the dotted names addopts gives with --pyargs: test packages


def read_pytest_config(root: Path) -> PytestConfig:
    out = PytestConfig()
    for name, options in pytest_options(root):
        addopts = options.get("addopts", "")
        try:
            args = shlex.split(addopts) if isinstance(addopts, str) else [str(a) for a in addopts]
        except ValueError:
            args = addopts.split()
        _read_args(args, f"{name} addopts", out)
        _plugins_needed(args, options, name, out)
        used = options.get("usefixtures", [])
        out.usefixtures += used.split() if isinstance(used, str) else [str(u) for u in used]
        skipped = options.get("norecursedirs", [])
        out.norecursedirs += skipped.split() if isinstance(skipped, str) else [str(s) for s in skipped]
        folders = options.get("pythonpath", [])
        out.pythonpath += folders.split() if isinstance(folders, str) else [str(f) for f in folders]
        for key, value in options.items():  # DJANGO_SETTINGS_MODULE = pkg.settings, filterwarnings =
            for text in value if isinstance(value, list) else [value]:  # error::pkg.errors.Old, a plugin's own
                text = _warning_categories(str(text)) if key == "filterwarnings" else str(text)  # option
                out.named += [(found, f"{name} {key}") for found in _DOTTED.findall(text)]
    out.doctest_globs = list(dict.fromkeys(out.doctest_globs)) or [DEFAULT_DOCTEST_GLOB]
    out.testpaths = configured_testpaths(root)
    out.norecursedirs = list(dict.fromkeys(out.norecursedirs)) or list(DEFAULT_NORECURSEDIRS)
    out.usefixtures = list(dict.fromkeys(out.usefixtures))
    out.pythonpath = list(dict.fromkeys(out.pythonpath))
    return out


def _read_args(args: list[str], where: str, out: PytestConfig) -> None:
    if "--pyargs" in args:  # every dotted word may be a package pytest collects tests from (an option's value,
        out.pyargs += [a for a in args if _NAME.fullmatch(a)]  # -k expr, names no module of the project)
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


# Options and ini keys of the common pytest plugins: pytest stops with "unrecognized arguments" (an option in
# addopts) or warns (an ini key) where the plugin is not installed, so a verification venv needs them.
_OPTION_PLUGINS = (("--benchmark", "pytest-benchmark"), ("--cov", "pytest-cov"), ("--no-cov", "pytest-cov"),
                   ("--numprocesses", "pytest-xdist"), ("--dist", "pytest-xdist"), ("--timeout", "pytest-timeout"),
                   ("--reruns", "pytest-rerunfailures"), ("--mypy", "pytest-mypy"), ("--flake8", "pytest-flake8"),
                   ("--black", "pytest-black"), ("--isort", "pytest-isort"), ("--ruff", "pytest-ruff"),
                   ("--hypothesis", "hypothesis"), ("--asyncio-mode", "pytest-asyncio"),
                   ("--randomly", "pytest-randomly"), ("--html", "pytest-html"), ("--mpl", "pytest-mpl"),
                   ("--doctest-plus", "pytest-doctestplus"), ("--doctest-rst", "pytest-doctestplus"),
                   ("--remote-data", "pytest-remotedata"), ("--forked", "pytest-forked"),
                   ("--instafail", "pytest-instafail"), ("--snapshot", "syrupy"), ("--ds", "pytest-django"),
                   ("--reuse-db", "pytest-django"), ("--memray", "pytest-memray"), ("--codspeed", "pytest-codspeed"))
_SHORT_PLUGINS = {"-n": "pytest-xdist"}
_KEY_PLUGINS = {"asyncio_mode": "pytest-asyncio", "asyncio_default_fixture_loop_scope": "pytest-asyncio",
                "timeout": "pytest-timeout", "DJANGO_SETTINGS_MODULE": "pytest-django", "env": "pytest-env",
                "mock_use_standalone_module": "pytest-mock", "doctest_plus": "pytest-doctestplus",
                "mpl-baseline-path": "pytest-mpl", "flake8-ignore": "pytest-flake8", "trio_mode": "pytest-trio",
                "anyio_mode": "anyio"}
_MODULE_PLUGINS = {"xdist": "pytest-xdist", "pytest_cov": "pytest-cov", "pytest_benchmark": "pytest-benchmark",
                   "pytest_randomly": "pytest-randomly", "pytest_asyncio": "pytest-asyncio", "anyio": "anyio",
                   "pytest_mock": "pytest-mock", "hypothesis": "hypothesis", "pytest_timeout": "pytest-timeout",
                   "pytest_django": "pytest-django", "trio": "pytest-trio", "pytest_trio": "pytest-trio"}


def unrecognized_plugins(note: str) -> dict[str, str]:
    """The plugin distributions the options pytest rejected as "unrecognized arguments" belong to (the project's
    ``addopts`` pass ``--cov`` without pytest-cov installed): distribution -> the first such option."""
    out: dict[str, str] = {}
    for arg in note.partition("unrecognized arguments:")[2].split("|")[0].split():
        option = arg.partition("=")[0]
        dist = next((d for prefix, d in _OPTION_PLUGINS if option.startswith(prefix)), None) \
            or _SHORT_PLUGINS.get(option[:2] if option[:2] == "-n" else option)
        if dist:
            out.setdefault(dist, arg)
    return out


def _plugins_needed(args: list[str], options: dict, name: str, out: PytestConfig) -> None:
    """The plugin distributions this file's pytest options need: ``required_plugins``, a plugin's option in
    ``addopts`` (``--benchmark-skip``: pytest-benchmark), a plugin module ``-p`` loads, a plugin's ini key."""
    required = options.get("required_plugins", [])
    for req in required.split() if isinstance(required, str) else [str(r) for r in required]:
        out.needs.setdefault(req, f"{name} required_plugins")
    for i, arg in enumerate(args):
        option = arg.partition("=")[0]
        dist = next((d for prefix, d in _OPTION_PLUGINS if option.startswith(prefix)), None) \
            or _SHORT_PLUGINS.get(option) or (_SHORT_PLUGINS.get(arg[:2]) if arg[:2] == "-n" and arg[2:].isdigit()
                                              else None)
        if dist:
            out.needs.setdefault(dist, f"{name} addopts: {arg}")
        module = args[i + 1] if arg == "-p" and i + 1 < len(args) else arg[2:] if arg.startswith("-p") \
            and not arg.startswith("--") and arg != "-p" else ""
        if module.split(".")[0] in _MODULE_PLUGINS:
            out.needs.setdefault(_MODULE_PLUGINS[module.split(".")[0]], f"{name} addopts: -p {module}")
    for key in options:  # an ini file's keys come lower case: django_settings_module
        if plugin := _KEY_PLUGINS.get(key) or _KEY_PLUGINS.get(key.upper()):
            out.needs.setdefault(plugin, f"{name} {key}")


def _warning_categories(text: str) -> str:
    """The category fields of ``action:message:category:module:lineno`` lines: pytest imports a dotted category;
    the module field is a regular expression matched against where a warning comes from, never imported."""
    return "\n".join(parts[2] for line in text.splitlines() if len(parts := line.strip().split(":")) > 2)


_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
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
