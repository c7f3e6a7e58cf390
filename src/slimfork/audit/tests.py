"""Finding kind "orphaned-test": tests that import modules or names that do not exist in the tree, or that
exercise only code nothing else reaches (so the test is all that keeps that code alive)."""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Iterable, Set as AbstractSet

from slimfork.audit.model import Finding
from slimfork.audit.unused import in_test_folder, is_test_file
from slimfork.graph import ModuleGraph
from slimfork.graph.modules import resolve_import
from slimfork.index.build import Index
from slimfork.index.relative import absolute_module, package_of


def extension_names(scan, built: AbstractSet[str] = frozenset()) -> set[str]:
    """Names of native extension modules the tree builds (``PYBIND11_MODULE(_ext, m)``, ``NB_MODULE``,
    ``Extension("pkg._ext", ...)``): importing them is no missing import. ``built``: the dotted names ``setup.py``
    extensions declare (``builders.built_extension_modules``), kept whole as well as by their last part."""
    names = {k.namespace for nat in scan.native.values() for k in nat.kernels if k.kind == "pybind"}
    names |= {name for nat in scan.native.values() for name in nat.modules}  # defs in other files (mlx's core)
    names |= {call.name.rsplit(".", 1)[-1] for py in scan.py.values() for call in py.loaders if call.name}
    names |= set(built) | {name.rsplit(".", 1)[-1] for name in built}
    return names


def compiled_sources(paths: Iterable[str], python: AbstractSet[str]) -> set[str]:
    """Module names a build compiles from the tree's non-Python sources: a Cython ``_quoting_c.pyx``, and a
    ``.pyi`` stub with no ``.py`` beside it (the extension's interface). yarl 1.9.4's test importing
    ``yarl._quoting_c`` was "imports what does not exist" at 85."""
    out = set()
    for rel in paths:
        stem, _, suffix = rel.rpartition(".")
        name = stem.rsplit("/", 1)[-1]
        if suffix == "pyx" or suffix == "pyi" and name != "__init__" and stem + ".py" not in python:
            out.add(name)
    return out


