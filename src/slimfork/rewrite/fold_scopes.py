"""The folding codemod's scopes: functions, classes and lambdas entered and left, the names they bind, and the
names that are not plain loads (stores, imports, globals), which no fact replaces."""

from __future__ import annotations

import re

import libcst as cst

from slimfork.facts.evaluate import dotted_name
from slimfork.rewrite.class_lists import class_list_names
from slimfork.rewrite.fold_nodes import Fold, _code
from slimfork.rewrite.fold_state import FoldState

_LIST_BINDING = re.compile(r"=(?:[\s(\\]|#[^\n]*)*\[")


class ScopeTracking(FoldState):
    """``FoldTransformer``'s scope stack and the names no fact may replace (a mixin: its state is declared in
    ``FoldState``)."""

    # -- scopes and non-load names -------------------------------------------------------------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.skip.add(id(node.name))
        found = self.info.get(id(node))
        self._push_scope("function", found.local_names if found else frozenset({"*"}),
                         found.aliases if found else ())
        if found is not None and self.table.parameters:
            self._constant_parameters(node.name.value, found)
        if found is not None and self.table.declared_parameters and self.function_depth == 0:
            self._declared_parameters(node, found)
        self.function_depth += 1
        self.class_lists.append(class_list_names(node) if self.table.no_instances and self._binds_a_list(found)
                                else frozenset())

    def _binds_a_list(self, found) -> bool:
        """Could the function's text bind a name to a list literal (``x = [``, ``x = (  # ...\\n [``)? Without
        one it has no class list, and its body need not be visited to find them."""
        if found is None or self.source_lines is None:
            return True
        return _LIST_BINDING.search("".join(self.source_lines[found.line - 1:found.end])) is not None

    def leave_FunctionDef(self, original_node, updated_node):
        self._pop_scope()
        self.function_depth -= 1
        self.class_lists.pop()
        return updated_node

    def _absent(self, node: cst.BaseExpression, line: int | None = None) -> bool:
        """``node`` (on ``line``) names a class no object of which exists (``[facts] never_instances``)."""
        line = line or self.line
        dotted = dotted_name(node)
        self.evaluator.scope.line = line
        qualname = self.evaluator.scope.resolve(dotted) if dotted else None
        if qualname not in self.table.no_instances:
            return False
        self.matches.extend((key, line) for key in self.table.origins.get("i:" + qualname, ()))
        return True

    def _own_class_lists(self) -> frozenset[str]:
        return self.class_lists[-1] if self.class_lists and self.scopes and self.scopes[-1][0] == "function" \
            else frozenset()

    def _narrow_class_list(self, updated_node):
        """``supported = [A, C]`` (read only by ``isinstance``) where no C exists: ``supported = [A]``."""
        target = updated_node.targets[0].target if len(updated_node.targets) == 1 else None
        value = updated_node.value
        if not (isinstance(target, cst.Name) and target.value in self._own_class_lists()
                and isinstance(value, cst.List)):
            return updated_node
        gone = [e for e in value.elements if isinstance(e, cst.Element) and self._absent(e.value)]
        if not gone:
            return updated_node
        kept = [e for e in value.elements if e not in gone]
        if kept and kept[-1] is not value.elements[-1]:
            kept[-1] = kept[-1].with_changes(comma=value.elements[-1].comma)
        names = ", ".join(_code(e.value) for e in gone)
        self.folds.append(Fold(self.line, "isinstance", f"{names} left {target.value} (read only by isinstance)"))
        return self._replace(updated_node, updated_node.with_changes(value=value.with_changes(elements=kept)))

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.skip.add(id(node.name))
        found = self.info.get(id(node))
        self._push_scope("class", found.local_names if found else frozenset({"*"}))
        self.class_names.append(node.name.value)

    def leave_ClassDef(self, original_node, updated_node):
        self._pop_scope()
        self.class_names.pop()
        return updated_node

    def visit_Lambda(self, node: cst.Lambda) -> None:
        params = node.params
        names = {p.name.value for p in [*params.posonly_params, *params.params, *params.kwonly_params]}
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                names.add(star.name.value)
        self._push_scope("function", frozenset(names))

    def leave_Lambda(self, original_node, updated_node):
        self._pop_scope()
        return updated_node

    def visit_Param(self, node: cst.Param) -> None:
        self.skip.add(id(node.name))

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self.skip.add(id(node.keyword))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.skip.add(id(node.attr))
        self.skip.add(id(node.value))  # `flag.x` keeps `flag`: the attribute is evaluated as a whole

    def visit_Call(self, node: cst.Call) -> None:
        self.skip.add(id(node.func))

    def visit_Import(self, node) -> bool:
        return False

    def visit_ImportFrom(self, node) -> bool:
        return False

    def visit_Global(self, node) -> bool:
        return False

    def visit_Nonlocal(self, node) -> bool:
        return False

    def _store(self, node: cst.CSTNode | None) -> None:
        if node is None:
            return
        stack = [node]
        while stack:
            current = stack.pop()
            self.skip.add(id(current))
            stack.extend(current.children)

    def visit_AssignTarget(self, node) -> None:
        self._store(node.target)

    def visit_AnnAssign(self, node) -> None:
        self._store(node.target)

    def visit_AugAssign(self, node) -> None:
        self._store(node.target)

    def visit_For(self, node) -> None:
        self._store(node.target)

    def visit_CompFor(self, node) -> None:
        self._store(node.target)

    def visit_AsName(self, node) -> None:
        self._store(node.name)

    def visit_NamedExpr(self, node) -> None:
        self._store(node.target)

    def visit_Del(self, node) -> None:
        self._store(node.target)

    def visit_MatchCase(self, node) -> None:
        self._store(node.pattern)
