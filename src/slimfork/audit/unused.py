"""Finding kind "unused-file": Python files, and whole folders of them, that nothing reaches from the roots.

Roots default to the distribution's console scripts and entry points, its top-level packages (their
``__init__``) and its tests; a spec gives its own roots. Reachability is the module graph's
(``slimfork.graph``): imports, dynamic imports with literal names, module-naming strings, directory scans.
"""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Set as AbstractSet
from pathlib import Path

from slimfork.fsutil import folders_above
from slimfork.audit.builders import SUPERSEDED_FOLDER, setup_scripts
from slimfork.audit.copied_folders import copied_folder_files
from slimfork.audit.layout import nested_distribution_files
from slimfork.source.build_scripts import build_scripts
from slimfork.audit.model import Finding
from slimfork.audit.public import CONFIDENCE as PUBLIC, TEST_PART, is_documented, public_note
from slimfork.audit.scriptuse import beside_imports, runs_at_top_level
from slimfork.graph import ModuleGraph
from slimfork.progress import counted
from slimfork.source.layout import SourceTree
from slimfork.source.pytest_ini import pytest_options
from slimfork.source.test_folders import TEST_DIRS
from slimfork.spec.model import Root

_TEST_FILE = re.compile(r"(^|/)(test_[^/]*|[^/]*_test|conftest)\.py$")
_TEST_DIR = re.compile(r"(^|/)tests?/")
# example and documentation code (docs snippets a literalinclude shows): users read it and run it by hand
_EXAMPLE = re.compile(r"(^|/)(examples?|demos?|tutorials?|docs?)/")
_REFERENCE = re.compile(r"(^|/|_)(naive|reference|ref|testing|mock|fake|oracle)[^/]*(\.py|/)|_(naive|ref|reference)\.py$")


def is_example(path: str) -> bool:
    """A file of an examples, demos, tutorials or docs folder: example or documentation code users read and run
    by hand."""
    return bool(_EXAMPLE.search(path))


def is_test_file(path: str) -> bool:
    return bool(_TEST_FILE.search(path)) or (bool(_TEST_DIR.search(path)) and path.endswith(".py")
                                              and posixpath.basename(path).startswith(("test", "conftest")))


def in_test_folder(path: str) -> bool:
    return bool(_TEST_DIR.search(path))


_TEST_NAME = re.compile(r"^(test_|Test[A-Z_])")


def defines_tests(path: str, summary) -> bool:
    """A file of a test folder that pytest's default names miss (``fmha_test_deterministic.py``), or a ``test.py``
    anywhere (flash-attention's ``flash_attn/flash_attn_triton_amd/test.py``), that defines ``test_*`` functions or
    ``Test*`` classes: a test another runner (Buck, a ``python_files`` setting, an explicit path) collects. Names it
    imports (OpenEquivariance's ``tests/tp_debug.py``: ``from ...TestBenchmarkSuite import TestDefinition``) are
    not its own tests."""
    if not (in_test_folder(path) or posixpath.basename(path) in ("test.py", "tests.py")) or is_test_file(path) \
            or summary is None or summary.error:
        return False
    imported = {(name, edge.line) for edge in summary.imports for name in edge.names}
    return any(_TEST_NAME.match(name) and (name, line) not in imported for name, line in summary.defs.items())


def disabled_test(root: Path, path: str) -> bool:
    """A file of a test folder named ``_test*.py`` (nanotron's ``tests/fp8/_test_fp8_parameter.py``): the leading
    underscore hides it from pytest's and unittest's default names, the usual way to switch a test off, so it is
    no test root, unless a pytest configuration sets its own ``python_files``."""
    return in_test_folder(path) and posixpath.basename(path).startswith("_test") \
        and not any("python_files" in options for _, options in pytest_options(root))


