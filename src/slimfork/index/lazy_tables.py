"""Submodules a lazy module's table names: transformers' and diffusers' ``_import_structure = {"models.bert":
[...]}`` (grown by ``_import_structure["x"] = [...]`` and ``.update({...})``) handed to ``_LazyModule(__name__,
..., _import_structure)``. Each key is a submodule the lazy module imports on first use, whether or not the
``if TYPE_CHECKING:`` branch beside it imports it too."""

from __future__ import annotations

import ast
import re
from slimfork.index.walk import walk

_KEY = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


def lazy_table_submodules(tree: ast.Module) -> list[tuple[str, int]]:
    """``{__name__}.<key>`` for every key of a module-level dict a call receives together with ``__name__``."""
    tables = {arg.id for node in walk(tree) if isinstance(node, ast.Call) and _gets_own_name(node)
              for arg in [*node.args, *(k.value for k in node.keywords)] if isinstance(arg, ast.Name)}
    out: list[tuple[str, int]] = []
    for node in walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id in tables and isinstance(node.value, ast.Dict):
                out += _keys(node.value)
            elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
                    and target.value.id in tables:
                out += _keys(ast.Dict([target.slice], [node.value]))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "update" \
                and isinstance(node.func.value, ast.Name) and node.func.value.id in tables and node.args \
                and isinstance(node.args[0], ast.Dict):
            out += _keys(node.args[0])
    return out


def _gets_own_name(call: ast.Call) -> bool:
    return any(isinstance(a, ast.Name) and a.id == "__name__" for a in [*call.args, *(k.value for k in call.keywords)])


def _keys(table: ast.Dict) -> list[tuple[str, int]]:
    return [("{__name__}." + key.value, key.lineno) for key in table.keys if isinstance(key, ast.Constant)
            and isinstance(key.value, str) and _KEY.fullmatch(key.value)]
