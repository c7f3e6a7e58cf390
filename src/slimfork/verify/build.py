"""Assemble the checks a spec asks for, cheapest first."""

from __future__ import annotations

import itertools

from pathlib import Path

from slimfork.source.test_folders import TEST_DIRS
from slimfork.verify.checks.command import CommandCheck
from slimfork.verify.checks.import_modules import ImportModulesCheck
from slimfork.verify.checks.imports import ImportsCheck
from slimfork.verify.checks.install import InstallCheck, builds
from slimfork.verify.checks.parse import ParseCheck
from slimfork.verify.checks.pyflakes import PyflakesCheck
from slimfork.verify.checks.pytest import PytestCheck
from slimfork.verify.checks.skipped import SkippedCheck
from slimfork.verify.env import VerifyEnv, prepare_env
from slimfork.verify.model import Check
from slimfork.verify.spec import ChecksSpec, VerifySpec
from slimfork.verify.tools import check_program, missing_tools, skip_reason
from slimfork.verify.tree import TreeLayout


def layout_of(source) -> TreeLayout:
    """The TreeLayout of a ``slimfork.source.SourceTree``."""
    rel = Path(source.python_root).resolve().relative_to(Path(source.root).resolve()).as_posix()
    return TreeLayout("" if rel == "." else rel, tuple(source.packages))


def verify_env(spec) -> VerifyEnv:
    """The spec's verification environment (its venv is built once and cached)."""
    verify: VerifySpec | None = spec.sections.get("verify")
    return prepare_env(verify.config(spec.base_dir) if verify is not None else None)


def needs_env(checks_spec: ChecksSpec) -> bool:
    """Whether a check runs code, in the [verify] environment."""
    return bool(checks_spec.enabled("import-modules") or (checks_spec.enabled("command") and checks_spec.commands)
                or (checks_spec.enabled("pytest") and checks_spec.pytest is not None))


def install_modules(spec, source) -> list[str]:
    """What the install check imports: the root modules (a symbol's module, a console script's), else the packages."""
    dist = getattr(source, "dist", None)
    scripts = dist.scripts if dist else {}
    out = [r.value for r in spec.roots if r.kind in ("module", "symbol") and not set("*?[") & set(r.value)]
    # a glob's package (the drafted `parse_type.**`), not every top-level folder: parse_type 0.6.6's bin/ and
    # tasks/, which its build does not install, failed to import from the install and the hint blamed a dependency
    out += [fixed for r in spec.roots if r.kind in ("module", "glob") and set("*?[") & set(r.value)
            and (fixed := ".".join(itertools.takewhile(lambda part: not set("*?[") & set(part), r.value.split("."))))]
    for root in spec.roots:
        if root.kind == "script":
            out += [t.split(":")[0].strip() for n, t in scripts.items() if root.value in ("*", n)]
    if out:
        return sorted(set(out))
    # a top-level tests package is not what a user installs: importing it failed in the original too, and its
    # warning blamed a missing dependency named "tests" (nameparser 2.6.0, roots = ["nameparser.**"])
    return [p for p in source.packages if p not in TEST_DIRS] or list(source.packages)


def build_checks(spec, source, env: VerifyEnv | None = None, skipped: dict[str, str] | None = None,
                 promised: dict[str, tuple[str, ...]] | None = None) -> list[Check]:
    """The checks of ``spec`` for the tree ``source`` (a SourceTree), sorted by cost.

    ``env`` is prepared from ``[verify]`` when a check needs it and none is given. ``skipped`` (check name ->
    reason, from the preflight) names the commands whose required tools are missing; by default they are looked
    up here. A skipped command becomes a SkippedCheck: never run, SKIPPED in the report. ``promised``: module ->
    the public names the plan keeps of it, which import-modules reads off every module it imports again.
    """
    checks_spec: ChecksSpec = spec.sections.get("checks") or ChecksSpec()
    layout = layout_of(source)
    checks: list[Check] = []
    for name, cls in (("parse", ParseCheck), ("imports", ImportsCheck), ("pyflakes", PyflakesCheck)):
        if checks_spec.enabled(name):
            checks.append(cls(layout))
    if needs_env(checks_spec) and env is None:
        env = verify_env(spec)
    if checks_spec.enabled("import-modules"):
        assert env is not None  # needs_env
        checks.append(ImportModulesCheck(layout, env, checks_spec.import_modules, promised))
    if checks_spec.enabled("command"):
        bins = (Path(env.python).parent,) if env is not None else ()
        for i, command in enumerate(checks_spec.commands):
            name = f"command:{command.name}"
            missing = missing_tools(command.requires, bins)
            reason = (skipped or {}).get(name) or (skip_reason(missing) if missing else None)
            if reason is not None:
                checks.append(SkippedCheck(name, reason))
                continue
            check_program(command, spec.base_dir, bins, f"checks.command[{i}]")  # now that the venv exists
            assert env is not None  # needs_env: there are commands
            checks.append(CommandCheck(layout, env, command, spec.base_dir))
    if checks_spec.enabled("pytest") and checks_spec.pytest is not None:
        assert env is not None  # needs_env
        checks.append(PytestCheck(layout, env, checks_spec.pytest))
    if checks_spec.enabled("install") and builds(source.root):
        checks.append(InstallCheck(env or verify_env(spec), install_modules(spec, source)))
    return sorted(checks, key=lambda c: c.cost)