def script_named_like_test(root: Path, path: str) -> bool:
    """A file outside test folders with a name pytest collects (``scripts/test_apc_disk.py``) that defines no test
    (no ``test*`` function, ``Test*`` class or ``TestCase`` subclass) and has an ``if __name__ == "__main__":``
    block, or runs code at its top level (tutel's ``test_baseline.py``, launched with ``torch.distributed.launch``):
    a script run by hand (``python scripts/test_apc_disk.py``), in which pytest finds nothing to run."""
    if in_test_folder(path) or not _TEST_FILE.search(path) or posixpath.basename(path) == "conftest.py":
        return False
    try:
        text = (root / path).read_text(errors="replace")
        tree = ast.parse(text)
    except (OSError, SyntaxError, ValueError):
        return False
    main = False
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and _TEST_NAME.match(node.name):
            return False
        if isinstance(node, ast.ClassDef) and any("Test" in ast.unparse(base) for base in node.bases):
            return False
        main = main or isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)
    return main or runs_at_top_level(text)


def default_roots(tree: SourceTree, python_paths: list[str], module_of, with_tests: bool = True,
                  index=None, skip: AbstractSet[str] = frozenset()) -> list[Root]:
    """``skip``: top-level packages that are no roots (``layout.unimported_packages``)."""
    # a folder holding only files whose names are no module names (tutorials/06-overlap.py) has no module: no root
    named = {m.split(".")[0] for p in python_paths if (m := module_of(p))}
    roots = [Root("module", pkg, text=f"{pkg} (a top-level package)") for pkg in tree.packages
             if pkg not in skip and pkg in named]
    roots += namespace_portions(tree, skip, module_of)
    if tree.dist:
        roots += [Root("script", name, text=f"script:{name}") for name in sorted(tree.dist.scripts)]

    builds = build_scripts(tree.root, python_paths)
    roots += [Root("file", p, text=f"file:{p} ({why})") for p, why in builds.items() if module_of(p) is not None]
    # a setup.py elsewhere builds a second distribution (flash-attention's csrc/layer_norm/setup.py builds the
    # dropout_layer_norm extension flash_attn/ops imports): someone runs it, so what it builds is used
    roots += [Root("file", p, text=f"file:{p} (the build script of a second distribution)") for p in python_paths
              if posixpath.basename(p) == "setup.py" and p not in builds and module_of(p) is not None]
    # a Python file a setup.py runs through a shell command (hqq's "cd hqq/kernels; python setup_cuda.py install"):
    # part of the build, so what it builds is used
    roots += [Root("file", p, text=f"file:{p} ({why}: a build script)") for p, why in
              setup_scripts(tree.root, python_paths).items() if why and p not in builds and module_of(p) is not None]
    # the packages of a distribution in a subfolder, which the tree does not name as its users import them
    roots += [Root("file", p, text=f"file:{p} ({why})") for p, why in
              nested_distribution_files(tree.root, python_paths, module_of, set(tree.packages)).items()
              if module_of(p) is not None]
    # folders a setup.py installs by copying them (tutel's shutil.copytree of tutel/ as tutel_moe)
    roots += [Root("file", p, text=f"file:{p} ({why})") for p, why in
              copied_folder_files(tree.root, python_paths).items() if module_of(p) is not None]
    # a build script inside a package that is no root (cpp_kernel/setup.py) builds what only that package loads
    roots = [r for r in roots if r.kind != "file" or (module_of(r.value) or "").split(".")[0] not in skip]
    if with_tests:
        roots += [Root("file", p, text=f"file:{p} (a test)") for p in python_paths
                  if is_test_file(p) and module_of(p) is not None and not script_named_like_test(tree.root, p)]
        if index is not None:
            roots += [Root("file", p, text=f"file:{p} (defines tests)") for p in python_paths
                      if defines_tests(p, index.files.get(p)) and module_of(p) is not None
                      and not disabled_test(tree.root, p)]
    return roots


_NOT_LIBRARY = re.compile(TEST_PART + r"|^bench|^(examples?|scripts?|tools|docs?|demos?|notebooks?)$")


