"""``slimfork shrink SPEC [--out DIR] [--dry-run] [--json] [--jobs N] [--executor local|ray]``: write the fork to
DIR as a git repository of verified batches (each checked against the original: parse, imports, pyflakes, module
imports, the install, the project's tests and the spec's [checks]), and its reports (report.md, removed.md,
kept.md, report.json) to DIR.report/. Where the fork goes is checked before any work; an interrupted run leaves
the previous fork (or none)."""

from __future__ import annotations

import re
from pathlib import Path

from slimfork.commands._output import comparison_table, console, print_json, print_stale, positive_int


def add_parser(sub):
    p = sub.add_parser("shrink", help="write the fork and its reports", description=__doc__)
    p.add_argument("spec", nargs="?", metavar="SPEC", help="keep spec: slimfork.toml, a pyproject.toml with [tool.slimfork], or its "
                   "folder (default: ./slimfork.toml if there is one, else the bundled example, written to "
                   "./mlserve-fork)")
    p.add_argument("--out", metavar="DIR", help="folder to write the fork to (default: the spec's 'out')")
    p.add_argument("--dry-run", action="store_true", help="plan and report, write nothing")
    p.add_argument("--no-verify", action="store_true", help="commit every planned edit without running the checks")
    p.add_argument("--jobs", type=positive_int, help="worker processes (default: one per core)")
    p.add_argument("--executor", choices=["local", "ray"], default=None,
                   help="where the checks run: local (default: a pool of --jobs workers) or ray (a Ray cluster; "
                        "pip install ray)")
    p.add_argument("--ray-address", help="the Ray cluster to use with --executor ray (default: $RAY_ADDRESS, else "
                   "a new local one)")
    p.add_argument("--strict", action="store_true",
                   help="stale entries are errors even where the spec sets allow_stale = true")
    p.add_argument("--allow-stale", action="store_true",
                   help="a spec entry that matches nothing in the source (a root, glob, registry, registry key or "
                        "fact a new release renamed or removed) is a warning and is ignored, not an error (exit 2)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    return p


def print_unusable(data: dict, venv: bool = False, compiled: dict[str, str] | None = None,
                   unbuilt: dict[str, str] | None = None, root: Path | None = None) -> int:
    """A check that could not run on the original verified nothing: say so on stderr (stdout may be JSON), with
    what to do, rather than only in report.md's table (a newcomer's verified fork had an import check that no
    module passed on the original, its dependencies not installed, and the run said nothing). A check that ran but
    lacked a dependency for part of the original verified only the rest (ftfy 6.3.1: "1 of 16 modules import in
    the original", no ``wcwidth``): a warning too. ``venv``: the checks ran in the venv of ``[verify]
    requirements``, so the hint says to add what that lacks (zope.deprecation 5.0's accepted draft: the venv's
    setuptools has no ``pkg_resources``, and the hint said the interpreter running slimfork lacked it).
    ``compiled``: the top-level extension modules the build makes, and where (``setup.py:43``): the project's own,
    whatever the roots (pyahocorasick 2.3.1 with ``roots = ["etc.**"]`` was told to add what provides
    ``ahocorasick``). ``unbuilt``: the extensions the build makes that the source tree lacks compiled: a check
    that passed only part of the original then says so (zope.hookable 8.4's tests of its C extension failed in
    the original, 21 of 42, and the run said nothing). ``root``: the source, whose folders' requirements files
    may list what only their modules lack (parse_type 0.6.6's invoke ``tasks/`` and ``tasks/py.requirements.txt``
    with ``path``). Returns how many warnings it wrote."""
    import sys

    import re

    from slimfork.testsuite.pytest_config import unrecognized_plugins

    def lacks(names: str, one_of: bool = False) -> str:
        if one_of:  # qtconsole 5.7.2's tests need a Qt binding: PyQt5, PyQt6 or PySide6, any one
            alternatives = (f"one of {names} (the one error that stopped the check names each: the code tries them "
                            "in turn, and one is enough)")
            return (f"the checks run in the venv of [verify] requirements, which lacks {alternatives}: add what "
                    "provides one there (docs/verify.md)" if venv else
                    f"the checks run with the packages of the interpreter running slimfork, which lacks "
                    f"{alternatives}; install one there, or name it in [verify] requirements (docs/verify.md)")
        if venv:
            example = ("pkg_resources came with setuptools<81" if "pkg_resources" in names.split(", ") else
                       "yaml is PyYAML's")
            return (f"the checks run in the venv of [verify] requirements, which lacks {names}: add what provides "
                    f"{'it' if ', ' not in names else 'them'} there (the distribution's name may differ, or an "
                    f"older release has it: {example}) (docs/verify.md)")
        return (f"the checks run with the packages of the interpreter running slimfork, which lacks {names}; "
                "install the project's dependencies there, or name them in [verify] requirements (docs/verify.md)")

    baselines = (data.get("batches") or {}).get("baselines") or []
    compiled = compiled or {}
    own = {r["module"].split(".")[0] for r in data.get("roots") or [] if isinstance(r, dict) and r.get("module")}
    own |= set(compiled)
    kept = {k["module"] for k in data.get("kept") or [] if isinstance(k, dict) and k.get("module")}
    written = 0
    for b in baselines:
        if b.get("skipped"):
            continue
        note = b.get("note") or ""
        # "No module named 'x'" (an import), "No module named x" (python -m x)
        named = set(re.findall(r"No module named '?([\w.]+)", note))
        # pytest's filterwarnings naming a module's warning class (truststore 0.10.5: urllib3's, with "error")
        named |= set(re.findall(r"Failed to import filter module '([\w.]+)'", note))
        # bcrypt 3.2.2's `from . import _bcrypt`: its cffi build writes bcrypt/_bcrypt*.so, which the tree lacks
        named |= {f"{m}.{n}" for n, m in re.findall(r"cannot import name '(\w+)' from (?:partially initialized "
                                                     r"module )?'([\w.]+)'", note)
                  if m.split(".")[0] in own and f"{m}.{n}" not in kept}
        missing = {m.split(".")[0] for m in named}
        # the source has the module, yet it is "not found": its top-level name imports from elsewhere (yarl
        # 1.9.4's namespace folder packaging/, the in-tree build backend, behind PyPI's packaging in the venv)
        shadowed = sorted(n for n in named if n in kept and "." in n and n.split(".")[0] in own)
        foreign = sorted(n for n in missing - own if _other_platform_stdlib(n))
        if b.get("usable", True) and foreign and not missing - own - set(foreign):
            names = ", ".join(foreign)
            what = (f"ran on the original without {names}, the standard library's on another platform (or of "
                    "Python 2, or Windows' pywin32), so it verified only what imports without it")
            it = "it" if len(foreign) == 1 else "them"
            hint = (f"nothing provides {names} on this platform: the modules that import {it} cannot import here, "
                    "in the original as in the fork (a fork for this platform may drop them)")
        elif shadowed and not missing - own:
            tops = ", ".join(sorted({n.split(".")[0] for n in shadowed}))
            what = ("could not run on the original, so it verified nothing" if not b.get("usable", True) else
                    f"ran on the original without the project's own {', '.join(shadowed[:3])}"
                    f"{' ...' if len(shadowed) > 3 else ''}, so it verified only the rest")
            hint = (f"the source has {'it' if len(shadowed) == 1 else 'them'}, but {tops} imports from an installed "
                    f"distribution of that name, which shadows the source's folder (a folder without __init__.py "
                    "loses to an installed package; a `*-nspkg.pth` file of a distribution sharing the namespace "
                    "claims it when Python starts): a clash of names, not a missing dependency")
        elif b.get("usable", True) and unbuilt and not missing - own and (part := _part_of_original(note)):
            names = ", ".join(f"{n} ({w})" for n, w in sorted(unbuilt.items()))
            what = f"ran on the original with {part}"
            hint = (f"the project's own {'extension' if len(unbuilt) == 1 else 'extensions'} {names} "
                    f"{'is' if len(unbuilt) == 1 else 'are'} not built in the source tree: what needs "
                    f"{'it' if len(unbuilt) == 1 else 'them'} fails in the original and the fork alike and verifies "
                    "nothing; build it there (`python setup.py build_ext --inplace`, `pip install -e .`) or rely "
                    "on the install check")
        elif b.get("usable", True):
            if not missing - own:
                continue
            names = ", ".join(sorted(missing - own))
            what = f"ran on the original without {names}, so it verified only what imports without it"
            hint = lacks(", ".join(sorted(missing - own - set(foreign))))
            fixtures = tree_fixtures(root, missing - own - set(foreign)) if root is not None else {}
            if fixtures:  # argcomplete 3.7.2's test/test_package/, a package its tests install: no dependency
                lacking = sorted(missing - own - set(foreign) - set(fixtures))
                hint = (lacks(", ".join(lacking)) + "; " if lacking else "") + ", ".join(
                    f"{n} is the source's own {w}/, a test fixture its tests install or put on sys.path themselves"
                    for n, w in sorted(fixtures.items())) + ": no dependency to add"
            elif root is not None and (listed := folder_requirements(root, note, missing - own - set(foreign))):
                folder, files = listed
                hint = (f"the modules named that lack {names} are all in {folder}/, whose {', '.join(files)} "
                        f"{'lists' if len(files) == 1 else 'list'} {'it' if ', ' not in names else 'them'} (a "
                        "folder's own requirements: developer tasks, docs, scripts, not the project's): add "
                        f"{'its' if len(files) == 1 else 'their'} lines to [verify] requirements to check {folder}/ "
                        "too, or leave it unchecked (the rest is checked)")
        elif missing and missing <= own:  # bitarray._bitarray: the project's own extension, not built here
            what = "could not run on the original, so it verified nothing"
            built = [f"{n} (an extension its build makes: {compiled[n]})" for n in sorted(named) if n in compiled]
            hint = (f"the project's own {', '.join(built or sorted(named))} {'is' if len(named) == 1 else 'are'} not "
                    "in the source tree: "
                    + ("" if len(built) == len(named) else "a compiled extension, or a file its build writes (lz4's "
                       "_version.py); ")
                    + "build it there (`python setup.py build_ext --inplace`, `pip install -e .`) or rely on the "
                    "install check")
            public = sorted(n for n in named if not n.rsplit(".", 1)[-1].startswith("_") and n not in compiled)
            if public:  # zope.schema 7.0.1's zope.interface: another distribution's part of a shared namespace
                hint += (f"; or, where {public[0].split('.')[0]} is a namespace package other distributions share, "
                         f"{'it is' if len(public) == 1 else 'they are'} theirs: add them to [verify] requirements "
                         "(a namespace package whose __init__.py calls pkg_resources does not see portions "
                         "installed without one)")
        elif missing - own:  # name what is missing: a cut note hid it (sphinx.testing.fixtures: "N ...")
            what = "could not run on the original, so it verified nothing"
            lacking = sorted(missing - own - set(foreign)) or sorted(missing - own)
            # pytest stopped before any test on one error (a conftest's or plugin's import); where that one error
            # names several missing modules, the code tried each in turn: alternatives
            hint = lacks(", ".join(lacking), one_of=len(lacking) > 1 and note.startswith("pytest did not run"))
        elif "internal error" in note:  # crcmod's test module calls unittest.main() at import: pytest stops
            what = "could not run on the original, so it verified nothing"
            hint = ("pytest itself stopped on the original's tests (an INTERNALERROR: a test module that runs "
                    "as a script, or exits, at import); run them as the project does, and skip the check with "
                    f"[checks] skip = [\"{b['check']}\"]")
        elif "PluginValidationError" in note:  # tldextract 5.1.2's pytest-gitignore 1.3 under pytest 9
            what = "could not run on the original, so it verified nothing"
            plugin = re.search(r"Plugin '([^']+)'", note)
            legacy = {"path", "startdir", "fspath"} & set(re.findall(r"'(\w+)'", note.partition("Argument(s)")[2]))
            hint = (f"pytest cannot load its plugin {plugin.group(1) if plugin else ''}: a plugin written for an "
                    "older pytest, whose hooks take arguments this pytest no longer passes; "
                    + ("pytest 9 dropped the py.path arguments (path, startdir): add pytest<9 to [verify] "
                       "requirements, " if legacy else "pin an older pytest in [verify] requirements, ")
                    + "or leave the plugin out")
        elif plugins := unrecognized_plugins(note):  # pydash 8.1.0's addopts pass --cov: pytest-cov
            what = "could not run on the original, so it verified nothing"
            hint = (f"the project's pytest options ({', '.join(plugins.values())}) need "
                    f"{', '.join(plugins)}: add {'it' if len(plugins) == 1 else 'them'} to [verify] requirements")
        elif "does not install" in note:  # a build error, not a missing dependency
            what = "could not run on the original, so it verified nothing"
            hint = ("the original does not build here (pip's error above); fix what the build needs (a newer "
                    "build backend, a compiler) or skip the check with [checks] skip = [\"install\"]")
        else:
            what = "could not run on the original, so it verified nothing"
            hint = ("the checks run in the venv of [verify] requirements; add what the original needs there "
                    "(docs/verify.md)" if venv else
                    "the checks run with the packages of the interpreter running slimfork; install the project's "
                    "dependencies there, or name them in [verify] requirements (docs/verify.md)")
        note = note if len(note) <= 240 else note[:240] + " ..."
        sys.stderr.write(f"warning: check '{b['check']}' {what}: {note}\n  hint: {hint}\n")
        written += 1
    return written


SHOWN_WARNINGS = 5
_NOT_COUNTED = re.compile(r"([\w.]+) \(\w+: No module named '?([\w.]+)")


def tree_fixtures(root: Path, names: set[str]) -> dict[str, str]:
    """name -> the folder below the top of the source that is a package of that name (``__init__.py``, ``setup.py``
    or ``pyproject.toml`` in it): a test fixture, not a distribution to install."""
    out = {}
    for name in sorted(names):
        for path in sorted(root.rglob(name)):
            if path.is_dir() and path.parent != root and any((path / f).is_file() for f in
                                                              ("__init__.py", "setup.py", "pyproject.toml")):
                out[name] = path.relative_to(root).as_posix()
                break
    return out


def folder_requirements(root: Path, note: str, missing: set[str]) -> tuple[str, list[str]] | None:
    """(folder, its requirements files) where every module the note names as lacking one of ``missing`` is in one
    top-level folder whose own ``*requirements*.txt`` lists each (``path >= 13.1.0``), else None."""
    importers = [(m, n.split(".")[0]) for m, n in _NOT_COUNTED.findall(note) if n.split(".")[0] in missing]
    folders = {m.split(".")[0] for m, _ in importers}
    if len(folders) != 1 or {n for _, n in importers} != missing:
        return None
    folder = folders.pop()
    files, listed = [], set()
    for path in sorted((root / folder).glob("*requirements*.txt")) if (root / folder).is_dir() else ():
        names = {re.split(r"[\s<>=!~;\[(]", line.strip(), maxsplit=1)[0].lower().replace("-", "_")
                 for line in path.read_text(encoding="utf-8", errors="replace").splitlines()}
        found = {m for m in missing if m.lower() in names}
        if found:
            files.append(f"{folder}/{path.name}")
            listed |= found
    return (folder, files) if listed == missing else None


_PART = re.compile(r"(\d+) of (\d+) (tests pass|modules import) in the original")


def _part_of_original(note: str) -> str:
    """"21 of 42 tests failing" where the check's note says only part of the original passed, else ""."""
    found = _PART.search(note)
    if not found or int(found[1]) >= int(found[2]):
        return ""
    failing = int(found[2]) - int(found[1])
    return f"{failing} of {found[2]} {'tests failing' if found[3] == 'tests pass' else 'modules not importing'}"


# Python 2's standard library under its old names: winreg's (findpython 0.6.2 imports it beside winreg), and those
# Python 3 renamed (httplib2 0.32.1's python2 tests import BaseHTTPServer, SimpleHTTPServer)
_PYTHON2_STDLIB = frozenset({
    "_winreg", "BaseHTTPServer", "SimpleHTTPServer", "CGIHTTPServer", "httplib", "urllib2", "urlparse", "Cookie",
    "cookielib", "ConfigParser", "Queue", "StringIO", "cStringIO", "cPickle", "__builtin__", "HTMLParser",
    "htmlentitydefs", "SocketServer", "xmlrpclib", "SimpleXMLRPCServer", "Tkinter", "thread", "dummy_thread",
    "commands", "copy_reg", "anydbm", "robotparser", "UserDict", "UserList", "UserString", "exceptions", "sets",
    "md5", "sha", "mimetools", "rfc822", "popen2"})


# pywin32's modules, Windows' own: pip installs pywin32 on Windows alone (execnet 2.1.2's socketserverservice.py
# imports servicemanager, and the hint said to add what provides it)
_PYWIN32 = frozenset({"servicemanager", "pythoncom", "pywintypes", "win32api", "win32con", "win32event",
                      "win32file", "win32gui", "win32pipe", "win32process", "win32security", "win32service",
                      "win32serviceutil", "win32com", "win32clipboard", "win32job", "win32pdh", "win32ts", "winerror"})


def _other_platform_stdlib(name: str) -> bool:
    """A module of Python's standard library that this interpreter does not have: another platform's (``winreg``,
    ``msvcrt``, ``_winapi``) or Python 2's, or pywin32's off Windows; no requirement provides it here (the hint
    named one: "yaml is PyYAML's")."""
    import importlib.util
    import sys

    if name in _PYTHON2_STDLIB or name in _PYWIN32 and sys.platform != "win32":
        return True
    try:
        return name in sys.stdlib_module_names and importlib.util.find_spec(name) is None
    except (ImportError, ValueError):
        return False


def print_restored(data: dict, report_dir=None) -> int:
    """The planned edits the checks put back, on stderr: a newcomer's ``drop = ["entry-point:pytest11:*"]`` on
    pytest-httpserver 1.1.0 was put back (its tests need the plugin's fixture), and the terminal said only "0
    uncertain, 1 warning"; report.md's Restored section was the one place that said so. Returns how many."""
    import sys

    restored = [r for b in (data.get("batches") or {}).get("batches") or [] for r in b.get("restored") or []]
    for r in restored[:SHOWN_WARNINGS]:
        first = (r.get("failures") or [""])[0]
        first = first if len(first) <= 200 else first[:200] + " ..."
        sys.stderr.write(f"put back: {r.get('path')} ({r.get('reason')}): check '{r.get('check')}' failed without "
                         f"it{': ' + first if first else ''}\n")
    if len(restored) > SHOWN_WARNINGS:
        where = f" in {report_dir / 'report.md'}" if report_dir else " with --json"
        sys.stderr.write(f"... and {len(restored) - SHOWN_WARNINGS} more put back{where}\n")
    return len(restored)


def _n(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def print_warnings(warnings: list[str], report_dir=None) -> None:
    """The plan's warnings, on stderr after the summary: the run said "1 warnings" and where to read them was
    report.md's last section."""
    import sys

    warnings = [w for w in warnings if not w.startswith("stale: ")]  # print_stale wrote those
    for w in warnings[:SHOWN_WARNINGS]:
        sys.stderr.write(f"warning: {w}\n")
    if len(warnings) > SHOWN_WARNINGS:
        where = f" in {report_dir / 'report.md'}" if report_dir else " with --json"
        sys.stderr.write(f"... and {len(warnings) - SHOWN_WARNINGS} more warnings{where}\n")


def run(args) -> int:
    from slimfork.api import shrink
    from slimfork.source.compiled_modules import compiled_modules, unbuilt_extensions

    spec, out_dir = args.spec, args.out
    if spec is None:
        import sys

        from slimfork.examples import EXAMPLE_SPEC

        if (Path.cwd() / "slimfork.toml").is_file():  # what `slimfork init --out slimfork.toml` wrote here
            spec = Path.cwd() / "slimfork.toml"
            sys.stderr.write(f"slimfork: no SPEC given: shrinking {spec}\n")
        else:
            spec, out_dir = EXAMPLE_SPEC, out_dir or Path.cwd() / "mlserve-fork"
    result = shrink(spec, out_dir, dry_run=args.dry_run, jobs=args.jobs, strict=args.strict,
                    verify=not args.no_verify, allow_stale=args.allow_stale or None,
                    executor=args.executor, ray_address=args.ray_address)
    data = result.data
    print_stale(result.analysis)
    unusable = print_unusable(data, venv=result.analysis.spec.sections.get("verify") is not None,
                              compiled=compiled_modules(result.analysis.tree.root),
                              unbuilt=unbuilt_extensions(result.analysis.tree.root), root=result.analysis.tree.root)
    restored = print_restored(data, result.report_dir)
    if args.json:
        print_json(data)
        return 0
    out = console()
    out.print(comparison_table("By language", data["before"], data["after"], "by_language"))
    red = data["reduction"]
    out.print(f"Python lines: {red['python_lines']}% fewer; all lines: {red['lines']}% fewer; files: "
              f"{red['files']}% fewer. {_n(len(data['uncertain']), 'uncertain', 'uncertain')}, "
              f"{_n(len(data['warnings']), 'warning')}"
              + (f", {_n(unusable, 'check warning')} (above)" if unusable else "")
              + (f", {_n(restored, 'planned edit')} put back by the checks (above)." if restored else "."))
    print_warnings(data["warnings"], result.report_dir)
    if result.out and result.report_dir:  # a fork is written with its report
        out.print(f"fork: {result.out}\nreport: {result.report_dir / 'report.md'}")
    else:
        out.print("dry run: nothing written")
    return 0
