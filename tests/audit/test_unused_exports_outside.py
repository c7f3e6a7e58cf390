"""The unused-exports finding judges what a package ``__init__`` re-exports from the tree, not what it imports to
run: dunamai's ``__init__`` is the library's code, and ``from enum import Enum``, ``from typing import Union``, ...
were "10 of its 16 public names that nothing else uses". A name from outside the tree still counts where
``__all__`` lists it."""

from __future__ import annotations

from slimfork.audit.run import AuditOptions, run_audit
from slimfork.source.layout import open_tree

STDLIB = ("from enum import Enum\nfrom typing import NamedTuple, Optional, Sequence, Set, Tuple, TypeVar, Union\n"
          "from collections import OrderedDict\nimport xml.etree.ElementTree as ElementTree\n")


def _findings(tmp_path, init: str) -> dict:
    pkg = tmp_path / "proj" / "lib"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(init)
    for i in range(6):
        (pkg / f"m{i}.py").write_text(f"def f{i}():\n    return {i}\n")
    result, _ = run_audit(open_tree(tmp_path / "proj"), options=AuditOptions(kinds={"eager-import"}))
    return {f.subject: f for f in result.findings}


def test_names_imported_from_outside_the_tree_are_no_exports(tmp_path):
    assert "lib:unused-exports" not in _findings(tmp_path, STDLIB + "class Version(NamedTuple):\n    x: Enum\n")


def test_re_exports_of_the_tree_still_count(tmp_path):
    init = STDLIB + "".join(f"from .m{i} import f{i}\n" for i in range(6))
    unused = _findings(tmp_path, init)["lib:unused-exports"].details["unused"]
    assert unused == [f"f{i}" for i in range(6)]


def test_names_all_lists_count_wherever_they_come_from(tmp_path):
    init = STDLIB + "__all__ = ['Enum', 'NamedTuple', 'Optional', 'Sequence', 'Union']\n"
    unused = _findings(tmp_path, init)["lib:unused-exports"].details["unused"]
    assert unused == ["Enum", "NamedTuple", "Optional", "Sequence", "Union"]