def namespace_portions(tree: SourceTree, skip: AbstractSet[str] = frozenset(), module_of=None) -> list[Root]:
    """The packages directly inside a top-level namespace package (PEP 420: a folder without
    ``__init__.py``), which imports none of them: jaraco.classes 3.4.0's ``jaraco/classes``, whose root ``jaraco``
    reached nothing, so the audit called the whole library unused. Not one the module map names otherwise (the
    package of a distribution in a folder of its name: ``layout.audit_module_map``)."""
    roots = []
    for pkg in tree.packages:
        folder = tree.python_root / pkg
        if pkg in skip or _NOT_LIBRARY.search(pkg) or not folder.is_dir() or (folder / "__init__.py").is_file():
            continue
        for child in sorted(folder.iterdir()):  # its regular packages: loose modules beside them are scripts
            name = child.name
            if name.isidentifier() and name not in TEST_DIRS and not name.startswith(("_", "test")) and (
                    child / "__init__.py").is_file() and (module_of is None or module_of(
                    (child / "__init__.py").relative_to(tree.root).as_posix()) == f"{pkg}.{name}"):
                roots.append(Root("module", f"{pkg}.{name}", text=f"{pkg}.{name} (a portion of the namespace "
                                                                   f"package {pkg})"))
    return roots


def forwarders(graph: ModuleGraph, index, paths) -> dict[str, str]:
    """Files that re-export (``from x import *``) a module of the tree's own packages that the tree lacks
    (``from pkg.fb.attention.utils import *``): shims for code built elsewhere, which may import them. Unknown
    means keep: path -> why."""
    lost: dict[str, set[str]] = {}
    for m in graph.missing:
        lost.setdefault(m.path, set()).add(m.target)
    out = {}
    for path in paths:
        summary = index.files.get(path)
        if summary is None or path not in lost:
            continue
        for imp in summary.imports:
            if "*" in imp.names and not imp.level and imp.module in lost[path]:
                out[path] = f"it re-exports {imp.module}, which is not in the tree: code built elsewhere may " \
                            "import it"
                break
    return out


_DEPRECATED = re.compile(r"\b(?:DeprecationWarning|FutureWarning|PendingDeprecationWarning)\b|deprecat", re.I)


def deprecated_shims(root: Path, paths) -> dict[str, str]:
    """Files whose top level only imports and warns that they are deprecated (Megatron-LM's root
    ``mamba_builders.py``: ``warnings.warn("mamba_builders has been deprecated...", DeprecationWarning)``, then
    ``from hybrid_builders import *``): compatibility shims kept for users' imports until the deprecation ends.
    Unknown means keep: path -> why."""
    out = {}
    for path in paths:
        try:
            body = ast.parse((root / path).read_text(errors="replace")).body
        except (OSError, SyntaxError, ValueError):
            continue
        imports = [n for n in body if isinstance(n, (ast.Import, ast.ImportFrom))]
        calls = [n.value for n in body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)]
        docs = [n for n in body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)]
        if (imports and calls and len(imports) + len(calls) + len(docs) == len(body)
                and all(ast.unparse(c.func).endswith("warn") and _DEPRECATED.search(ast.unparse(c))
                        for c in calls)):
            out[path] = "a deprecated compatibility shim (it only warns on import and re-exports): users import " \
                        "it until the deprecation ends"
    return out


def reached_paths(graph: ModuleGraph) -> set[str]:
    return {info.path for name, info in graph.modules.items() if name in graph.reached and info.path}


def tests_reaching(graph: ModuleGraph, module: str, limit: int = 2000) -> list[str]:
    """The test files whose imports reach ``module`` (walking importers backwards)."""
    seen, queue, tests = {module}, [module], set()
    while queue and len(seen) < limit:
        for src, _edge in graph.importers(queue.pop()):
            if src in seen:
                continue
            seen.add(src)
            info = graph.mm.modules.get(src)
            if info and info.path and is_test_file(info.path):
                tests.add(info.path)
            else:
                queue.append(src)
    return sorted(tests)


