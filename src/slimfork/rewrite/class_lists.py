"""Local lists of classes that only ``isinstance`` reads (for ``[facts] never_instances``).

    supported = [TritonBackend, FlashInferBackend]
    if _is_cuda:
        from .v4_backend import V4Backend
        supported.append(V4Backend)
    if isinstance(backend, tuple(supported)): ...

A class no object of which exists cannot make that ``isinstance`` true, so it may leave the list (the literal, or
its ``append`` statement, and then the import only that statement read). Only a list whose every use is one of
these three shapes qualifies: anything else (iterating it, passing it on, indexing it) may create an object or
let code see the class, and the list stays as written.
"""

from __future__ import annotations

import libcst as cst


def class_list_names(function: cst.FunctionDef) -> frozenset[str]:
    """The local names of ``function`` bound once to a list literal and read only by ``.append(x)`` statements
    and ``isinstance(y, tuple(name))``."""
    uses = _Uses()
    function.body.visit(uses)
    return frozenset(name for name, count in uses.bound.items()
                     if count == 1 and uses.loads.get(name, 0) == uses.allowed.get(name, 0)
                     and name not in uses.declared)


def appended_class(statement: cst.BaseSmallStatement, names: frozenset[str]) -> cst.BaseExpression | None:
    """For ``name.append(x)`` with ``name`` in ``names``: ``x``."""
    call = statement.value if isinstance(statement, cst.Expr) else None
    if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "append" \
            and isinstance(call.func.value, cst.Name) and call.func.value.value in names \
            and len(call.args) == 1 and not call.args[0].keyword and not call.args[0].star:
        return call.args[0].value
    return None


class _Uses(cst.CSTVisitor):
    def __init__(self):
        self.bound: dict[str, int] = {}  # name -> statements binding it (a list literal: 1; anything else: 2)
        self.loads: dict[str, int] = {}
        self.allowed: dict[str, int] = {}  # loads in an allowed shape
        self.declared: set[str] = set()  # global / nonlocal

    def visit_Assign(self, node: cst.Assign) -> None:
        literal = len(node.targets) == 1 and isinstance(node.value, cst.List)
        for target in node.targets:
            for name in _stored(target.target):
                self.bound[name] = self.bound.get(name, 0) + (1 if literal else 2)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> bool:
        return isinstance(node.target, (cst.Attribute, cst.Subscript))  # their inner names are loads

    def _rebinds(self, target: cst.BaseExpression) -> None:
        for name in _stored(target):
            self.bound[name] = self.bound.get(name, 0) + 2

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._rebinds(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._rebinds(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._rebinds(node.target)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._rebinds(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._rebinds(node.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._rebinds(node.target)

    def visit_Del(self, node: cst.Del) -> None:
        self._rebinds(node.target)

    def visit_Global(self, node: cst.Global) -> None:
        self.declared.update(n.name.value for n in node.names)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self.declared.update(n.name.value for n in node.names)

    def visit_Name(self, node: cst.Name) -> None:
        self.loads[node.value] = self.loads.get(node.value, 0) + 1

    def visit_Expr(self, node: cst.Expr) -> None:
        call = node.value
        if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "append" \
                and isinstance(call.func.value, cst.Name) and len(call.args) == 1:
            self._allow(call.func.value.value)

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value == "isinstance" and len(node.args) == 2:
            classes = node.args[1].value
            if isinstance(classes, cst.Call) and isinstance(classes.func, cst.Name) and classes.func.value == "tuple" \
                    and len(classes.args) == 1 and isinstance(classes.args[0].value, cst.Name):
                self._allow(classes.args[0].value.value)

    def _allow(self, name: str) -> None:
        self.allowed[name] = self.allowed.get(name, 0) + 1


def _stored(target: cst.BaseExpression) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for e in target.elements for n in _stored(e.value)]
    if isinstance(target, cst.StarredElement):
        return _stored(target.value)
    return []
