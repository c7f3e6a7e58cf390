"""Registries written as an ``if``/``elif`` chain inside a function (``[[registries]] kind = "if-chain"``):

    def create_grammar_backend(name, ...):
        if name == "xgrammar":
            from .xgrammar_backend import XGrammarBackend
            ...
        elif name in ("outlines", "outlines-dev"):
            from .outlines_backend import OutlinesBackend
            ...
        else:
            raise ValueError(f"Invalid grammar backend: {name}")

``package`` names the function (``pkg.mod.func`` or ``pkg.mod.Class.method``), ``variable`` the name its arms
compare (``name``, or a dotted name such as ``server_args.backend``). An arm whose test is ``variable == "k"``,
``"k" == variable``, ``variable in ("k", ...)`` or an ``or`` of those, with no key the spec keeps, is deleted (a
key may also be a constant written as a dotted name, an enum member such as ``TransferBackend.MORI``: the spec
then keeps it by that text); the
next arm (or the ``else``) takes its place, so a removed key reaches the code an unknown key reaches today. An arm
whose test has any other shape stays (unknown means keep). Imports inside deleted arms go with them; the plan is
made again, so the modules only they imported leave the fork.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import libcst as cst

from slimfork.errors import SpecError, did_you_mean
from slimfork.mapping.sourcecut import KeepsKeys, SourceCut
from slimfork.mapping.spec import cut_outcome
from slimfork.rewrite.comments import comments_of


@dataclass(frozen=True)
class IfChainRegistry(KeepsKeys):
    function: str  # pkg.mod.func or pkg.mod.Class.method
    variable: str  # the name the arms compare to string literals
    keep: tuple[str, ...]
    reason: str = ""
    key: str = "registries[0]"


IfChainCut = SourceCut[IfChainRegistry]


def if_chain_registries(raw: list) -> list[IfChainRegistry]:
    out = []
    for i, reg in enumerate(raw):
        if reg.get("kind") == "if-chain":
            if not reg.get("variable"):
                raise SpecError("an if-chain registry needs the name its arms compare", key=f"registries[{i}].variable",
                                hint='for example variable = "name" (if name == "xgrammar": ...)')
            out.append(IfChainRegistry(reg["package"], reg["variable"], tuple(reg["keep"]), reg.get("reason", ""),
                                       f"registries[{i}]"))
    return out


def cut_if_chain(registry: IfChainRegistry, rel: str, data: bytes, qualname: list[str]) -> IfChainCut:
    """Delete the arms of every chain in the function ``qualname`` (["Class", "method"] or ["func"])."""
    cut = IfChainCut(registry, rel)
    module = cst.parse_module(data)
    cutter = _Cutter(qualname, registry, cut)
    new_module = module.visit(cutter)
    if not cutter.found:
        cut.failure = f"no function {'.'.join(qualname)} in {rel}"
        return cut
    if not cut.removed:
        return cut
    return cut.check(data, new_module.bytes, cutter.dropped)


class _Cutter(cst.CSTTransformer):
    def __init__(self, qualname: list[str], registry: IfChainRegistry, cut: IfChainCut):
        self.qualname, self.registry, self.cut = qualname, registry, cut
        self.scope: list[str] = []
        self.inside = 0  # > 0 inside the target function
        self.found = False
        self.elifs: set[int] = set()  # If nodes that are the elif of another
        self.dropped: Counter[str] = Counter()

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.scope.append(node.name.value)
        return True

    def leave_ClassDef(self, original, updated):
        self.scope.pop()
        return updated

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.scope.append(node.name.value)
        if self.scope == self.qualname:
            self.inside += 1
            self.found = True
        return True

    def leave_FunctionDef(self, original, updated):
        if self.scope == self.qualname:
            self.inside -= 1
        self.scope.pop()
        return updated

    def visit_If(self, node: cst.If) -> bool:
        if isinstance(node.orelse, cst.If):
            self.elifs.add(id(node.orelse))
        return True

    def leave_If(self, original: cst.If, updated: cst.If):
        if not self.inside or id(original) in self.elifs:
            return updated
        arms: list[tuple[cst.If, bool]] = []  # (arm, removed)
        node: cst.If | cst.Else | None = updated
        while isinstance(node, cst.If):
            keys = _keys(node.test, self.registry.variable)
            if keys is None:
                arms.append((node, False))
            else:
                kept = [k for k in keys if self.registry.keeps(k)]
                self.cut.kept += kept
                if not kept:
                    self.cut.removed += keys
                arms.append((node, not kept))
            node = node.orelse
        if not any(removed for _, removed in arms):
            return updated
        for arm, removed in arms:
            if removed:
                self.dropped.update(comments_of(arm.test))
                self.dropped.update(comments_of(arm.body))
        return _rebuild([arm for arm, removed in arms if not removed], node, updated)


def _rebuild(arms: list[cst.If], orelse: cst.Else | None, first: cst.If):
    """The chain of the kept ``arms`` ending in ``orelse``; the first statement keeps ``first``'s leading lines."""
    tail: cst.If | cst.Else | None = orelse
    for arm in reversed(arms):
        tail = arm.with_changes(orelse=tail)
    if isinstance(tail, cst.If):
        return tail.with_changes(leading_lines=first.leading_lines)
    if isinstance(tail, cst.Else):  # only the else is left: its body takes the chain's place
        body = list(tail.body.body)
        if body and isinstance(body[0], (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            body[0] = body[0].with_changes(leading_lines=[*first.leading_lines, *body[0].leading_lines])
        return cst.FlattenSentinel(body)
    return cst.RemoveFromParent()


def _keys(test: cst.BaseExpression, variable: str) -> list[str] | None:
    """The keys an arm's test selects, or None when the test has another shape."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
        left, right = _keys(test.left, variable), _keys(test.right, variable)
        return None if left is None or right is None else left + right
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    op, other = test.comparisons[0].operator, test.comparisons[0].comparator
    first = test.left
    if isinstance(op, cst.Equal):
        if _code(first) == variable and (key := _key(other)) is not None:
            return [key]
        if _code(other) == variable and (key := _key(first)) is not None:
            return [key]
        return None
    if isinstance(op, cst.In) and _code(first) == variable and isinstance(other, (cst.Tuple, cst.List, cst.Set)):
        keys = [k for e in other.elements if (k := _key(e.value)) is not None]
        return keys if keys and len(keys) == len(other.elements) else None
    return None


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node).strip()


def _key(node: cst.BaseExpression) -> str | None:
    """A string literal's value, or the text of a dotted constant (``TransferBackend.MORI``: an enum member)."""
    if isinstance(node, cst.Attribute) and _dotted(node):
        return _code(node)
    return _string(node)


def _dotted(node: cst.BaseExpression) -> bool:
    while isinstance(node, cst.Attribute):
        node = node.value
    return isinstance(node, cst.Name)


def _string(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString) and "f" not in node.prefix.lower() and "b" not in node.prefix.lower():
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def cut_if_chain_registries(analysis, scratch: Path) -> list[IfChainCut]:
    registries = if_chain_registries(analysis.spec.raw.get("registries", []))
    mm = analysis.graph.mm
    cuts = []
    for registry in registries:
        owner = mm.longest_module(registry.function) or ""
        info = mm.modules.get(owner)
        rest = registry.function[len(owner) + 1:].split(".") if owner else []
        if info is None or info.path is None or not rest or not rest[0]:
            raise SpecError(f"no module of the source defines '{registry.function}'", key=f"{registry.key}.package",
                            hint=did_you_mean(registry.function.rpartition(".")[0],
                                              [m for m in mm.modules if mm.is_internal(m)],
                                              "name the function as pkg.mod.func or pkg.mod.Class.method"))
        path = scratch / info.path
        cut = cut_if_chain(registry, info.path, path.read_bytes(), rest)
        if cut.failure and cut.failure.startswith("no function"):
            raise SpecError(cut.failure, key=f"{registry.key}.package",
                            hint="name the function as pkg.mod.func or pkg.mod.Class.method")
        if cut.new_source is not None:
            path.write_bytes(cut.new_source)
        cuts.append(cut)
    return cuts


def if_chain_report(cuts: list[IfChainCut]) -> str:
    lines = []
    for cut in cuts:
        reg = cut.registry
        what = cut_outcome(cut.failure, list(dict.fromkeys(cut.kept)), [f"`{k}`" for k in cut.removed],
                           "removed the arms of")
        lines.append(f"- `{reg.function}` ({cut.path}), arms on `{reg.variable}`: {what}"
                     + (f" ({reg.reason})" if reg.reason else ""))
    return "\n".join(lines) + "\n"


def if_chain_data(cuts: list[IfChainCut]) -> list[dict]:
    return [{"function": c.registry.function, "variable": c.registry.variable, "path": c.path,
             "kept": list(dict.fromkeys(c.kept)), "removed": c.removed, "failure": c.failure} for c in cuts]
