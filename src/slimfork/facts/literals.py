"""Literal expressions in LibCST: a literal's value, a value's literal node, dotted names, and which expressions
can be evaluated without side effects (what the evaluator and the fold may drop or fold)."""

from __future__ import annotations

from typing import Any

import libcst as cst

from slimfork.facts.model import UNKNOWN


def dotted_name(node: cst.CSTNode) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted_name(node.value)
        return f"{base}.{node.attr.value}" if base else None
    return None


def literal_value(node: cst.BaseExpression) -> Any:
    """The value of a literal node (True/False/None, numbers, plain strings, tuples of those), else UNKNOWN."""
    if isinstance(node, cst.Name):
        return {"True": True, "False": False, "None": None}.get(node.value, UNKNOWN)
    if isinstance(node, (cst.Integer, cst.Float)):
        return node.evaluated_value
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        try:
            value = node.evaluated_value
        except Exception:
            return UNKNOWN
        return value if isinstance(value, str) else UNKNOWN  # bytes are not a fact's value
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = literal_value(node.expression)
        return -inner if isinstance(inner, (int, float)) and not isinstance(inner, bool) else UNKNOWN
    return UNKNOWN


def is_literal(node: cst.BaseExpression) -> bool:
    return literal_value(node) is not UNKNOWN


def is_pure(node: cst.BaseExpression) -> bool:
    """True when evaluating ``node`` cannot have a side effect worth keeping (names, attributes, literals and
    operators over them, ``isinstance``-style builtins). Other calls, subscripts, walrus and f-strings are not
    pure."""
    if isinstance(node, (cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.Ellipsis)):
        return True
    if isinstance(node, cst.ConcatenatedString):
        return is_pure(node.left) and is_pure(node.right)
    if isinstance(node, cst.Attribute):
        return is_pure(node.value)
    if isinstance(node, cst.UnaryOperation):
        return is_pure(node.expression)
    if isinstance(node, cst.BooleanOperation):
        return is_pure(node.left) and is_pure(node.right)
    if isinstance(node, cst.Comparison):
        return is_pure(node.left) and all(is_pure(c.comparator) for c in node.comparisons)
    if isinstance(node, cst.IfExp):
        return is_pure(node.test) and is_pure(node.body) and is_pure(node.orelse)
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        return all(isinstance(e, cst.Element) and is_pure(e.value) for e in node.elements)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in PURE_BUILTINS:
        return all(arg.keyword is None and not arg.star and is_pure(arg.value) for arg in node.args)
    if isinstance(node, cst.Subscript) and isinstance(node.value, (cst.SimpleString, cst.ConcatenatedString)):
        return len(node.slice) == 1 and _literal_index(node.slice[0].slice)  # 'linux'[:5]: a fact folded in
    return False


def _literal_index(index) -> bool:
    parts = [index.value] if isinstance(index, cst.Index) else [index.lower, index.upper, index.step]
    return all(p is None or isinstance(literal_value(p), int) for p in parts)


def inspected(node: cst.BaseExpression) -> bool:
    """What ``isinstance`` may be asked about without evaluating it: a pure expression, or an item of one at a
    constant index (``layers[0]``: code that asks a sequence's item its type indexes it anyway)."""
    if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        index = node.slice[0].slice.value
        if isinstance(index, cst.UnaryOperation) and isinstance(index.operator, cst.Minus):
            index = index.expression
        return isinstance(index, (cst.Integer, cst.SimpleString)) and inspected(node.value)
    return is_pure(node)


# Builtins whose call only inspects its arguments (no __len__/__int__/property of user code runs).
PURE_BUILTINS = frozenset({"isinstance", "issubclass", "callable", "type", "id"})


def to_literal(value: Any) -> cst.BaseExpression | None:
    """A LibCST node spelling ``value``, or None for values without a simple literal."""
    if value is None or isinstance(value, bool):
        return cst.Name(repr(value))
    if isinstance(value, int):
        return cst.Integer(str(value)) if value >= 0 else cst.UnaryOperation(cst.Minus(), cst.Integer(str(-value)))
    if isinstance(value, float):
        text = repr(value)
        if text in ("inf", "-inf", "nan") or value < 0:
            return None
        return cst.Float(text)
    if isinstance(value, str):
        return cst.SimpleString(repr(value))
    return None