_GENERIC_FOLDERS = frozenset({"src", "lib", "tests", "test", "data", "fixtures", "projects", "samples", "files",
                              "resources", "assets", "cases", "input", "inputs", "output", "expected", "build"})


def test_data_folders(root, index, paths) -> dict[str, str]:
    """Files of ``paths`` (unreached ones) inside a folder below a test folder that a test file names by a string:
    its own name (``parametrize("name", ["demo-pep420-package"])``, joined to a path) or a path ending in it
    (``FIXTURES / "projects/demo-package-with-tests"``): fixture projects the tests read, build or copy as data,
    not code of the project (pdm-backend's ``tests/fixtures/projects/*``). Path -> why (a low confidence)."""
    keys_of: dict[str, list[tuple[str, str]]] = {}  # path -> [(key, folder)], innermost folder first
    for path in paths:
        if not in_test_folder(path):
            continue
        folder = posixpath.dirname(path)
        while folder and in_test_folder(folder + "/"):
            base, parts = posixpath.basename(folder), folder.split("/")
            if base not in _GENERIC_FOLDERS and not _TEST_DIR.search(base + "/"):
                keys_of.setdefault(path, []).append((base, folder))
            keys_of.setdefault(path, []).extend(("/".join(parts[i:]), folder) for i in range(len(parts) - 1))
            folder = posixpath.dirname(folder)
    # a folder of plain files outside the test folders, no package and holding no test file, that a test runner
    # names (pep8-naming 0.15.1's run_tests.py: os.listdir('testsuite'), whose N801.py ... it checks with flake8)
    with_tests = {posixpath.dirname(p) for p in index.files if is_test_file(p)}
    for path in paths:
        folder = posixpath.dirname(path)
        if folder and not in_test_folder(path) and posixpath.basename(folder) not in _GENERIC_FOLDERS \
                and f"{folder}/__init__.py" not in index.files \
                and not any(w == folder or w.startswith(folder + "/") for w in with_tests):
            keys_of.setdefault(path, []).append((folder, folder))
    if not keys_of:
        return {}
    wanted = {k for keys in keys_of.values() for k, _f in keys}
    named: dict[str, tuple[str, int]] = {}
    unreached = set(paths)  # a file of the data itself names nothing for the tests
    # the namers: test files, and a test runner beside them (run_tests.py, runtests.py)
    for test in sorted(p for p in index.files if p.endswith(".py") and (
            in_test_folder(p) and p not in unreached or "test" in posixpath.basename(p) and p not in keys_of)):
        try:
            text = (Path(root) / test).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for m in _QUOTED.finditer(text):
            key = m.group(1).strip("/")
            if key in wanted and key not in named:
                named[key] = (test, text.count("\n", 0, m.start()) + 1)
    out: dict[str, str] = {}
    for path, keys in keys_of.items():
        hit = next(((k, f, named[k]) for k, f in reversed(keys) if k in named), None)  # the outermost folder named
        if hit:
            key, folder, (test, line) = hit
            out[path] = (f'"{key}" at {test}:{line} names the folder {folder}/: test data the tests read or build, '
                         "not code they import")
    return out


_QUOTED = re.compile(r"""["']([\w.][\w./-]{2,198})["']""")


