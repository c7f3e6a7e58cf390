"""LibCST node helpers of the folding codemod (``rewrite/fold.py``): the record of one fold, what a statement
binds or terminates, comments attached to a line, parentheses kept, known tests and walruses."""

from __future__ import annotations

import ast
from dataclasses import dataclass

import libcst as cst

from slimfork.facts.literals import is_literal, literal_value
from slimfork.facts.model import UNKNOWN
from slimfork.rewrite.constant_args import body_bindings

_TERMINATORS = (cst.Return, cst.Raise, cst.Continue, cst.Break)


def rebound_names(node: cst.FunctionDef) -> frozenset[str]:
    """Names the body of the LibCST function ``node`` binds (``body_bindings`` of its ``ast`` twin)."""
    tree = ast.parse("if 1:\n" + "".join("    " + line for line in
                                           cst.Module(body=[node]).code.splitlines(keepends=True)))
    wrapper = tree.body[0]
    assert isinstance(wrapper, ast.If) and isinstance(wrapper.body[0], (ast.FunctionDef, ast.AsyncFunctionDef))
    return body_bindings(wrapper.body[0])  # the function, in the `if 1:` that lets it keep its indentation


@dataclass(frozen=True, slots=True)
class Fold:
    line: int
    kind: str  # "if", "elif", "else", "while", "assert", "ternary", "and/or", "not", "filter", "dead code"
    detail: str



class _Bound(cst.CSTVisitor):
    def __init__(self):
        self.names: set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        pass

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        if node.asname is not None and isinstance(node.asname.name, cst.Name):
            self.names.add(node.asname.name.value)
        else:
            self.names.add(_EMPTY.code_for_node(node.name).split(".")[0])

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._targets(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._targets(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._targets(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._targets(node.name)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.names.add(node.name.value)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.names.add(node.name.value)
        return False

    def _targets(self, node) -> None:
        if isinstance(node, cst.Name):
            self.names.add(node.value)
        elif isinstance(node, (cst.Tuple, cst.List)):
            for element in node.elements:
                self._targets(element.value)
        elif isinstance(node, cst.StarredElement):
            self._targets(node.value)


def _binds(node) -> set[str]:
    visitor = _Bound()
    node.visit(visitor)
    return visitor.names


def _same_code(a, b) -> bool:
    return _EMPTY.code_for_node(a) == _EMPTY.code_for_node(b)


def _join_lines(first, second) -> list[cst.EmptyLine]:
    """Concatenate two runs of EmptyLines; blank lines where they meet do not add up (the longer gap wins)."""
    first, second = list(first), list(second)
    trailing = 0
    while trailing < len(first) and first[-1 - trailing].comment is None:
        trailing += 1
    leading = 0
    while leading < len(second) and second[leading].comment is None:
        leading += 1
    return first + second[min(trailing, leading):]


def _with_parens(new: cst.BaseExpression, old: cst.BaseExpression) -> cst.BaseExpression:
    """Give ``new`` the parentheses of the expression it replaces (``if(x):`` needs them); a one-line literal
    gets plain ``( )`` without the inner line breaks."""
    if not getattr(old, "lpar", None) or getattr(new, "lpar", None):
        return new
    try:
        if is_literal(new) and "\n" not in _code(new):
            return new.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        return new.with_changes(lpar=old.lpar, rpar=old.rpar)
    except (TypeError, ValueError):
        return new


def _passing_assert(small) -> bool:
    if not isinstance(small, cst.Assert):
        return False
    test = literal_value(small.test)
    return test is not UNKNOWN and bool(test)


def _fix_semicolons(body):
    body = list(body)
    if body:
        body[-1] = body[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
    return body


def _is_pass(stmt) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and all(isinstance(s, cst.Pass) for s in stmt.body)


_BARE_TESTS = (cst.Comparison, cst.BooleanOperation, cst.UnaryOperation, cst.BinaryOperation, cst.Name, cst.Attribute,
               cst.Call, cst.Subscript, cst.SimpleString, cst.Integer, cst.NamedExpr, cst.Await)
_PRAGMAS = ("noqa", "type:", "pragma", "pylint", "fmt:", "nosec", "mypy", "pyright", "isort", "ruff")


def _attached_comments(lines) -> tuple[list[cst.EmptyLine], list[cst.EmptyLine]]:
    """Split a statement's leading lines into (those that stay, the comment block right above it with no blank
    line between: it speaks of the statement and leaves with it)."""
    lines = list(lines)
    cut = len(lines)
    while cut and lines[cut - 1].comment is not None and not _is_pragma(lines[cut - 1].comment.value):
        cut -= 1
    return lines[:cut], lines[cut:]


def _is_pragma(comment: str) -> bool:
    text = comment.lstrip("#").strip().lower()
    return text.startswith(_PRAGMAS) or "noqa" in text


def _removable(dead) -> bool:
    """Statements after an unconditional jump can go unless they still matter without running: a ``yield``
    makes the function a generator, ``global``/``nonlocal`` scope its names."""
    for stmt in dead:
        finder = _Matters()
        stmt.visit(finder)
        if finder.found:
            return False
    return True


class _Matters(cst.CSTVisitor):
    def __init__(self):
        self.found = False

    def visit_Yield(self, node) -> bool:
        self.found = True
        return False

    visit_Global = visit_Nonlocal = visit_Yield

    def visit_FunctionDef(self, node) -> bool:  # its own yields are its own
        return False

    def visit_ClassDef(self, node) -> bool:
        return True


def _terminates(stmt) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and bool(stmt.body) and isinstance(stmt.body[-1], _TERMINATORS)


_EMPTY = cst.Module([])


def _code(node) -> str:
    text = " ".join(_EMPTY.code_for_node(node).split())
    return text if len(text) <= 80 else text[:77] + "..."


def _bool_of_literal(node: cst.CSTNode) -> bool:
    return (isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "bool"
            and len(node.args) == 1 and is_literal(node.args[0].value))


def _effect_of_known_test(test: cst.BaseExpression) -> tuple[cst.BaseExpression | None, bool]:
    """``(A, False)`` for a test written ``A and False``, ``(A, True)`` for ``A or True`` (what a fold leaves when
    ``A`` has a side effect; ``A or True or True`` gives ``A``), else ``(None, False)``."""
    found = None
    while isinstance(test, cst.BooleanOperation) and literal_value(test) is UNKNOWN:
        value = isinstance(test.operator, cst.Or)
        if literal_value(test.right) is not value or (found is not None and found[1] != value):
            break
        found, test = (test.left, value), test.left
    if found is None or literal_value(found[0]) is not UNKNOWN:
        return None, False
    return found


def _known_walrus(node: cst.BaseExpression, pinned: frozenset[str]) -> cst.BaseExpression | None:
    """The literal a walrus binds (``(c := None)``), when no code after the statement reads its name."""
    if isinstance(node, cst.NamedExpr) and isinstance(node.target, cst.Name) and node.target.value not in pinned \
            and literal_value(node.value) is not UNKNOWN:
        return node.value.with_changes(lpar=[], rpar=[])
    return None


def _walrus_value(test: cst.BaseExpression, pinned: frozenset[str]):
    """The literal value of an ``if`` test; ``if cfg := None:`` (a known value bound by a walrus) has its value
    when no code after the statement reads the name it binds."""
    if isinstance(test, cst.NamedExpr) and isinstance(test.target, cst.Name) and test.target.value not in pinned:
        return literal_value(test.value)
    return literal_value(test)

