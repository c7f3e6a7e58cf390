"""The folding codemod's expressions: truth contexts, leaves that match a fact become literals, and the
operators over literals (``not``, ``and``/``or``, comparisons, ternaries) fold."""

from __future__ import annotations

import libcst as cst

from slimfork.facts.literals import dotted_name, is_literal, is_pure, literal_value, to_literal
from slimfork.facts.model import UNKNOWN
from slimfork.rewrite.comments import comments_of
from slimfork.rewrite.fold_nodes import Fold, _bool_of_literal, _code, _known_walrus
from slimfork.rewrite.fold_state import FoldState


class ExpressionFolding(FoldState):
    """``FoldTransformer``'s expression folds (a mixin: its state is declared in ``FoldState``)."""

    # -- truth contexts ------------------------------------------------------------------------------------
    def visit_If(self, node: cst.If) -> None:
        self.truth_context.add(id(node.test))

    def visit_While(self, node: cst.While) -> None:
        self.truth_context.add(id(node.test))

    def visit_Assert(self, node: cst.Assert) -> None:
        self.truth_context.add(id(node.test))

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self.truth_context.add(id(node.test))

    def visit_CompIf(self, node: cst.CompIf) -> None:
        self.truth_context.add(id(node.test))

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if isinstance(node.operator, cst.Not):
            self.truth_context.add(id(node.expression))

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        if id(node) in self.truth_context:
            self.truth_context.add(id(node.left))
            self.truth_context.add(id(node.right))

    # -- leaves --------------------------------------------------------------------------------------------
    def visit_FormattedString(self, node: cst.FormattedString) -> None:
        self.fstring_quotes.append(node.start.lstrip("rRfFbBuU"))

    def leave_FormattedString(self, original_node, updated_node):
        self.fstring_quotes.pop()
        return updated_node

    def _literal(self, value, old: cst.CSTNode) -> cst.BaseExpression | None:
        """``to_literal(value)``; inside f-strings a string takes a quote none of them uses (before Python 3.12 an
        f-string's expression cannot reuse its quote or hold a backslash), or None with the reason reported."""
        literal = to_literal(value)
        if not (isinstance(value, str) and self.fstring_quotes and literal is not None):
            return literal
        used = {quote[0] for quote in self.fstring_quotes}
        free = [q for q in ("'", '"') if q not in used and q not in value]
        if not free or any(c in value for c in "\\\n\r"):
            self.blocked.append((self.line, f"{_code(old)} is {value!r}, but no quote is left for it inside the "
                                            "f-string (Python 3.11 forbids reusing the f-string's quote): kept"))
            return None
        return cst.SimpleString(f"{free[0]}{value}{free[0]}")

    def _leaf(self, original, updated):
        if id(original) in self.skip or is_literal(updated):
            return updated
        value, used = self._evaluate(updated)
        if value is UNKNOWN or not (used or _bool_of_literal(updated)):  # bool(False) once a fact folded inside
            return updated
        literal = self._literal(value, updated)
        if literal is None:
            return updated
        for key in sorted(used):
            self.matches.append((key, self.line))
        self.substitutions += 1
        return self._replace(updated, self._wrap(literal, updated))

    def leave_Name(self, original_node, updated_node):
        if updated_node.value in ("True", "False", "None"):
            return updated_node
        return self._leaf(original_node, updated_node)

    def leave_Attribute(self, original_node, updated_node):
        return self._leaf(original_node, updated_node)

    def leave_Call(self, original_node, updated_node):
        new = self._leaf(original_node, updated_node)
        if new is updated_node and self.table.no_instances and dotted_name(updated_node.func) == "isinstance":
            return self._narrow_isinstance(updated_node)
        return new

    def _narrow_isinstance(self, node: cst.Call) -> cst.Call:
        """``isinstance(x, (A, C))`` where no C exists: ``isinstance(x, A)``."""
        self.evaluator.scope.line = self.line
        self.evaluator.used = set()
        gone = self.evaluator.absent_classes(node)
        if not gone:
            return node
        given = node.args[1].value
        if not isinstance(given, cst.Tuple):  # one class, its call not folded as a leaf (`isinstance(x, C).real`)
            return node
        elements = given.elements
        kept = [e for i, e in enumerate(elements) if i not in gone]
        if len(kept) == 1:
            classes = kept[0].value
        else:
            kept[-1] = kept[-1].with_changes(comma=elements[-1].comma)
            classes = given.with_changes(elements=kept)
        for key in sorted(self.evaluator.used):
            self.matches.append((key, self.line))
        names = ", ".join(_code(elements[i].value) for i in gone)
        self.folds.append(Fold(self.line, "isinstance", f"{names} left the classes of {_code(node)}"))
        args = [node.args[0], node.args[1].with_changes(value=classes)]
        return self._replace(node, node.with_changes(args=args))

    def leave_Subscript(self, original_node, updated_node):
        return self._leaf(original_node, updated_node)

    def leave_Comparison(self, original_node, updated_node):
        bound = _known_walrus(updated_node.left, self.pinned)
        if bound is not None:  # `(c := None) is not None`: c is read only where the comparison's truth leads
            test = updated_node.with_changes(left=bound)
            value, used = self._evaluate(test) if is_pure(test) else (UNKNOWN, set())
            if value is not UNKNOWN:
                return self._fold_comparison(updated_node, value, used)
        if not is_pure(updated_node):
            return self._leaf(original_node, updated_node)
        value, used = self._evaluate(updated_node)
        return self._fold_comparison(updated_node, value, used)

    def _fold_comparison(self, updated_node, value, used):
        literal = None if value is UNKNOWN else self._literal(value, updated_node)
        if literal is None:
            return updated_node
        for key in sorted(used):
            self.matches.append((key, self.line))
        self.folds.append(Fold(self.line, "comparison", f"{_code(updated_node)} -> {value!r}"))
        return self._replace(updated_node, self._wrap(literal, updated_node))

    # -- operators -----------------------------------------------------------------------------------------
    def _declared(self, original_node, updated_node):
        """``[facts.expressions]`` on an operator (a leaf or a comparison is evaluated as any other fact)."""
        if not self.table.expressions:
            return None
        self.evaluator.used = set()
        value = self.evaluator.declared(original_node)
        literal = None if value is UNKNOWN else self._literal(value, updated_node)
        if literal is None:
            return None
        self.matches.extend((key, self.line) for key in sorted(self.evaluator.used))
        self.folds.append(Fold(self.line, "expression", f"{_code(original_node)} -> {value!r}"))
        return self._replace(updated_node, self._wrap(literal, updated_node))

    def leave_UnaryOperation(self, original_node, updated_node):
        declared = self._declared(original_node, updated_node)
        if declared is not None:
            return declared
        if not isinstance(updated_node.operator, cst.Not):
            return updated_node
        inner = literal_value(updated_node.expression)
        if inner is UNKNOWN:
            return updated_node
        self.folds.append(Fold(self.line, "not", f"{_code(updated_node)} -> {not inner}"))
        return self._replace(updated_node, self._wrap(cst.Name(repr(not inner)), updated_node))

    def leave_BooleanOperation(self, original_node, updated_node):
        declared = self._declared(original_node, updated_node)
        if declared is not None:
            return declared
        left, right = updated_node.left, updated_node.right
        is_and = isinstance(updated_node.operator, cst.And)
        lv, rv = literal_value(left), literal_value(right)
        result = None
        if lv is not UNKNOWN:  # the left operand decides whether the right one runs
            result = left if bool(lv) != is_and else right
        elif rv is not UNKNOWN and id(original_node) in self.truth_context:
            if bool(rv) == is_and:  # `x and True` / `x or False` has the truth of x
                result = left
            elif self.evaluator.reads_only(left):  # `x and False` is false, `x or True` is true
                result = right
            else:
                self.blocked.append((self.line, f"'{_code(updated_node)}' is always {bool(rv)}, but its left "
                                                f"operand has a side effect that must still run: kept"))
        if result is None:
            return updated_node
        self.folds.append(Fold(self.line, "and/or", f"{_code(updated_node)} -> {_code(result)}"))
        return self._replace(updated_node, self._wrap(result, updated_node))

    def leave_IfExp(self, original_node, updated_node):
        test = literal_value(updated_node.test)
        if test is UNKNOWN:
            return updated_node
        result = updated_node.body if test else updated_node.orelse
        self.folds.append(Fold(self.line, "ternary", f"{_code(updated_node.test)} -> {bool(test)}"))
        return self._replace(updated_node, self._wrap(result, updated_node))

    def leave_CompIf(self, original_node, updated_node):
        test = literal_value(updated_node.test)
        if test is UNKNOWN or not test:
            return updated_node
        self.folds.append(Fold(self.line, "filter", f"if {_code(updated_node.test)} -> removed"))
        self.dropped.update(comments_of(updated_node))
        return cst.RemoveFromParent()
