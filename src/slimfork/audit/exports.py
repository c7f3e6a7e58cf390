"""The public names a package ``__init__`` exports that nothing else in the tree uses (reported with the
eager-import findings: the seed's "``__init__`` imports ~100 symbols, many unused")."""

from __future__ import annotations

import posixpath

from slimfork.audit.model import Finding
from slimfork.audit.unused import in_test_folder, is_test_file


def unused_export_findings(scan, reached: set[str], min_unused: int = 5,
                           packages: list[str] | None = None) -> list[Finding]:
    """A name counts as used when any other file of the tree reads or imports an identifier of that name
    (by name: conservative); tests count as users too. Only names an ``__init__`` imports or lists in
    ``__all__`` are judged, not the ones it defines itself; with ``packages`` (the tree's top-level packages), a
    name imported from outside them (``from enum import Enum``, ``from typing import Union``) is judged only where
    ``__all__`` lists it: a package whose ``__init__`` is its code imports what it uses, which is no export (dunamai's
    "imports 10 of its 16 public names": ``Enum``, ``NamedTuple``, ``ElementTree``, ...)."""
    by_file = {rel: set(py.refs) | {i[3] or i[0] for i in py.imports} | set(py.strings) for rel, py in scan.py.items()}
    out: list[Finding] = []
    for rel, py in sorted(scan.py.items()):
        if posixpath.basename(rel) != "__init__.py" or rel not in reached or is_test_file(rel) or in_test_folder(rel):
            continue
        imported = {local for local, module, level, name, _line in py.imports if name and name != "*"
                    and (packages is None or level or (module or "").split(".")[0] in packages
                         or local in (py.all_names or ()))}
        exports = sorted((set(py.all_names) | imported) if py.all_names else imported)
        here = posixpath.dirname(rel)
        exports = [n for n in exports if not n.startswith("_") and n in imported  # a submodule: imported for effect
                   and f"{here}/{n}.py" not in scan.py and f"{here}/{n}/__init__.py" not in scan.py]
        if not exports:
            continue
        used = set()
        for other, names in by_file.items():
            if other != rel:
                used |= names & set(exports)
        unused = [n for n in exports if n not in used]
        if len(unused) < min_unused:
            continue
        package = posixpath.dirname(rel)
        out.append(Finding("eager-import", f"{package}:unused-exports",
                           f"{rel} imports {len(unused)} of its {len(exports)} public names that nothing else uses",
                           "no other file of the tree names them: " + ", ".join(unused[:12]) +
                           (f" (+{len(unused) - 12})" if len(unused) > 12 else "") +
                           "; users outside the tree may import them", 40, rel, None,
                           {"unused": unused, "exports": len(exports)}))
    return out