def test_findings(graph: ModuleGraph, index: Index, reached_without_tests: set[str] | None,
                  extensions: AbstractSet[str] = frozenset(), namespaces: AbstractSet[str] = frozenset(),
                  public: AbstractSet[str] = frozenset(), idle: AbstractSet[str] = frozenset()) -> list[Finding]:
    """``namespaces``: top-level packages whose ``__init__`` imports none of their modules; a test of their
    modules tests public API users import directly, so it is reported at 30. ``public``: public modules of a
    library package (``slimfork.audit.public``); a test of those only is reported at 40. ``idle``: paths of
    reached modules only unused imports reach (``audit.idle_imports``), counted as unreached."""
    mm = graph.mm
    out: list[Finding] = []
    missing_by_path: dict[str, list] = {}
    for m in graph.missing:
        if m.target.rsplit(".", 1)[-1] in extensions:
            continue  # a compiled extension of the tree
        missing_by_path.setdefault(m.path, []).append(m)
    # the last parts of every imported module and name: a test module another file imports is a helper
    imported = {part for s in index.files.values() for imp in s.imports
                for part in [*(imp.module or "").split(".")[-1:], *imp.names]}
    for path, summary in index.files.items():
        if not is_test_file(path) or path.endswith("conftest.py"):
            continue
        if not summary.error and not summary.defs and not summary.imports and \
                not path.endswith("__init__.py"):  # an empty test_perm.py left behind by a clean-up
            out.append(Finding("orphaned-test", path, f"test {path} holds no test",
                               "it binds no name and imports nothing: there is nothing for a runner to collect", 60,
                               path, None, {"problems": []}))
            continue
        module = mm.module_of(path)
        helpers = _only_helpers(index, path) if posixpath.basename(path)[:-3] not in imported else None
        if helpers:  # nanotron's tests/test_x.py: a fixture left after its tests were commented out
            out.append(Finding("orphaned-test", path, f"test {path} holds no test",
                               f"it defines only {', '.join(helpers[:3])}, no test_* function or Test* class, and no "
                               "file imports it: there is nothing for a runner to collect", 60, path, None,
                               {"problems": []}))
            continue
        problems: list[str] = []
        unsure = 0  # problems that may not be: a relocated folder, a module made at import
        for m in missing_by_path.get(path, []):
            parts = m.target.split(".")
            tail = next((".".join(parts[i:]) for i in range(1, len(parts)) if ".".join(parts[i:]) in mm.modules), None)
            # the longest prefix the tree has: a plain module (bottle.py) has no submodules on disk, so
            # `bottle.ext.test` is one its import-time code makes (an import hook, sys.modules), not a broken test
            head = next((".".join(parts[:i]) for i in range(len(parts) - 1, 0, -1)
                         if ".".join(parts[:i]) in mm.modules), None)
            if tail and mm.modules[tail].path:  # the build may install that folder inside the package
                unsure += 1
                problems.append(f"line {m.line} imports {m.target}, which is not in the tree as such "
                                f"({mm.modules[tail].path} is: a build may install it there)")
            elif head and not mm.modules[head].is_package and mm.modules[head].path:
                unsure += 1
                problems.append(f"line {m.line} imports {m.target}, below the module {mm.modules[head].path}, "
                                "not a package: only code it runs at import can make it (an import hook, "
                                "sys.modules)")
            elif head and (shared := _shared_namespace(index, mm.modules[head])):
                unsure += 1
                problems.append(f"line {m.line} imports {m.target}, which is not in the tree: {head} is a "
                                f"namespace package ({shared}), which other distributions fill too")
            else:
                problems.append(f"line {m.line} imports {m.target}, which is not in the tree")
        internal: set[str] = set()
        for imp in summary.imports:
            if module is None:
                break
            resolved = resolve_import(mm, module, imp)
            internal.update(t for t in resolved.targets if t not in mm.top_names)
            if imp.kind != "from" or resolved.missing:
                continue
            base = _base(module, imp, mm)
            info = mm.modules.get(base) if base else None
            if info is None or info.path is None:
                continue
            target = index.files.get(info.path)
            if target is None or target.error or target.module_getattr or target.all_dynamic:
                continue
            star = any("*" in i.names for i in target.imports)
            for name in imp.names:
                if name != "*" and name not in target.defs and f"{base}.{name}" not in mm.modules and not star \
                        and f"{base}.{name}" not in extensions:  # from pytorch3d import _C: setup.py builds it
                    problems.append(f"line {imp.line} imports {name} from {base}, which does not define it")
        if problems:
            out.append(Finding("orphaned-test", path, f"test {path} imports what does not exist",
                               "; ".join(problems), 40 if unsure == len(problems) else 85,
                               path, None, {"problems": problems}))
            continue
        if reached_without_tests is None or not internal:
            continue
        # a test folder's helpers (webargs' tests/apps/aiohttp_app.py) are no code under test
        tested = {t for t in internal if (tp := mm.modules[t].path) and not is_test_file(tp)
                  and not in_test_folder(tp)}
        # a package on the way to a module only unused imports reach is not what the test tests
        tested -= {t for t in tested if any(o.startswith(t + ".") and mm.modules[o].path in idle for o in tested)}
        if tested and not any(mm.modules[t].path in reached_without_tests and mm.modules[t].path not in idle
                                  for t in tested):
            names = sorted(tested)
            api = all(n.split(".")[0] in namespaces for n in names)
            exposed = not api and any(n in public for n in names)  # it tests public API (and its helpers)
            out.append(Finding("orphaned-test", path, f"test {path} tests only code nothing else reaches",
                               f"every module it imports ({', '.join(names[:5])}{' ...' if len(names) > 5 else ''}) "
                               "is unreached from the roots other than the tests" +
                               ("; their package's __init__ imports none of its modules: public API?" if api else "") +
                               ("; public modules of the library among them: users may import them" if exposed else ""),
                               30 if api else 40 if exposed else 50, path, None, {"modules": names}))
    return out


def _only_helpers(index: Index, path: str) -> list[str] | None:
    """The functions of a test module whose top level is only imports (no star), a docstring, constants and
    functions or plain classes none of which is a test or a hook (``test*``, ``Test*``, ``pytest_*``, ``load_tests``,
    a class with bases); None otherwise, or when it defines no function."""
    try:
        body = ast.parse((index.root / path).read_text(encoding="utf-8", errors="replace")).body
    except (OSError, SyntaxError, ValueError):
        return None
    names: list[str] = []
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name.lower().startswith(("test", "pytest_", "load_tests")) or \
                    isinstance(node, ast.ClassDef) and (node.bases or node.keywords):
                return None
            names.append(node.name)
        elif isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return None
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if not all(isinstance(t, ast.Name) and not t.id.lower().startswith(("test", "pytest")) for t in targets) \
                    or node.value is not None and any(isinstance(n, ast.Call) for n in ast.walk(node.value)):
                return None
        elif not isinstance(node, (ast.Import, ast.ImportFrom)) and not (
                isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            return None
    return names or None


_NAMESPACE = re.compile(r"\b(?:declare_namespace|extend_path)\s*\(")


def _shared_namespace(index: Index, info) -> str | None:
    """Why a package's submodules may come from other distributions: a top-level folder without ``__init__.py``,
    or an ``__init__.py`` that declares a namespace (``pkg_resources.declare_namespace``, ``pkgutil.extend_path``).
    PasteDeploy 2.1.1's test imports ``paste.fixture``, which the Paste distribution installs into ``paste``: it
    was "imports what does not exist" at 85."""
    if info.path is None:
        return "a folder without __init__.py" if "." not in info.name else None
    try:
        text = (index.root / info.path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return f"{info.path} extends its path" if _NAMESPACE.search(text) else None


def _base(module: str, imp, mm) -> str | None:
    info = mm.modules.get(module)
    return absolute_module(package_of(module, info is not None and info.is_package), imp.level, imp.module)
