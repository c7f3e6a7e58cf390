"""Names the project's tests patch: ``mock.patch("pkg.service.time")``, ``mock.patch.object(service, "_sleep")``,
``monkeypatch.setattr("pkg.service._old_path", ...)``. A test that patches a name tests other code with it
replaced; the name itself is no test of removed code. Were symbol pruning to remove it (``import time`` unused once
its last user left, a private helper nothing kept calls), the patch would fail and take the test with it, and an
autouse fixture's patch every test of its file, tests of kept code included. So a name a test patches is a use: the
symbol stage holds it (prune/stage.py, given these by pipeline/stages.py) the way it holds a symbol root."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

from slimfork.globs import first_match
from slimfork.testsuite.scan import scan_test_file


def patched_names(analysis, scratch: Path, tests: list[str]) -> tuple[list[tuple[str, str, str]], frozenset[str]]:
    """(module, name, why) for each name of a module of the tree that a test file matching ``tests`` patches, and
    the attributes patched on them (``mock.patch.object(Engine, "_warm")``: ``_warm``, a method the stage then
    keeps as it keeps one a template spells)."""
    mm = analysis.graph.mm
    if not tests:
        return [], frozenset()
    attrs: set[str] = set()
    internal = set(mm.top_names)
    out: dict[tuple[str, str], str] = {}
    for rel, data in _test_files(analysis, scratch, tests):
        if b"patch" not in data and b"setattr" not in data:
            continue
        module = mm.module_of(rel)
        package = (module if rel.endswith("__init__.py") else module.rpartition(".")[0]) if module else None
        tf = scan_test_file(rel, data, internal, package or None)
        for unit in tf.units.values():
            for patch in unit.patches:
                if patch.target.startswith("env:"):
                    continue
                owner = mm.longest_module(patch.target)
                if owner is None or owner == patch.target or mm.modules[owner].path is None:
                    continue
                name, *rest = patch.target[len(owner) + 1:].split(".")
                out.setdefault((owner, name), f"patched by the test {rel}:{patch.line}")
                attrs.update(rest)
    attrs.update(_private_strings(analysis, scratch, tests))
    return [(module, name, why) for (module, name), why in out.items()], frozenset(attrs)


_PRIVATE_STRING = re.compile(rb"""['"](_[A-Za-z]\w*)['"]""")


def _private_strings(analysis, scratch: Path, tests: list[str]) -> set[str]:
    """Private names a test file spells as a string (``do_raise_r(tests, att='_setPriority')``, then
    ``self.r.__getattribute__(att)``: cssutils 2.11.1's ``test_property.py``): a method the test reaches by that
    name, which the stage keeps as it keeps one a template spells (the tests stage cannot see the lookup)."""
    out: set[str] = set()
    for _, data in _test_files(analysis, scratch, tests):
        out.update(m.decode() for m in _PRIVATE_STRING.findall(data) if not m.endswith(b"__"))
    return out


def _test_files(analysis, scratch: Path, tests: list[str]) -> Iterator[tuple[str, bytes]]:
    """Each test file and its bytes (the scratch copy's, where the stages rewrote it)."""
    for rel in sorted(analysis.index.files):
        if first_match(tests, rel) is not None:
            path = scratch / rel if (scratch / rel).is_file() else analysis.tree.root / rel
            try:
                yield rel, path.read_bytes()
            except OSError:
                continue
