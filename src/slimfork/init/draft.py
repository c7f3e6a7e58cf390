"""Render the draft keep spec: TOML that `slimfork plan` accepts as written, its suggestions commented out.
A suggestion's lines start with '# ' (delete those two characters to accept it); notes start with '## '."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

from slimfork.decisions import Uncertain
from slimfork.errors import SpecError
from slimfork.graph.open_imports import open_places
from slimfork.init.django_tests import DjangoSettings, django_settings
from slimfork.init.platform import Found, find_platform_facts
from slimfork.init.platform_only import DeadModule, platform_only_modules
from slimfork.init.project import NOT_LIBRARY, Project, open_project
from slimfork.init.registries import Registry, find_registries
from slimfork.init.test_checks import doctest_folders, pytest_check, runner_check, test_modules
from slimfork.init.verify import verify_requirements
from slimfork.progress import counted
from slimfork.source.entry_drops import apply_drops

SHOWN_USES = 3
SHOWN_KEYS = 4


def draft_spec(target: str, base: Path | None = None, out: str | None = None) -> tuple[str, dict]:
    """The draft (TOML text) and what it was built from (for --json)."""
    project = open_project(target, base or Path.cwd())
    facts = find_platform_facts(project)
    registries = find_registries(project)
    dead = platform_only_modules(project, facts)
    places = open_places(project.mm, project.index)
    roots = (["script:*"] if project.tree.dist and project.tree.dist.scripts else []) + project.public_roots()
    others = other_distributions(project)
    verify = verify_requirements(project, project.tests or test_modules(project) or doctest_folders(project))
    django = django_settings(project)
    if django and not any(re.match(r"pytest[-_]django\b", line, re.I) for line in verify[0]):
        verify = ([*verify[0], "pytest-django"], [*verify[1], f"pytest-django (Django's settings: {django.where})"],
                  verify[2])
    text = render(project, roots, facts, registries, out, dead, others, verify, places, django)
    data = {"verify": {"requirements": verify[0], "plugins": verify[1], "notes": verify[2]},
            "source": project.source, "roots": roots,
            "tests": project.tests, "drop": [vars(d) for d in dead],
            "other_distributions": others, "not_installed": project.not_installed,
            "open_imports": [{"path": u.path, "line": u.line, "call": u.what, "keeps": list(u.kept)} for u in places],
            "facts": [vars(f) for f in facts], "registries": [dict(vars(r), lines=r.lines) for r in registries]}
    return text, data


def other_distributions(project: Project) -> list[str]:
    """Folders below the source's top with a build file of their own (a monorepo's other packages: hatch's
    ``backend/``), outside tests, docs and examples: the draft names them, as it analyses only the top one."""
    index = project.index
    found = set()
    for rel in [*index.other_files, *index.files]:
        folder, _, name = rel.rpartition("/")
        if name in ("pyproject.toml", "setup.py") and folder and not any(
                part in NOT_LIBRARY or part.startswith(".") for part in folder.split("/")):
            found.add(folder)
    return sorted(f for f in found if not any(f.startswith(o + "/") for o in found))


def render(project: Project, roots: list[str], facts: list[Found], registries: list[Registry],
           out: str | None, dead: Sequence[DeadModule] = (), others: Sequence[str] = (),
           verify: tuple[list[str], list[str], list[str]] = ([], [], []), places: Sequence[Uncertain] = (),
           django: DjangoSettings | None = None) -> str:
    dist = project.tree.dist
    name = f"{dist.name} {dist.version}".strip() if dist else project.tree.root.name
    lines = [f"## Drafted by `slimfork init {project.source}`: a keep spec for {name}.",
             "## Review it: suggestions are commented out; delete the leading '# ' of a suggestion's lines to",
             "## accept it (lines starting with '## ' are notes). See README.md (the keep spec) and docs/facts.md.",
             f"source = {_s(project.source)}"]
    if project.dist:
        lines.append(f"dist = {_s(project.dist)}{'':<12}## the sdist carries the tests")
    entry = sorted(dist.entry_points) if dist else []
    scripts = bool(roots and roots[0] == "script:*")
    lines.append(("## roots: the console scripts (script:*), then" if scripts else "## roots: no console script;")
                 + " the public API: every module with no part starting with '_'"
                 + (f" (entry points of {', '.join(entry)} are roots without being listed)" if entry else ""))
    lines.append("## as drafted the fork keeps every public module: narrow roots to what its users run or import,")
    lines.append("## or accept the suggestions below, to let code go (`slimfork plan` lists what would)")
    if project.documented:
        lines.append("## and the private modules the README shows users importing: " + ", ".join(
            f"{m} ({where})" for m, where in project.documented.items()))
    lines.append("roots = [" + ", ".join(_s(r) for r in roots) + "]")
    if project.tests:
        lines.append(f"tests = [{', '.join(_s(t) for t in project.tests)}]{'':<6}## the project's own tests")
    elif inside := test_modules(project):  # zope.deprecation 5.0: src/zope/deprecation/tests.py
        lines.append("## no tests folder found; test modules inside the packages: accept this to run them as the "
                     "pytest check")
        lines.append("# tests = [" + ", ".join(_s(t) for t in inside) + "]")
    elif not doctest_folders(project):  # else the doctests' suggestion says it
        lines.append("## no tests folder found (tests = [\"tests\"] names one)")
    if out:
        lines.append(f"out = {_s(out)}")
    if project.not_installed:
        lines.append(f"## not in roots: {', '.join(project.not_installed)}, which the build configuration does not "
                     "install (add a root to keep one)")
    if others:
        lines.append(f"## other distributions in this tree, each with its own build file: {', '.join(others)};")
        lines.append("## this spec forks the top one: `slimfork init FOLDER` drafts a spec for another")
    declared = [f"script:{n}" for n in sorted(dist.scripts)] if dist else []
    declared += [f"entry-point:{g}:*" for g in entry if g != "gui_scripts"]
    computed = [d for d in declared if not _cuttable(project, d)]
    declared = [d for d in declared if d not in computed]
    if computed:
        lines.append(f"## not droppable as the build declares them: {', '.join(computed)} (a computed declaration, "
                     "e.g. a formatted string: make it a literal to drop them)")
    if declared:
        lines.append("## the console scripts and entry points the build declares are roots whatever `roots` says; a")
        lines.append("## fork of one feature drops those it does not need (their lines leave the fork's build files)"
                     + (": add " + ", ".join(_s(d) for d in declared) + " to the drop below" if dead else ":"))
        if not dead:
            lines.append("# drop = [" + ", ".join(_s(d) for d in declared) + "]")
    if dead:
        lines.append("## only imports in branches Linux never runs reach these (accept with the facts below):")
        for d in dead:
            lines.append(f"##   {d.path}: {d.lines} lines, imported at {', '.join(d.imports[:SHOWN_USES]) or '-'}")
        lines.append("# drop = [" + ", ".join(_s(d.path) for d in dead) + "]")
    lines += _open_imports(project, places)
    lines += pytest_check(project, django) or runner_check(project)
    lines += _verify(*verify)
    lines += _facts(facts)
    lines += _registries(registries)
    return "\n".join(lines) + "\n"


def _open_imports(project: Project, places: Sequence[Uncertain]) -> list[str]:
    """An ``outside_imports`` suggestion for the modules whose imports of a name computed at run time keep loose
    modules (graph/open_imports.py)."""
    if not places:
        return []
    loose = sorted({m for u in places for m in u.kept})
    lines = sum(project.module_lines(m, below=False) for m in loose)
    modules = sorted({m for u in places if (m := project.mm.module_of(u.path))})
    what = f"the {len(loose)} modules" if len(loose) > 1 else "the module"
    return [f"## imports of a name computed entirely at run time keep {what} nothing in the project",
            f"## imports or names ({lines} lines), since such a name may be any of them:",
            *[f"##   {u.path}:{u.line} {u.what}" for u in places[:SHOWN_KEYS]],
            *([f"##   ... {len(places) - SHOWN_KEYS} more"] if len(places) > SHOWN_KEYS else []),
            "## if the names come from outside the project (a user's plugins or hooks), accept this to let them go:",
            "# outside_imports = [" + ", ".join(_s(m) for m in modules) + "]"]


def _verify(requirements: list[str], plugins: list[str], notes: Sequence[str] = ()) -> list[str]:
    if not requirements:
        return []
    tests = any(re.match(r"pytest\b", r) and not r.startswith("pytest-") for r in requirements)
    return ["", "## The checks run with the packages of the interpreter running slimfork unless [verify] names",
            "## requirements: accept this to run them" + (" (the tests included)" if tests else "")
            + " in a venv of the project's dependencies" + ("," if tests else " (docs/verify.md)"),
            *(["## pytest" + (f" and the plugins its configuration needs: {', '.join(plugins)}" if plugins else "")
               + " (docs/verify.md)"] if tests else []),
            *[f"## {note}" for note in notes],
            "# [verify]", "# requirements = [" + ", ".join(_s(r) for r in requirements) + "]"]


def _facts(facts: list[Found]) -> list[str]:
    if not facts:
        return ["", "## no platform test found (sys.platform, os.name, platform.system())"]
    out = ["", "## Platform facts the code tests, with their value on Linux: a fork for Linux folds the other",
           "## platforms' branches away (docs/facts.md).", "# [facts]"]
    for f in (f for f in facts if f.kind == "source"):
        out.append(f"# {f.name} = {_v(f.value)}{_uses(f)}")
    for table, kind in (("names", "flag"), ("functions", "predicate")):
        chosen = [f for f in facts if f.kind == kind]
        if chosen:
            out += ["", f"# [facts.{table}]"]
            for f in chosen:
                out.append(f"# {_s(f.name)} = {_v(f.value)}{_uses(f)}")
                out.append(f"##   {f.definition}")
    return out


def _uses(f: Found) -> str:
    shown = ", ".join(f.uses[:SHOWN_USES]) + (", ..." if len(f.uses) > SHOWN_USES else "")
    return f"{'':<4}## {len(f.uses)} use{'s' if len(f.uses) != 1 else ''}: {shown}"


def _registries(registries: list[Registry]) -> list[str]:
    # a cut that frees nothing is no suggestion (inflection 0.5.1's call registry, ijson 3.3.0's callbacks)
    idle = [reg for reg in registries if not reg.lines]
    registries = [reg for reg in registries if reg.lines]
    out = [""]
    for reg in idle:
        out += [f"## {reg.kind} registry {reg.package} at {reg.where}: {counted(len(reg.entries), 'entry', 'entries')}",
                f"##   not suggested: its cut frees no line ({_why_nothing(reg)})"]
    if not registries:
        return out + ["## no registry found (directory scans, dict, decorator, call or subclass registries)"
                      + (" whose cut frees a line" if idle else "")]
    out += [""] if idle else []
    out += ["## Registries: entries the fork may not need. Uncomment one, then delete from `keep` the keys to",
            "## cut; the lines each entry's cut could free are noted (the code it alone uses may add more)."]
    for reg in registries:
        out.append("")
        if reg.kind == "subclass":
            out += _subclasses(reg)
            continue
        out.append(f"## {reg.kind} registry at {reg.where}: {counted(len(reg.entries), 'entry', 'entries')}, "
                   f"{counted(reg.lines, 'line')}")
        if reg.keeps_all:
            out.append(f"## (its module {reg.keeps_all}: every name it defines stays, so a cut frees only the entry)")
        out += ["# [[registries]]", f"# package = {_s(reg.package)}"]
        if reg.kind != "scan":
            out.append(f"# kind = {_s(reg.kind)}")
        if reg.kind == "mapping" and reg.variable:
            out.append(f"# variable = {_s(reg.variable)}")
        if reg.key_keyword:
            out.append(f"# key_keyword = {_s(reg.key_keyword)}")
        out.append("# keep = [")
        out += [f"#   {_s(key)},{'':<4}## {counted(lines, 'line')}{_shared(reg, key)}"
                for key, lines in reg.entries.items()]
        out += ["# ]", f"# reason = {_s('what this deployment uses')}"]
    return out


def _shared(reg: Registry, key: str) -> str:
    """`` (pkg.transport.pyamqp, 420 lines, goes once 'amqps', 'pyamqp' go too)``: a module several keys name."""
    if key not in reg.shared:
        return ""
    module, lines, others = reg.shared[key]
    verb = "goes" if len(others) == 1 else "go"
    return f" ({module}, {counted(lines, 'line')}, goes once {', '.join(_s(o) for o in others)} {verb} too)"


def _why_nothing(reg: Registry) -> str:
    if reg.kind == "decorator":
        return "the module names each definition besides registering it"
    if reg.kind == "call":
        return "each call names no module of the project"
    return "each entry names code that other entries or the module use too"


def _subclasses(reg: Registry) -> list[str]:
    """A `kind = "subclasses"` suggestion: keep matches class names (or, with `variable`, the keys listed)."""
    out = [f"## subclass registry of {reg.package} ({reg.where}): {len(reg.entries)} subclasses, {reg.lines} lines",
           "# [[registries]]", f"# package = {_s(reg.package)}", '# kind = "subclasses"']
    if reg.variable:
        out.append(f"# variable = {_s(reg.variable)}{'':<4}## keep matches a class name or a key of its "
                   f"`{reg.variable}`")
    out.append("# keep = [")
    for name, lines in reg.entries.items():
        keys = reg.keys.get(name)
        shown = f"; {reg.variable}: {', '.join(keys[:SHOWN_KEYS])}{', ...' if len(keys) > SHOWN_KEYS else ''}" \
            if keys else ""
        out.append(f"#   {_s(name)},{'':<4}## {counted(lines, 'line')}{shown}")
    out += ["# ]", f"# reason = {_s('what this deployment uses')}"]
    return out


def _s(text: str) -> str:
    return json.dumps(text)  # a TOML basic string


def _v(value) -> str:
    return "true" if value is True else "false" if value is False else _s(str(value))


def _cuttable(project: Project, pattern: str) -> bool:
    """Whether ``drop = [pattern]`` can cut its declaration from the build files (shrink stops with exit 2 if not)."""
    try:
        apply_drops(project.tree, [pattern])
    except SpecError:
        return False
    return True
