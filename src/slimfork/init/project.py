"""What a draft spec is built from: the source tree, its index and module map, the console scripts, the public
packages and the tests folders."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import cached_property
from pathlib import Path

from slimfork.errors import SpecError
from slimfork.graph.modules import ModuleMap, build_module_map
from slimfork.index import Index, build_index
from slimfork.init.documented import documented_private
from slimfork.source import SourceTree, open_tree, resolve_source
from slimfork.source.compiled_modules import compiled_modules
from slimfork.source.installed_names import installed_patterns, matches
from slimfork.source.package_find import finder_excludes
from slimfork.source.test_folders import TEST_DIRS, configured_test_folders, find_test_folders

NOT_LIBRARY = {*TEST_DIRS, "demos", "demo", "examples", "example", "docs", "doc", "benchmarks", "benchmark",
               "scripts", "tools"}


@dataclass
class Project:
    source: str  # as the spec will write it
    dist: str  # "wheel", "sdist" or "" (a folder)
    tree: SourceTree
    index: Index
    mm: ModuleMap
    _asts: dict[str, ast.Module | None] = field(default_factory=dict, repr=False)

    def parse(self, rel: str) -> ast.Module | None:
        """The ``ast`` of a file the index parsed without error (None otherwise), parsed once."""
        if rel not in self._asts:
            summary = self.index.files.get(rel)
            tree = None
            if summary is not None and summary.error is None and summary.sha:
                try:
                    tree = ast.parse((self.tree.root / rel).read_bytes())
                except (SyntaxError, ValueError):
                    tree = None
            self._asts[rel] = tree
        return self._asts[rel]

    @cached_property
    def packages(self) -> list[str]:
        """The library's top-level packages: not tests, demos, examples, docs, benchmarks or scripts, and, where
        the build configuration lists what it installs (hatch's ``packages``/``only-include``, poetry's
        ``packages``, setuptools' finder's ``include``, ...), only those (a ``bench/`` or ``docs_src/`` package beside
        them is no API), and none its finder's ``exclude`` names."""
        found = [p for p in self.tree.packages if p not in NOT_LIBRARY and not p.startswith("_")]
        kept = [p for p in found if not any(fnmatchcase(p, x) for x in finder_excludes(self.tree.root))]
        found = kept or found  # setuptools' finder leaves out what its `exclude` matches
        installed = [p for p in found if self.installed is None or matches(p, self.installed)]
        return sorted(installed or found)

    @cached_property
    def installed(self) -> set[str] | None:
        """What the build configuration says it installs (patterns), or None where it does not list it."""
        return installed_patterns(self.tree.root)

    @cached_property
    def not_installed(self) -> list[str]:
        """The top-level packages found that the build does not install (the draft names them)."""
        return sorted(p for p in self.tree.packages if p not in self.packages and p not in NOT_LIBRARY
                      and not p.startswith("_"))

    def internal_modules(self) -> dict[str, str]:
        """module -> relative path, for the library's modules that have a file (tests folders left out)."""
        return {name: info.path for name, info in sorted(self.mm.modules.items())
                if info.path and name.split(".")[0] in self.packages and not self._in_tests(name)}

    def module_lines(self, module: str, below: bool = True) -> int:
        """Lines of a module's file (and, with ``below``, of every module under a package)."""
        names = [module] + (self.mm.descendants(module) if below else [])
        return sum(self.index.files[p].lines for n in names if (p := self.mm.modules[n].path))

    @cached_property
    def tests(self) -> list[str]:
        """Folders named tests/test/testing that hold test files, outside or inside the packages (outermost)."""
        found = find_test_folders(self.index.files)
        return sorted(found + [f for f in configured_test_folders(self.tree.root, self.index.files)
                               if not any(f == t or f.startswith(t + "/") for t in found)])

    def public_roots(self) -> list[str]:
        """Module globs for the public API: `pkg.**` per public package (public: no part starts with '_'); a
        package holding a tests folder gets itself and a root per public child that is not in a tests folder."""
        roots = []
        for top in self.packages:
            info = self.mm.modules.get(top)
            if info is None:
                continue
            if not info.is_package:
                roots.append(top)
            elif not any(self._in_tests(m) for m in [top] + self.mm.descendants(top)):
                roots.append(f"{top}.**")
            else:
                roots.append(top)
                roots += [f"{c}.**" if self.mm.modules[c].is_package else c for c in self.mm.children.get(top, [])
                          if not c.rsplit(".", 1)[1].startswith("_") and not self._in_tests(c)]
        return roots + [m for m in self.documented if not self._in_tests(m)]

    @cached_property
    def documented(self) -> dict[str, str]:
        """Private modules the README shows users importing (module -> ``README.rst:1356``)."""
        return documented_private(self.tree.root, self.mm, self.packages)

    def _in_tests(self, module: str) -> bool:
        """A module of a tests folder; a folder without ``__init__.py`` (no path of its own) where every module
        below it is (pycountry 26.2.16's ``src/pycountry/tests/``)."""
        path = self.mm.modules[module].path
        if path:
            return any(path.startswith(t + "/") for t in self.tests)
        below = [m for m in self.mm.descendants(module) if self.mm.modules[m].path]
        return bool(below) and all(self._in_tests(m) for m in below)


def open_project(target: str, base: Path) -> Project:
    """``target``: a folder, or ``pypi:NAME==VERSION`` (its sdist, which usually carries the tests)."""
    if target.startswith("pypi:"):
        root = resolve_source(target, base, "sdist")
        source, dist, kind = target, "sdist", "sdist"
    else:
        root = resolve_source(target, base)
        source, dist, kind = target, "", "folder"
    tree = open_tree(root, None, None, kind=kind)
    _stop_if_only_compiled(tree)
    index = build_index(tree.root)
    return Project(source, dist, tree, index, build_module_map(tree, index))


def _stop_if_only_compiled(tree: SourceTree) -> None:
    """Exit 2 where the build installs compiled extensions alone and no Python package found is one it installs
    (pyahocorasick 2.3.1's ``ahocorasick``, siphash24 1.9's ``siphash24``): the draft rooted the Python files
    beside them, the project's own tooling (``etc/``, ``check.py``), as the public API."""
    installed, compiled = installed_patterns(tree.root), compiled_modules(tree.root)
    if not installed or not compiled or not installed <= compiled.keys() or any(
            matches(p, installed) for p in tree.packages):
        return
    names = sorted(installed)
    raise SpecError("the build installs no Python code: " + ", ".join(f"{n} ({compiled[n]})" for n in names)
                    + (" is a compiled extension" if len(names) == 1 else " are compiled extensions"), key="source",
                    hint=f"the Python here ({', '.join(sorted(tree.packages))}) is the project's own tooling, not "
                    "what it installs; slimfork forks Python packages and modules")
