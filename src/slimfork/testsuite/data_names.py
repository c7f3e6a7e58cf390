"""Modules the tests' data files name: a pickle holds ``pkg.compat\\nLegacyPoint`` for each object it restores, a
YAML or JSON file names a class to load. Loading the file imports the module, so a test that loads it uses the
module: the test that names the file (``"legacy.pkl"`` among its strings) gets the use. A pickle no test names
may be loaded by a pattern (a fixture over ``data/*.pkl``): its modules stay while the tests do; a text file no
test names is taken for prose (a dotted name in it imports nothing)."""

from __future__ import annotations

import posixpath
from fnmatch import fnmatchcase

from slimfork.graph.data_files import PICKLES, modules_named
from slimfork.testsuite.scan import TestFile, Use


def data_uses(files: dict[str, TestFile], data: list[str], root: str, mm) -> dict[str, str]:
    """Add to the units of ``files`` that name a data file of ``data`` a use of each module it names; return the
    modules of the files no unit names -> why they stay."""
    loaded: dict[str, str] = {}
    for path in data:
        modules = modules_named(mm, root, path)
        if not modules:
            continue
        name = posixpath.basename(path)
        users = [u for tf in files.values() for u in tf.units.values()
                 if name in u.strings or any("*" in s and fnmatchcase(name, s) for s in u.strings)]
        for unit in users:
            unit.uses += [Use(m, unit.line, f"loads {path}, which names it") for m in modules]
        collector = _collector_above(files, path)
        if collector is not None:  # the file is a test: what it names is needed whoever else reads it
            loaded.update({m: f"{path} names it, a test {collector}'s pytest_collect_file collects" for m in modules
                           if m not in loaded})
        elif not users and path.endswith(PICKLES):
            loaded.update({m: f"the pickle {path} in the tests' data names it (no test names the file: kept for all)"
                           for m in modules if m not in loaded})
    return loaded


def _collector_above(files: dict[str, TestFile], path: str) -> str | None:
    """The ``conftest.py`` at or above the data file's folder that defines a ``pytest_collect_file`` hook: pytest
    hands it every file below, and it may turn any into tests (YAML cases naming ``pkg.mod:func``)."""
    folder = posixpath.dirname(path)
    while True:
        conftest = posixpath.join(folder, "conftest.py")
        if conftest in files and "pytest_collect_file" in files[conftest].units:
            return conftest
        if not folder:
            return None
        folder = posixpath.dirname(folder)


_RESOLVERS = frozenset({"import_module", "__import__", "resolve_name", "locate", "import_string", "import_object",
                        "find_spec", "importorskip"})


def read_file_uses(files: dict[str, TestFile], others: list[str], root: str, mm) -> None:
    """A test that names a file of the project outside the tests (``docs/api.rst``: ``"api.rst"`` among its
    strings) and imports by a computed name (``import_module(m)`` for each ``.. automodule:: m`` it finds there)
    uses each module the file names."""
    by_name: dict[str, list[str]] = {}
    for path in others:
        if not path.endswith((".py", ".pyc", ".pyi")):
            by_name.setdefault(posixpath.basename(path), []).append(path)
    for tf in files.values():
        for unit in tf.units.values():
            if unit.kind == "module" or not (unit.names | set(unit.attrs)) & _RESOLVERS:
                continue
            for name in sorted(unit.strings & set(by_name)):
                for path in by_name[name]:
                    unit.uses += [Use(m, unit.line, f"imports by a name it reads in {path}, which names it")
                                  for m in modules_named(mm, root, path, any_text=True)]
