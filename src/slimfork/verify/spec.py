"""The ``[checks]`` and ``[verify]`` tables of the keep spec: their keys, validation and parsed form."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from slimfork.errors import SpecError
from slimfork.spec.schema import Field, Section, check_table, type_name
from slimfork.verify.env import VerifyConfig

STATIC_CHECKS = ("parse", "imports", "pyflakes")
ALL_CHECKS = STATIC_CHECKS + ("import-modules", "command", "pytest", "install")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
_GLOB = re.compile(r"^[A-Za-z0-9_.*?\[\]!-]+$")

CHECKS = Section("checks", "Checks every batch of the fork must pass, differential against the original.", [
    Field("skip", "list[str]", f"Checks to turn off: any of {', '.join(ALL_CHECKS)}."),
    Field("import_modules", "table", "Which modules must import in the verification environment; see "
          "[checks.import_modules]. Default: every kept module of the analysed packages."),
    Field("command", "list[table]", "Commands run on the original and on the fork whose results must match; "
          "see [[checks.command]]."),
    Field("pytest", "table", "Tests that must pass in the fork wherever they passed in the original; see "
          "[checks.pytest]."),
])
IMPORT_MODULES = Section("checks.import_modules", "Modules imported one per process in the verification "
                         "environment.", [
    Field("modules", "list[str]", "Dotted names or globs ('sglang.srt.models.deepseek*', 'pkg.sub.**' for a "
          "whole subtree); default: every module of the analysed packages."),
    Field("exclude", "list[str]", "Globs of modules not to import."),
    Field("stubs", "list[str]", "Third-party modules stubbed for these imports, in addition to [verify] stubs."),
    Field("preload", "list[str]", "Third-party modules the import server imports once before it forks one child "
          "per module (much faster when each import loads torch); never a module of the package under test."),
    Field("timeout", "int", "Seconds one import may take (default 300).", default=300),
    Field("jobs", "int", "Imports run at the same time (default: the number of cores).", default=0),
])
COMMAND = Section("checks.command[]", "A command whose result must be the same on the original and the fork.", [
    Field("name", "str", "A short name for reports (default: the argv joined)."),
    Field("argv", "list[str]", "The command. 'python' as argv[0] is the verification interpreter; '{python}', "
          "'{tree}' (the tree under test), '{python_root}' and '{spec_dir}' are replaced anywhere.", required=True),
    Field("env", "table", "Environment variables (strings) for the command, e.g. PYTHONHASHSEED, COLUMNS."),
    Field("cwd", "str", "Working folder, relative to the tree under test (default: its python_root)."),
    Field("match", "str", "What must be equal: the exit code, stdout, or both (default).",
          choices=("exit", "stdout", "both"), default="both"),
    Field("timeout", "int", "Seconds before the command is stopped (default 600).", default=600),
    Field("stubs", "list[str]", "Third-party modules stubbed for this command, in addition to [verify] stubs."),
    Field("removed_output", "list[str]", "Regular expressions (multi-line, '.' matches newlines) for the parts of "
          "the output that the fork deliberately drops (the help of a removed feature): deleted from both outputs "
          "before they are compared, and listed in the check's result."),
    Field("requires", "list[str]", "Tools the command needs on PATH, e.g. ['nvcc'], or 'cuda' for a CUDA GPU "
          "(nvidia-smi -L lists one): where one is missing the check is skipped, with a notice at the start and "
          "SKIPPED in the report (never counted as passed)."),
    Field("watch", "list[str]", "Globs (relative to the tree) of the files the command depends on: when none of "
          "them changed from the original, the command is not run again (e.g. kernel sources for a compile check). "
          "Default: always run."),
    Field("installed", "bool", "Run the command with the tree pip-installed (no dependencies: they come from the "
          "verification environment) into a scratch venv, as a user installs it: its console scripts on PATH, "
          "'python' that venv's, from an empty folder, no PYTHONPATH to the tree; an unpacked wheel (a wheel "
          "source's original) is installed as that wheel. The install size is reported, not compared.",
          default=False),
])
PYTEST = Section("checks.pytest", "A test selection run with pytest in the verification environment.", [
    Field("tests", "list[str]", "Node ids or paths, relative to the tree under test (default: pytest's own "
          "discovery from the tree's top folder)."),
    Field("k", "str", "A pytest -k expression."),
    Field("args", "list[str]", "More pytest arguments."),
    Field("timeout", "int", "Seconds the whole run may take (default 1800).", default=1800),
])
VERIFY = Section("verify", "The verification environment in which checks that run code are executed.", [
    Field("requirements", "any", "A requirements file (relative to the spec file) or an array of pins. "
          "slimfork builds a venv with them once and caches it; the package itself is put on PYTHONPATH."),
    Field("python", "str", "Interpreter the venv is created from (default: the one running slimfork)."),
    Field("stubs", "list[str]", "Third-party top-level modules replaced by stubs (importable, their attributes "
          "are placeholders that raise when called). Name each one: there is no catch-all."),
    Field("pip_args", "list[str]", "Extra arguments for pip install (e.g. an index URL)."),
    Field("env", "table", "Environment variables (strings) for every check process."),
])


@dataclass(frozen=True)
class ImportModulesSpec:
    modules: tuple[str, ...] = ("**",)
    exclude: tuple[str, ...] = ()
    stubs: tuple[str, ...] = ()
    timeout: int = 300
    jobs: int = 0
    preload: tuple[str, ...] = ()


@dataclass(frozen=True)
class CommandSpec:
    name: str
    argv: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    match: str = "both"
    timeout: int = 600
    stubs: tuple[str, ...] = ()
    watch: tuple[str, ...] = ()
    removed_output: tuple[str, ...] = ()  # regexes: what the fork deliberately no longer prints
    requires: tuple[str, ...] = ()  # tools that must be on PATH, else the check is skipped
    installed: bool = False  # run with the tree pip-installed in a scratch venv, not on PYTHONPATH


@dataclass(frozen=True)
class PytestSpec:
    tests: tuple[str, ...] = ()
    k: str | None = None
    args: tuple[str, ...] = ()
    timeout: int = 1800


@dataclass(frozen=True)
class ChecksSpec:
    skip: tuple[str, ...] = ()
    import_modules: ImportModulesSpec = ImportModulesSpec()
    commands: tuple[CommandSpec, ...] = ()
    pytest: PytestSpec | None = None

    def enabled(self, name: str) -> bool:
        return name not in self.skip


@dataclass(frozen=True)
class VerifySpec:
    """``[verify]`` as written; ``config(base_dir)`` reads the requirements file."""

    requirements: str | tuple[str, ...] = ()
    python: str | None = None
    stubs: tuple[str, ...] = ()
    pip_args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)

    def config(self, base_dir: Path) -> VerifyConfig:
        if isinstance(self.requirements, str):
            path = (base_dir / self.requirements).resolve()
            try:
                text = path.read_text(encoding="utf-8")
            except OSError as exc:
                one = re.fullmatch(r"[A-Za-z0-9][\w.-]*\s*(?:[<>=!~].*)?", self.requirements) \
                    and not self.requirements.endswith((".txt", ".in"))
                hint = "a path relative to the spec file" + (  # `requirements = "pytest"` read as a file name
                    f", or an array of requirements: requirements = [\"{self.requirements}\"]" if one else "")
                raise SpecError(f"cannot read the requirements file {path}: {exc.strerror}",
                                key="verify.requirements", hint=hint) from None
            lines = tuple(line.split(" #")[0].strip() for line in text.splitlines()
                          if line.strip() and not line.lstrip().startswith("#"))
            origin = path.name
        else:
            lines, origin = self.requirements, "[verify] requirements"
        return VerifyConfig(lines, origin, self.python, self.stubs, self.pip_args, dict(self.env))


def parse_checks(raw: dict[str, Any], key: str = "checks") -> ChecksSpec:
    check_table(raw, CHECKS)
    for i, name in enumerate(raw.get("skip", [])):
        if name not in ALL_CHECKS:
            raise SpecError(f"unknown check '{name}'", key=f"{key}.skip[{i}]", hint=f"checks: {', '.join(ALL_CHECKS)}")
    modules = ImportModulesSpec()
    if "import_modules" in raw:
        table = raw["import_modules"]
        check_table(table, IMPORT_MODULES)
        for name in ("modules", "exclude"):
            for i, pattern in enumerate(table.get(name, [])):
                if not _GLOB.match(pattern):
                    raise SpecError(f"'{pattern}' is not a module name or glob",
                                    key=f"{key}.import_modules.{name}[{i}]",
                                    hint="dotted names with * and ** wildcards, e.g. 'pkg.models.deepseek*'")
        _positive(table, ("timeout",), f"{key}.import_modules")
        modules = ImportModulesSpec(tuple(table.get("modules", ["**"])), tuple(table.get("exclude", [])),
                                    _names(table, "stubs", f"{key}.import_modules"), table.get("timeout", 300),
                                    table.get("jobs", 0), _names(table, "preload", f"{key}.import_modules"))
    commands: list[CommandSpec] = []
    for i, table in enumerate(raw.get("command", [])):
        where = f"{key}.command[{i}]"
        check_table(table, Section(where, COMMAND.doc, COMMAND.fields))
        if not table["argv"]:
            raise SpecError("argv is empty", key=f"{where}.argv", hint="for example ['python', '-m', 'pkg', '--help']")
        _positive(table, ("timeout",), where)
        if table.get("installed") and "cwd" in table:
            raise SpecError("an installed command runs from an empty folder, not from the tree", key=f"{where}.cwd",
                            hint="remove cwd, or set installed = false to run the command in the tree")
        name = table.get("name") or " ".join(table["argv"])
        if name in {c.name for c in commands}:
            raise SpecError(f"two commands are named '{name}'", key=f"{where}.name", hint="give each a unique name")
        commands.append(CommandSpec(name, tuple(table["argv"]), _strings(table.get("env", {}), f"{where}.env"),
                                    table.get("cwd"), table.get("match", "both"), table.get("timeout", 600),
                                    _names(table, "stubs", where), tuple(table.get("watch", [])),
                                    _regexes(table.get("removed_output", []), f"{where}.removed_output"),
                                    _tools(table.get("requires", []), f"{where}.requires"),
                                    table.get("installed", False)))
    pytest = None
    if "pytest" in raw:
        table = raw["pytest"]
        check_table(table, PYTEST)
        _positive(table, ("timeout",), f"{key}.pytest")
        pytest = PytestSpec(tuple(table.get("tests", [])), table.get("k") or None, tuple(table.get("args", [])),
                            table.get("timeout", 1800))
    return ChecksSpec(tuple(raw.get("skip", [])), modules, tuple(commands), pytest)


def _tools(names: list[str], key: str) -> tuple[str, ...]:
    for i, name in enumerate(names):
        if not name.strip() or any(c.isspace() for c in name):
            raise SpecError(f"'{name}' is not a program name", key=f"{key}[{i}]",
                            hint="the name of a program on PATH, e.g. 'nvcc', or its absolute path")
    return tuple(names)


def _regexes(patterns: list[str], key: str) -> tuple[str, ...]:
    for i, pattern in enumerate(patterns):
        try:
            re.compile(pattern)
        except re.error as exc:
            raise SpecError(f"not a regular expression: {exc}", key=f"{key}[{i}]",
                            hint="Python re syntax, e.g. '--- Help for Diffusion .*'") from None
    return tuple(patterns)


def parse_verify(raw: dict[str, Any], key: str = "verify") -> VerifySpec:
    check_table(raw, VERIFY)
    requirements: str | tuple[str, ...] = ()
    if "requirements" in raw:
        value = raw["requirements"]
        if isinstance(value, list):
            for i, item in enumerate(value):
                if not isinstance(item, str) or not item.strip():
                    raise SpecError(f"expected a requirement string, got {type_name(item)}",
                                    key=f"{key}.requirements[{i}]", hint="pins such as 'torch==2.13.0'")
            requirements = tuple(value)
        elif isinstance(value, str) and value:
            requirements = value
        else:
            raise SpecError(f"expected a file path or an array of pins, got {type_name(value)}",
                            key=f"{key}.requirements", hint=VERIFY.by_name()["requirements"].doc)
    return VerifySpec(requirements, raw.get("python"), _names(raw, "stubs", key), tuple(raw.get("pip_args", [])),
                      _strings(raw.get("env", {}), f"{key}.env"))


def _names(table: dict, name: str, where: str) -> tuple[str, ...]:
    for i, module in enumerate(table.get(name, [])):
        if not _NAME.match(module):
            raise SpecError(f"'{module}' is not a module name", key=f"{where}.{name}[{i}]",
                            hint="name each stubbed module, e.g. 'torchvision'; there is no wildcard")
    return tuple(table.get(name, []))


def _strings(table: dict, where: str) -> dict[str, str]:
    for name, value in table.items():
        if not isinstance(value, str):
            raise SpecError(f"expected a string, got {type_name(value)}", key=f"{where}.{name}",
                            hint="environment values are strings: write \"0\", not 0")
    return dict(table)


def _positive(table: dict, names: tuple[str, ...], where: str) -> None:
    for name in names:
        if name in table and table[name] <= 0:
            raise SpecError(f"must be positive, got {table[name]}", key=f"{where}.{name}", hint="seconds")
