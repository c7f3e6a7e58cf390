"""Cut a dict (or list) registry: keep the entries whose keys the spec lists, remove the others (LibCST).

The registry is a module-level assignment ``NAME = {...}``, a class attribute ``Class.NAME = {...}`` (sglang's
``ReasoningParser.DetectorMap``), or a function that builds the one dict literal with string keys in its body
(``def _create_backend_registry(): return Registry({"llm": ..., "diffusion": ...})``); its keys must be string
literals (a dict) or its items strings (a list of names). A comprehension over a literal list of names,
``{cls.model_type: cls for cls in [AfmoeConfig, DbrxConfig]}`` (sglang's ``_CONFIG_REGISTRY``), is cut in that
list, keyed by the names as written, and so is a list of classes (``EntryClass = [DeepseekV2ForCausalLM,
DeepseekV32ForCausalLM]``). Entries whose key is not a literal (``**other``,
computed keys) stay: unknown means keep. What only the removed entries referenced becomes unused, and symbol
pruning takes it away; a removed key then fails exactly as a key the registry never had.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

import libcst as cst

from slimfork.rewrite.comments import comments_of
from slimfork.rewrite.safety import check_rewrite


@dataclass
class RegistryCut:
    variable: str  # "ReasoningParser.DetectorMap"
    found: bool = False
    kept: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    freed: set[str] = field(default_factory=set)  # identifiers the removed entries' code names
    unknown: int = 0  # entries kept because their key is not a literal
    new: bytes | None = None
    failure: str | None = None
    line: int = 0


def cut_registry(data: bytes, variable: str, keeps: Callable[[str], bool], path: str = "<file>",
                 may_empty: bool = False) -> RegistryCut:
    """Cut ``variable`` (``NAME`` or ``Class.NAME``) in the module ``data``; ``may_empty``: the spec keeps
    nothing on purpose (``keep = []``)."""
    result = RegistryCut(variable)
    try:
        module = cst.parse_module(data)
    except cst.ParserSyntaxError as exc:
        result.failure = f"{path} does not parse: {exc}"
        return result
    cutter = _Cutter(variable.split("."), keeps, result, may_empty)
    new_module = module.visit(cutter)
    if not result.found or not result.removed:
        return result
    new = new_module.bytes
    problems = check_rewrite(data, new, cutter.dropped, path)
    if problems:
        result.failure = "; ".join(problems)
        return result
    result.new = new
    return result


class _Cutter(cst.CSTTransformer):
    def __init__(self, parts: list[str], keeps: Callable[[str], bool], result: RegistryCut, may_empty: bool):
        self.parts, self.keeps, self.result, self.may_empty = parts, keeps, result, may_empty
        self.names = False  # keys are the names of a comprehension's literal list
        self.scope: list[str] = []
        self.depth = 0  # inside a function: not a registry definition
        self.dropped: Counter[str] = Counter()
        self.target_dict: cst.Dict | None = None  # the dict a named function builds

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.scope.append(node.name.value)
        return True

    def leave_ClassDef(self, original, updated):
        self.scope.pop()
        return updated

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if self.scope + [node.name.value] != self.parts:
            return False
        # A function that builds its registry: the one dict literal with string keys in its body.
        found = _StringKeyedDicts()
        node.body.visit(found)
        if len(found.dicts) != 1:
            self.result.failure = (f"{'.'.join(self.parts)} builds {len(found.dicts)} dict literals with string "
                                   "keys; name a function that builds exactly one")
            return False
        self.target_dict = found.dicts[0]
        return True

    def leave_Dict(self, original: cst.Dict, updated: cst.Dict):
        if original is self.target_dict:
            return self._cut(updated)
        return updated

    def _target(self, targets) -> bool:
        return any(isinstance(t, cst.Name) and self.scope + [t.value] == self.parts for t in targets)

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign):
        if self._target([t.target for t in original.targets]):
            return updated.with_changes(value=self._cut(updated.value))
        return updated

    def leave_AnnAssign(self, original: cst.AnnAssign, updated: cst.AnnAssign):
        if updated.value is not None and self._target([original.target]):
            return updated.with_changes(value=self._cut(updated.value))
        return updated

    def _cut(self, value: cst.BaseExpression) -> cst.BaseExpression:
        if isinstance(value, (cst.DictComp, cst.ListComp, cst.SetComp)) and value.for_in.inner_for_in is None \
                and isinstance(value.for_in.iter, (cst.List, cst.Tuple, cst.Set)):
            self.names = True
            return value.with_changes(for_in=value.for_in.with_changes(iter=self._cut(value.for_in.iter)))
        if not isinstance(value, (cst.Dict, cst.List, cst.Tuple, cst.Set)):
            self.result.failure = f"{'.'.join(self.parts)} is not a dict or list literal"
            return value
        if not isinstance(value, cst.Dict) and value.elements and all(
                isinstance(e, cst.Element) and isinstance(e.value, (cst.Name, cst.Attribute)) for e in value.elements):
            self.names = True  # a list of classes (``EntryClass = [A, B]``): keyed by the names as written
        self.result.found = True
        kept = []
        for element in value.elements:
            key = _key(element, self.names)
            if key is None:
                self.result.unknown += 1
                kept.append(element)
            elif self.keeps(key):
                self.result.kept.append(key)
                kept.append(element)
            else:
                self.result.removed.append(key)
                self.result.freed.update(_identifiers(element))
                self.dropped.update(comments_of(element))
        if not self.result.removed:
            return value
        if not self.result.kept and not self.result.unknown:
            if self.may_empty and isinstance(value, (cst.List, cst.Tuple, cst.Set)) and self.names:
                return cst.List([])  # keep = []: the comprehension runs over nothing
            return value  # the caller reports that keep matches nothing; never empty a registry
        last = value.elements[-1]
        if kept[-1] is not last:  # the closing bracket keeps its place; the last kept entry takes the last comma
            return self._close(value, kept, last)
        return value.with_changes(elements=kept)

    def _close(self, value, kept, last):
        own = kept[-1].comma
        comma = last.comma
        if comma is cst.MaybeSentinel.DEFAULT and isinstance(value, cst.Tuple) and len(kept) == 1:
            comma = cst.Comma()
        closing = _closing(value)
        if isinstance(own, cst.Comma) and isinstance(own.whitespace_after, cst.ParenthesizedWhitespace) \
                and closing is not None and isinstance(closing.whitespace_before, cst.ParenthesizedWhitespace):
            # the kept entry's end-of-line comment stays on its line; the removed last entry's goes with it
            self.dropped.update(comments_of(closing.whitespace_before.first_line))
            before = closing.whitespace_before.with_changes(first_line=own.whitespace_after.first_line)
            if isinstance(comma, cst.Comma):
                comma = comma.with_changes(whitespace_before=own.whitespace_before,
                                           whitespace_after=cst.SimpleWhitespace(""))
            kept[-1] = kept[-1].with_changes(comma=comma)
            return _with_closing(value.with_changes(elements=kept), closing.with_changes(whitespace_before=before))
        kept[-1] = kept[-1].with_changes(comma=comma)
        return value.with_changes(elements=kept)


class _StringKeyedDicts(cst.CSTVisitor):
    def __init__(self):
        self.dicts: list[cst.Dict] = []

    def visit_Dict(self, node: cst.Dict) -> None:
        if node.elements and all(_key(e) is not None for e in node.elements):
            self.dicts.append(node)


def _identifiers(node: cst.CSTNode) -> set[str]:
    found = _Identifiers()
    node.visit(found)
    return found.names


class _Identifiers(cst.CSTVisitor):
    def __init__(self):
        self.names: set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)  # ``mod.Class``: the module-level name is ``mod``, not ``Class``
        return False


def _closing(value):
    if isinstance(value, (cst.Dict, cst.Set)):
        return value.rbrace
    if isinstance(value, cst.List):
        return value.rbracket
    return value.rpar[-1] if isinstance(value, cst.Tuple) and value.rpar else None


def _with_closing(value, closing):
    if isinstance(value, (cst.Dict, cst.Set)):
        return value.with_changes(rbrace=closing)
    if isinstance(value, cst.List):
        return value.with_changes(rbracket=closing)
    return value.with_changes(rpar=[*value.rpar[:-1], closing])


def _key(element, names: bool = False) -> str | None:
    node = element.key if isinstance(element, cst.DictElement) else \
        element.value if isinstance(element, cst.Element) else None
    if names and isinstance(node, (cst.Name, cst.Attribute)):
        return cst.Module([]).code_for_node(node)
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None