def unused_findings(graph: ModuleGraph, python_paths: list[str], lines: dict[str, int],
                    runnable: frozenset[str] = frozenset(), ambiguous: dict[str, str] | None = None,
                    test_only: AbstractSet[str] = frozenset(), namespaces: AbstractSet[str] = frozenset(),
                    unparsed: AbstractSet[str] = frozenset(), support: dict[str, str] | None = None,
                    public: dict[str, str] | None = None, tool_run: dict[str, str] | None = None,
                    test_data: dict[str, str] | None = None,
                    installed: AbstractSet[str] = frozenset()) -> list[Finding]:
    """``runnable``: files with an ``if __name__ == "__main__":`` block or named ``__main__.py``; nothing
    imports them, but a user may run them (``python -m``), so they are reported with a low confidence.
    ``test_only``: library files only tests reach; reported (50) with the tests that go with them.
    ``support``: unreached files a runnable script imports (path -> script), reported like the script (30).
    ``public``: public modules of a library package (path -> package): users may import them (40).
    ``tool_run``: files a shell script, CI workflow or tool runs (path -> why): each is reported on its own (30),
    never inside a folder finding that would call the files beside it as unknown as it is.
    ``test_data``: files of folders the tests name as data (``test_data_folders``), reported low (30); a folder
    finding never mixes them with files no test names. ``installed``: the top-level packages the build installs
    (``public.installed_packages``)."""
    support, public, tool_run, test_data = support or {}, public or {}, tool_run or {}, test_data or {}
    reached = reached_paths(graph)
    # a test in a folder no import can name (a vendored project's lm-evaluation-harness/tests/test_*.py) is no root
    # (it has no module name) but still a test, which a test runner collects by path: not unused code
    unnamed = unnamed_test_code(graph.index, python_paths, graph.module_of)
    unreached = [p for p in python_paths if (p not in reached or p in test_only) and p not in unnamed]
    if not unreached:
        return []
    dead = set(unreached)
    ambiguous = {**test_data, **(ambiguous or {})}
    folders: dict[str, list[str]] = {}
    for path in python_paths:
        for folder in folders_above(path):
            folders.setdefault(folder, []).append(path)
    # a folder finding never mixes example code (30) with files that are not: it would call one or the other wrong
    # nor scripts and what they import (30) with files no script reaches (nunchaku's app/: 33 scripts and their
    # helpers beside two dataset loaders were one folder "unreached" at 70); a folder a script outside it imports
    # from is reported as that script's, whole (xformers' benchmarks/, which a CI script imports and runs), but for
    # a folder of a package the build installs holding a file that is dead on its own (not public, not test-only,
    # not unknown): library code scripts import beside a module nothing reaches (a pcdet/models/ that tools/demo.py
    # imports, holding a backbone no __init__ imports)
    def dead_alone(path: str) -> bool:
        return path not in runnable and path not in support and path not in public and path not in test_only \
            and path not in ambiguous and path not in unparsed

    def mixes_scripts(folder: str, files: list[str]) -> bool:
        modules = [p for p in files if not p.endswith("/__init__.py")]
        if len({p in runnable or p in support for p in modules}) < 2:
            return False
        if not any(p in support and support[p] not in files for p in files):
            return True
        # a file dead on its own in a subfolder whose name says it was replaced (OpenEquivariance's
        # src/deprecated/, beside the src/ modules its driver scripts import) is no part of the scripts' folder
        if any(dead_alone(p) and any(SUPERSEDED_FOLDER.match(part) for part in p[len(folder) + 1:].split("/")[:-1])
               for p in modules):
            return True
        return (graph.module_of(files[0]) or "").split(".")[0] in installed and any(dead_alone(p) for p in modules)

    whole = {f for f, files in folders.items() if all(p in dead and p not in tool_run for p in files)
             and (_EXAMPLE.search(f + "/") or not any(_EXAMPLE.search(p) for p in files))
             and not mixes_scripts(f, files) and len({p in test_data for p in files}) == 1
             and len({is_documented(public.get(p, "")) for p in files if not p.endswith("/__init__.py")}) < 2}
    top = sorted(f for f in whole if not any(f.startswith(o + "/") for o in whole))
    out: list[Finding] = []
    covered: set[str] = set()
    tests_of = {p: tests_reaching(graph, m) for p in test_only if (m := graph.module_of(p))}
    api = {p for p in test_only if (graph.module_of(p) or "").split(".")[0] in namespaces}
    helper = {p for p in test_only if p not in api and _REFERENCE.search(p)
              and _tests_also_test_live_code(graph, tests_of.get(p, []), test_only)}
    # a pytest plugin the package ships (quack's quack/testing/pytest_plugin.py, which users name in their
    # pytest_plugins) and the test-only files beside it: test support for users' tests too, not dead code
    plugin_dirs = {posixpath.dirname(p) for p in test_only if p not in api and _pytest_plugin(graph, p)}
    helper |= {p for p in test_only if p not in api and posixpath.dirname(p) in plugin_dirs}
    helper_note = "the tests that use it also test code the roots reach: a test helper or reference, move it " \
                  "to the tests rather than remove it; "
    api_note = "its package's __init__ imports none of its modules, so users import them directly: public API? "
    for folder in top:
        files = folders[folder]
        covered.update(files)
        total = sum(lines.get(p, 0) for p in files)
        scripts = [p for p in files if not p.endswith("/__init__.py")]
        example = bool(_EXAMPLE.search(folder + "/"))
        main = f"{folder}/__main__.py" in files or bool(scripts) and all(p in runnable or p in support
                                                                          for p in scripts)
        used = next((support[p] for p in files if p in support and support[p] not in files), None)
        package = public.get(f"{folder}/__init__.py") or (public.get(files[0]) if all(p in public for p in files)
                                                           else None)
        named = next((ambiguous[p] for p in files if p in ambiguous), None) or next(
            (f"{p} does not parse with this Python: what it imports is unknown" for p in files if p in unparsed), None)
        only = [p for p in files if p in test_only]
        tests = sorted({t for p in only for t in tests_of.get(p, [])})
        note = ("it holds scripts or a __main__.py, it may be run by hand; " if main else "") + \
            ("example or documentation code (an examples, demos, tutorials or docs folder): users read it and run it by hand; " if example
             else "") + \
            (f"{used} imports it, a script that may be run by hand; " if used else "") + \
            (f"{named}; " if named else "") + (f"{public_note(package)}; " if package else "")
        what = "not reached from the roots" if not only else \
            f"unused: {len(files) - len(only)} files unreached, {len(only)} reached only from tests"
        possible_api = any(p in api for p in only)
        aid = bool(only) and all(p in helper for p in only)
        out.append(Finding("unused-file", folder + "/", f"folder {folder}/ ({counted(len(files), 'Python file')}, {counted(total, 'line')}) "
                           f"is {what}", ((api_note if possible_api else "") + (helper_note if aid else "") + note +
                                          _test_note(tests)).rstrip("; ") or "unreached",
                           30 if main or example or used or named or possible_api or aid else PUBLIC if package
                           else 50 if only
                           else 70, folder + "/", None,
                           {"files": files, "lines": total, "test_only": only, "tests": tests,
                            **({"public": package} if package else {})}))
    for path in unreached:
        if path in covered:
            continue
        example = bool(_EXAMPLE.search(path))
        script = path in runnable or path in tool_run or example
        note = "it is a script (a __main__ block or code at its top level), it may be run by hand; " \
            if path in runnable else f"{tool_run[path]}; " if path in tool_run else \
            "example or documentation code (an examples, demos, tutorials or docs folder): users read it and run it by hand; " if example else ""
        if path in ambiguous:
            note += f"{ambiguous[path]}; "
        if path in unparsed:
            note += "it does not parse with this Python: what it imports is unknown; "
        if path in support:
            note += f"{support[path]} imports it, a script that may be run by hand; "
        if path in public:
            note += f"{public_note(public[path])}; "
        if disabled_test(Path(graph.tree.root), path):
            note += "named _test*, which no test runner collects by default: a test switched off; "
        tests = tests_of.get(path, [])
        what = "reached only from tests" if path in test_only else "not reached from the roots"
        out.append(Finding("unused-file", path, f"{path} ({counted(lines.get(path, 0), 'line')}) is {what}",
                           ((api_note if path in api else "") + (helper_note if path in helper else "") + note +
                            _test_note(tests)).rstrip("; ") or "unreached",
                           30 if script or path in ambiguous or path in api or path in unparsed or path in helper
                           or path in support else PUBLIC if path in public else 50 if path in test_only else 60,
                           path, None,
                           {"module": graph.module_of(path), "lines": lines.get(path, 0), "tests": tests,
                            **({"public": public[path]} if path in public else {})}))
    return out


def unnamed_test_code(index, python_paths: list[str], module_of) -> set[str]:
    """Tests in a folder no import can name (below a folder whose name is no identifier: a vendored project's
    ``lm-evaluation-harness/tests/``, ``fastvideo-kernel/tests/``), which a test runner collects by path, and the
    files they import by path: relatively (``from .support_flex_sta import mask``) or from their own folder or
    one above it (``from utils import x``), transitively, with the ``__init__.py`` of those folders, inside test
    folders (library code they import stays what it is). Test code, not unused code; the graph, which names
    modules, cannot follow them."""
    present = set(python_paths)
    todo = [p for p in python_paths if is_test_file(p) and in_test_folder(p) and module_of(p) is None]
    out = set(todo)
    while todo:
        path = todo.pop()
        folder = posixpath.dirname(path)
        summary = index.files.get(path) if index is not None else None
        imports = summary.imports if summary is not None else ()
        found = [f"{folder}/__init__.py"] if folder else []
        for imp in imports:
            if not imp.level:
                continue
            base = folder
            for _ in range(imp.level - 1):
                base = posixpath.dirname(base)
            base = posixpath.join(base, *(imp.module or "").split(".")) if imp.module else base
            found += [c for name in ("", *imp.names) for c in (posixpath.join(base, name) + ".py" if name else
                                                               base + ".py", posixpath.join(base, name, "__init__.py"))]
        found += beside_imports(path, imports, present)
        for target in found:
            if target in present and target not in out and in_test_folder(target):
                out.add(target)
                todo.append(target)
    return out


_PYTEST_HOOK = re.compile(r"pytest_(configure|unconfigure|addoption|collection\w*|runtest_\w+|sessionstart|sessionfinish|"
                          r"generate_tests|make_parametrize_id|fixture_\w+|report_\w+|terminal_summary|pycollect_\w+|"
                          r"itemcollected|ignore_collect|load_initial_conftests|cmdline_\w+)$")


def _pytest_plugin(graph: ModuleGraph, path: str) -> bool:
    """A module (not a conftest) that defines pytest hooks at its top level: a pytest plugin."""
    summary = graph.index.files.get(path)
    return summary is not None and not path.endswith("conftest.py") \
        and any(_PYTEST_HOOK.match(name) for name in summary.defs)


def _tests_also_test_live_code(graph: ModuleGraph, tests: list[str], test_only: AbstractSet[str]) -> bool:
    """Whether every test reaching a file also imports library code the roots reach without tests."""
    if not tests:
        return False
    for test in tests:
        module = graph.module_of(test)
        live = False
        for edge in graph.edges.get(module or "", ()):
            info = graph.mm.modules.get(edge.target)
            path = info.path if info else None
            if path and edge.kind != "parent" and "." in edge.target and path not in test_only \
                    and not is_test_file(path) and not in_test_folder(path) and edge.target in graph.reached:
                live = True
                break
        if not live:
            return False
    return True


def _test_note(tests: list[str]) -> str:
    if not tests:
        return ""
    return f"remove with it: {', '.join(tests[:4])}{f' (+{len(tests) - 4})' if len(tests) > 4 else ''}"


def kind_reason(graph: ModuleGraph) -> str:
    """The reason shared by every unused-file finding, printed once per report."""
    return _reason(graph)


def _reason(graph: ModuleGraph) -> str:
    modules = list(dict.fromkeys(r.module for r in graph.roots))  # one module, two reasons: named once
    roots = ", ".join(modules[:4]) + (" ..." if len(modules) > 4 else "")
    text = f"no import, dynamic import, module-naming string or directory scan reaches it from {roots}"
    if graph.uncertain:
        text += f" ({len(graph.uncertain)} places the analysis could not decide; see 'slimfork why FOLDER MODULE')"
    return text
