"""The folding codemod: substitute known facts, simplify the conditions, delete the dead branches.

Bottom up: leaves that match a fact (``is_hip()``, ``_is_hip``, ``get_bool_env_var("X")``...) become literals;
``not``/``and``/``or``/ternaries/comparisons over literals fold (an operand with a side effect that would no
longer run blocks the fold, and the report says so); then every block folds its ``if``/``elif``/``else``
chains, ``while`` loops and ``assert`` statements whose test is a literal. Comments of kept code are kept
(an ``if`` line's own comment moves above the spliced body); the comments an edit drops are counted so the
safety check can prove nothing else was lost.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from dataclasses import dataclass

import libcst as cst

from slimfork.facts.bindings import ModuleScope
from slimfork.facts.evaluate import (Evaluator, FactTable, dotted_name, is_literal, is_pure, literal_value,
                                     to_literal)
from slimfork.facts.model import UNKNOWN
from slimfork.index.relative import absolute_module
from slimfork.rewrite.class_lists import appended_class, class_list_names
from slimfork.rewrite.comments import comments_of
from slimfork.rewrite.constant_args import KEY as CONSTANT_ARGUMENTS, body_bindings
from slimfork.rewrite.positions import StmtInfo

_TERMINATORS = (cst.Return, cst.Raise, cst.Continue, cst.Break)


def rebound_names(node: cst.FunctionDef) -> frozenset[str]:
    """Names the body of the LibCST function ``node`` binds (``body_bindings`` of its ``ast`` twin)."""
    tree = ast.parse("if 1:\n" + "".join("    " + line for line in
                                           cst.Module(body=[node]).code.splitlines(keepends=True)))
    return body_bindings(tree.body[0].body[0])


@dataclass(frozen=True, slots=True)
class Fold:
    line: int
    kind: str  # "if", "elif", "else", "while", "assert", "ternary", "and/or", "not", "filter", "dead code"
    detail: str


class FoldTransformer(cst.CSTTransformer):
    def __init__(self, table: FactTable, scope, info: dict[int, StmtInfo], lines: list[str] | None = None,
                 pinned: frozenset[str] = frozenset(), renamed: set[str] = frozenset()):
        super().__init__()
        self.pinned = pinned  # names still used after an arm that binds them: such arms are kept
        self.source_lines = lines  # the original text by line, to skip statements no fact can match in
        self.trigger = re.compile("|".join(sorted(map(re.escape, table.triggers)))) if table.triggers else None
        self.table = table
        self.module_scope = scope
        self.info = info
        # ("function" | "class", local names, aliases: local name -> (qualified name, line))
        self.scopes: list[tuple[str, frozenset[str], dict[str, tuple]]] = []
        self.alias_triggers: list[set[str]] = [set(renamed)]  # module imports that rename, then per function
        self.evaluator = Evaluator(table, scope)
        self.skip: set[int] = set()  # Name/Attribute nodes that are not plain loads
        self.truth_context: set[int] = set()  # expressions whose value only matters as a truth value
        self.lines: list[int] = [1]
        self.function_depth = 0
        self.class_names: list[str] = []  # the classes around the statement being visited
        self.class_lists: list[frozenset[str]] = []  # per function: lists of classes only isinstance reads
        self.folds: list[Fold] = []
        self.matches: list[tuple[str, int]] = []  # (fact key, line)
        self.blocked: list[tuple[int, str]] = []  # (line, why a known condition was not folded)
        self.dropped: Counter[str] = Counter()  # comments inside deleted code
        self.substitutions = 0
        self.edits_at: list[int] = []  # per simple statement line being visited: the edits made before it
        self.wrapped: set[int] = set()  # literals given the parentheses of what they replaced
        self.keep_alive: list[cst.CSTNode] = []  # ... kept alive, so their ids stay theirs
        self.fstring_quotes: list[str] = []  # the quote of each f-string around the expression (innermost last)

    # -- bookkeeping ---------------------------------------------------------------------------------------
    @property
    def line(self) -> int:
        return self.lines[-1]

    def on_visit(self, node: cst.CSTNode) -> bool:
        found = self.info.get(id(node))
        if found is None:
            return super().on_visit(node)
        self.lines.append(found.line)
        result = super().on_visit(node)  # always: scope pushes and pops must stay balanced
        if self.source_lines is not None and self.trigger is not None:
            text = "".join(self.source_lines[found.line - 1:found.end])
            if not self.trigger.search(text) and not any(name in text for names in self.alias_triggers
                                                                           for name in names):
                return False
        return result

    def on_leave(self, original_node, updated_node):
        result = super().on_leave(original_node, updated_node)
        if id(original_node) in self.info:
            self.lines.pop()
        return result

    def _push_scope(self, kind: str, names: frozenset[str], aliases: tuple = ()) -> None:
        own = self._resolve_aliases([a for a in aliases if a[2] != "value"])
        self.scopes.append((kind, names, own))
        # A statement that only names an alias (`npu()` after `from .plat import is_npu as npu`) must be seen.
        words = self.table.words
        self.alias_triggers.append({name for name, (target, _) in own.items()
                                    if name not in words and target.rpartition(".")[2] in words})
        self._rescope()
        constants = self._local_constants([a for a in aliases if a[2] == "value"], own)
        if constants:
            own.update(constants)
            self.alias_triggers[-1].update(constants)
            self._rescope()

    def _local_constants(self, values: list, own: dict) -> dict[str, tuple[str, tuple[int, int]]]:
        """Local names bound once to a flag the facts decide (``use_mlx = is_mlx()``; not ``debug = False``, which
        no fact decides): each stands for a synthetic name whose value the table knows, from its line to the end of
        its block."""
        out = {}
        for name, span, _, node in values:
            words = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | \
                {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
            if not words & self.table.words and not words & own.keys():
                continue
            try:
                expression = cst.parse_expression(ast.unparse(node))
            except (cst.ParserSyntaxError, ValueError, RecursionError):
                continue
            self.evaluator.scope.line = span[0]
            self.evaluator.used = set()
            value, used = self.evaluator.value(expression), self.evaluator.used
            if value is UNKNOWN or not used or not (value is None or isinstance(value, bool)):
                continue
            target = f"<local>.{self.module_scope.bindings.module}.{span[0]}.{name}"
            self.table.values[target] = value
            self.table.origins["v:" + target] = tuple(sorted(used))
            out[name] = (target, span)
        return out

    def _constant_parameters(self, name: str, found: StmtInfo) -> None:
        """Parameters every call passes one constant (``rewrite/constant_args.py``): local constants of the body."""
        module = self.module_scope.bindings.module
        params = self.table.parameters.get((module, found.end, name))
        if not params:
            return
        self._bind_parameters(name, found, {param: (value, CONSTANT_ARGUMENTS) for param, value in params.items()})

    def _declared_parameters(self, node: cst.FunctionDef, found: StmtInfo) -> None:
        """``[facts.parameters]``: a parameter every call passes one value is that constant in the body, unless the
        body binds it again (then the fact matches nothing and the report says so)."""
        module = self.module_scope.bindings.module
        declared = self.table.declared_parameters.get((module, ".".join([*self.class_names, node.name.value])))
        if not declared:
            return
        params = node.params
        names = {p.name.value for p in [*params.posonly_params, *params.params, *params.kwonly_params]}
        rebound = rebound_names(node)
        self._bind_parameters(node.name.value, found, {param: fact for param, fact in declared.items()
                                                       if param in names and param not in rebound})

    def _bind_parameters(self, name: str, found: StmtInfo, values: dict[str, tuple[object, str]]) -> None:
        """Each parameter (-> its value, the fact key) stands for a synthetic name the table knows, in the body."""
        module = self.module_scope.bindings.module
        own = self.scopes[-1][2]
        for param, (value, key) in values.items():
            target = f"<param>.{module}.{found.line}.{name}.{param}"
            self.table.values[target] = value
            self.table.origins["v:" + target] = (key,)
            own[param] = (target, (found.line, found.end))
        self.alias_triggers[-1].update(values)
        self._rescope()

    def _resolve_aliases(self, aliases: tuple) -> dict[str, tuple[str, tuple[int, int]]]:
        """What each local alias of a function stands for, resolved in the scope around the function."""
        out = {}
        for name, span, how, what in aliases:
            if how == "import":
                level, module, attr = what
                package = self.module_scope.bindings.module
                if not self.module_scope.bindings.is_package:
                    package = package.rpartition(".")[0]
                source = absolute_module(package, level, module)
                target = (f"{source}.{attr}" if attr else source) if source else None
            else:  # every word: the target need not end like a fact (`platform = platforms.current_platform`)
                around = self.evaluator.scope
                target = ModuleScope(around.resolver, around.bindings, around.shadow, None, around.aliases)
                target.line = span[0]
                target = target.resolve(what)
            if target:
                out[name] = (target, span)
        return out

    def _pop_scope(self) -> None:
        self.scopes.pop()
        self.alias_triggers.pop()
        self._rescope()

    def _rescope(self) -> None:
        """Function scopes nest; a class body's names only hide module names inside that class body."""
        shadow: set[str] = set()
        aliases: dict[str, tuple] = {}
        for i, (kind, local, own) in enumerate(self.scopes):
            if kind == "function" or i == len(self.scopes) - 1:
                shadow |= local
                aliases = {k: v for k, v in aliases.items() if k not in local} | own
        self.evaluator = Evaluator(self.table, self.module_scope.with_shadow(frozenset(shadow), aliases))

    def _evaluate(self, node: cst.BaseExpression):
        self.evaluator.scope.line = self.line
        self.evaluator.used = set()
        value = self.evaluator.value(node)
        return value, self.evaluator.used

    # -- what a reviewer would fix by hand ---------------------------------------------------------------------
    def visit_SimpleStatementLine(self, node) -> None:
        self.edits_at.append(self._edits())

    def _edits(self) -> int:
        return self.substitutions + len(self.folds)

    def leave_SimpleStatementLine(self, original_node, updated_node):
        """A line the fold reduced to a constant (``return False``, ``x = None``) loses its trailing comment,
        which spoke of the expression that is gone (``# Not 'darwin' or 'linux2'``); pragmas stay."""
        edited = self.edits_at.pop() != self._edits()
        comment = updated_node.trailing_whitespace.comment
        if not edited or comment is None or _is_pragma(comment.value) or len(updated_node.body) != 1:
            return updated_node
        small = updated_node.body[0]
        value = getattr(small, "value", None) if isinstance(small, (cst.Return, cst.Assign, cst.AnnAssign)) else None
        if value is None or not is_literal(value):
            return updated_node
        self.dropped[comment.value.strip()] += 1
        return updated_node.with_changes(trailing_whitespace=updated_node.trailing_whitespace.with_changes(
            comment=None, whitespace=cst.SimpleWhitespace("")))

    def _wrap(self, new, old):
        wrapped = _with_parens(new, old)
        if wrapped is not new and is_literal(wrapped):
            self.wrapped.add(id(wrapped))
            self.keep_alive.append(wrapped)
        return wrapped

    def _bare(self, node):
        """A literal the fold wrapped in the parentheses of what it replaced, without them."""
        if id(node) in self.wrapped and node.lpar:
            return node.with_changes(lpar=[], rpar=[])
        return node

    def leave_Return(self, original_node, updated_node):
        value = self._bare(updated_node.value) if updated_node.value is not None else None
        if value is updated_node.value:
            return updated_node
        return updated_node.with_changes(value=value, whitespace_after_return=cst.SimpleWhitespace(" "))

    def leave_Assign(self, original_node, updated_node):
        updated_node = self._narrow_class_list(updated_node)
        return updated_node.with_changes(value=self._bare(updated_node.value))

    def leave_AnnAssign(self, original_node, updated_node):
        if updated_node.value is None:
            return updated_node
        return updated_node.with_changes(value=self._bare(updated_node.value))

    def leave_Arg(self, original_node, updated_node):
        return updated_node.with_changes(value=self._bare(updated_node.value))

    def leave_If(self, original_node, updated_node):
        """A test the fold changed: ``(False)`` loses its parentheses, and ``if (`` with the rest of the condition
        on the next lines becomes one line when what is left fits (no comment inside)."""
        test = updated_node.test
        if test is original_node.test or not test.lpar or not isinstance(test, _BARE_TESTS):
            return updated_node  # a tuple, lambda, yield or generator needs its parentheses
        inner = test.with_changes(lpar=[], rpar=[])
        code = _EMPTY.code_for_node(inner)
        if "\n" in code or "#" in _EMPTY.code_for_node(test) or len(code) > 80 or len(test.lpar) != 1:
            return updated_node
        return updated_node.with_changes(test=inner, whitespace_before_test=cst.SimpleWhitespace(" "))

    def _replace(self, old: cst.CSTNode, new: cst.CSTNode):
        self.dropped.update(comments_of(old) - comments_of(new))
        return new

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
        self.class_lists.append(class_list_names(node) if self.table.no_instances else frozenset())

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
        elements = node.args[1].value.elements
        kept = [e for i, e in enumerate(elements) if i not in gone]
        if len(kept) == 1:
            classes = kept[0].value
        else:
            kept[-1] = kept[-1].with_changes(comma=elements[-1].comma)
            classes = node.args[1].value.with_changes(elements=kept)
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

    # -- blocks --------------------------------------------------------------------------------------------
    def leave_IndentedBlock(self, original_node, updated_node):
        body, carry, changed = self._fold_body(original_node.body, updated_node.body)
        if not changed:
            return updated_node
        footer = [*carry, *updated_node.footer]
        if not body:
            body = [cst.SimpleStatementLine([cst.Pass()])]
        return updated_node.with_changes(body=body, footer=footer)

    def leave_Module(self, original_node, updated_node):
        body, carry, changed = self._fold_body(original_node.body, updated_node.body)
        if not changed:
            return updated_node
        return updated_node.with_changes(body=body, footer=[*carry, *updated_node.footer])

    def leave_SimpleStatementSuite(self, original_node, updated_node):
        kept = [s for s in updated_node.body if not _passing_assert(s)]
        if len(kept) == len(updated_node.body):
            return updated_node
        self.folds.append(Fold(self.line, "assert", "always true: removed"))
        return updated_node.with_changes(body=kept or [cst.Pass()])

    def _fold_body(self, originals, stmts):
        out: list[cst.BaseStatement] = []
        carry: list[cst.EmptyLine] = []
        changed = dead = False
        if len(originals) != len(stmts):  # something above flattened statements: lines are unknown
            originals = [None] * len(stmts)
        for index, (original, stmt) in enumerate(zip(originals, stmts)):
            if dead:
                self.dropped.update(comments_of(stmt))
                continue
            found = self.info.get(id(original))
            line = found.line if found else self.line
            replaced = self._fold_statement(stmt, original, line)
            if replaced is None:
                new, extra = [stmt], []
            else:
                new, extra = replaced
                changed = True
            if new and _terminates(new[-1]) and index < len(stmts) - 1 and _removable(stmts[index + 1:]):
                dead = changed = True
                self.folds.append(Fold(line, "dead code", f"statements after an unconditional "
                                                          f"{_code(new[-1].body[-1]).split()[0]} removed"))
            if carry and new:
                new[0] = new[0].with_changes(leading_lines=_join_lines(carry, new[0].leading_lines))
                carry = []
            out.extend(new)
            carry.extend(extra)
        return out, carry, changed

    def _fold_statement(self, stmt, original, line):
        if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and self._own_class_lists():
            appended = appended_class(stmt.body[0], self._own_class_lists())
            if appended is not None and self._absent(appended, line):
                self.folds.append(Fold(line, "isinstance", f"{_code(stmt.body[0])}: the list is read only by "
                                                           "isinstance and no such object exists"))
                self.dropped.update(comments_of(stmt) - comments_of(stmt.leading_lines))
                return [], list(stmt.leading_lines)
        if isinstance(stmt, cst.If):
            return self._fold_if(stmt, original, line)
        if isinstance(stmt, cst.Try) and stmt.orelse is not None and isinstance(stmt.body, cst.IndentedBlock) \
                and stmt.body.body and _terminates(stmt.body.body[-1]):
            self.folds.append(Fold(line, "else", "try's else: never runs (the try body always leaves early), "
                                                 "removed"))
            new = stmt.with_changes(orelse=None)
            self.dropped.update(comments_of(stmt) - comments_of(new))
            return [new], []
        if isinstance(stmt, cst.While):
            test = literal_value(stmt.test)
            if test is UNKNOWN or test:
                return None
            self.folds.append(Fold(line, "while", f"while {_code(stmt.test)}: never runs"))
            if stmt.orelse is not None:
                return self._splice(stmt, stmt.orelse.body, [stmt.leading_lines, stmt.orelse.leading_lines])
            lead, _ = _attached_comments(stmt.leading_lines)
            self.dropped.update(comments_of(stmt) - comments_of(lead))
            return [], lead
        if isinstance(stmt, cst.SimpleStatementLine) and any(_passing_assert(s) for s in stmt.body):
            kept = [s for s in stmt.body if not _passing_assert(s)]
            self.folds.append(Fold(line, "assert", "always true: removed"))
            if kept:
                new = stmt.with_changes(body=_fix_semicolons(kept))
                self.dropped.update(comments_of(stmt) - comments_of(new))
                return [new], []
            self.dropped.update(comments_of(stmt) - comments_of(stmt.leading_lines))
            return [], list(stmt.leading_lines)
        return None

    def _fold_if(self, stmt: cst.If, original, line: int):
        effect, value = _effect_of_known_test(stmt.test)
        if effect is not None and not effect.lpar and stmt.test.lpar:  # `if (\n A\n or B\n ):` spans lines
            effect = effect.with_changes(lpar=stmt.test.lpar, rpar=stmt.test.rpar)
        if effect is not None and not value and not (self.pinned and _binds(stmt.body) & self.pinned):
            return self._fold_effect_guard(stmt, effect, line)
        if effect is not None and value and not (self.pinned and stmt.orelse is not None
                                                 and _binds(stmt.orelse) & self.pinned):
            return self._fold_true_guard(stmt, effect, line)
        arms: list[cst.If] = []
        originals: list[cst.If | None] = []
        lines: list[int] = []
        node, orig = stmt, original
        final_else = None
        while node is not None:
            arms.append(node)
            originals.append(orig)
            found = self.info.get(id(orig))
            lines.append(found.line if found else line)
            if isinstance(node.orelse, cst.If):
                node = node.orelse
                orig = orig.orelse if isinstance(getattr(orig, "orelse", None), cst.If) else None
            else:
                final_else = node.orelse
                node = None
        pinned = [bool(self.pinned and _binds(arm.body) & self.pinned) for arm in arms]
        else_pinned = bool(self.pinned and final_else is not None and _binds(final_else.body) & self.pinned)
        kept: list[cst.If] = []
        first_kept: int | None = None
        taken: cst.If | None = None
        changed = False
        for i, arm in enumerate(arms):
            test = _walrus_value(arm.test, self.pinned)
            word = "if" if i == 0 else "elif"
            if test is not UNKNOWN and (pinned[i] if not test else any(pinned[i + 1:]) or else_pinned):
                names = ', '.join(sorted(_binds(arm.body) & self.pinned)) or 'names'
                written = originals[i].test if originals[i] is not None else arm.test
                if not test:  # never runs, but binds names code after it still mentions: `if False:` says so
                    self.blocked.append((lines[i], f"{word} {_code(written)}: never taken, kept as `{word} False:`: "
                                                   f"it binds {names} that code after it still uses"))
                    arm = arm.with_changes(test=cst.Name("False"))
                else:
                    if originals[i] is not None and not _same_code(originals[i].test, arm.test):
                        arm = arm.with_changes(test=originals[i].test)  # keep the arm as written
                    self.blocked.append((lines[i], f"{word} {_code(arm.test)}: known, but kept: it binds {names} "
                                                   f"that code after it still uses"))
                test = UNKNOWN
            if test is UNKNOWN:
                kept.append(arm)
                first_kept = i if first_kept is None else first_kept
                changed = changed or arm is not arms[i]
            elif test:
                taken = arm
                changed = True
                self.folds.append(Fold(lines[i], word, f"{word} {_code(arm.test)}: always taken"))
                break
            else:
                changed = True
                self.folds.append(Fold(lines[i], word, f"{word} {_code(arm.test)}: never taken, removed"))
        if not changed:
            return None
        if taken is not None and final_else is not None:
            self.folds.append(Fold(line, "else", "else: never taken, removed"))
        new_else = final_else
        if taken is not None:
            new_else = cst.Else(body=taken.body, leading_lines=taken.leading_lines,
                                whitespace_before_colon=taken.whitespace_after_test)
        if not kept:
            if new_else is None:  # the comment block right above the statement was about it: it goes too
                lead, attached = _attached_comments(stmt.leading_lines)
                self.dropped.update(comments_of(stmt) - comments_of(lead))
                return [], lead
            keep = [stmt.leading_lines]
            if taken is not stmt:
                keep.append(new_else.leading_lines)
            return self._splice(stmt, new_else.body, keep)
        tail = new_else
        for arm in reversed(kept):
            tail = arm.with_changes(orelse=tail)
        if first_kept != 0:  # an elif became the first arm: it takes the if's leading comments
            tail = tail.with_changes(leading_lines=_join_lines(stmt.leading_lines, kept[0].leading_lines))
        self.dropped.update(comments_of(stmt) - comments_of(tail))
        return [tail], []

    def _unblock(self, line: int) -> None:
        """The operand an effect guard keeps was reported as blocking the fold of its test's ``and``/``or``."""
        self.blocked = [(at, why) for at, why in self.blocked
                        if not (at == line and why.endswith("side effect that must still run: kept"))]

    def _fold_effect_guard(self, stmt: cst.If, effect: cst.BaseExpression, line: int):
        """``if A and False: body [else: rest]`` never runs its body, but ``A`` runs (and is asked its truth)
        first: ``if A: pass``, then the else's statements, does exactly that; an ``elif B:`` chain after it
        becomes its own ``if B:`` statement (asked after ``A``, as before)."""
        test = _code(stmt.test)
        self._unblock(line)
        self.folds.append(Fold(line, "if", f"if {test}: never taken, removed (`if {_code(effect)}: pass` keeps "
                                           "its operand's side effect)"))
        header = stmt.body.header if isinstance(stmt.body, cst.IndentedBlock) else cst.TrailingWhitespace()
        guard = cst.If(test=effect, leading_lines=stmt.leading_lines,  # its own parentheses stay (a lambda needs them)
                       body=cst.IndentedBlock(header=header, body=[cst.SimpleStatementLine(body=[cst.Pass()])]))
        if stmt.orelse is None:
            self.dropped.update(comments_of(stmt) - comments_of(guard))
            return [guard], []
        if isinstance(stmt.orelse, cst.If):
            self.dropped.update(comments_of(stmt) - comments_of([guard, stmt.orelse]))
            return [guard, stmt.orelse], []
        stmts, carry = self._splice(stmt, stmt.orelse.body, [stmt.orelse.leading_lines])
        return [guard, *stmts], carry

    def _fold_true_guard(self, stmt: cst.If, effect: cst.BaseExpression, line: int):
        """``if A or True: body [elif/else ...]`` always runs its body after ``A`` (asked its truth) ran:
        ``if A: pass``, then the body's statements; the other arms never run."""
        test = _code(stmt.test)
        self._unblock(line)
        self.folds.append(Fold(line, "if", f"if {test}: always taken (`if {_code(effect)}: pass` keeps its "
                                           "operand's side effect)"))
        if stmt.orelse is not None:
            self.folds.append(Fold(line, "else", "elif/else: never taken, removed"))
        header = stmt.body.header if isinstance(stmt.body, cst.IndentedBlock) else cst.TrailingWhitespace()
        guard = cst.If(test=effect, leading_lines=stmt.leading_lines,
                       body=cst.IndentedBlock(header=header, body=[cst.SimpleStatementLine(body=[cst.Pass()])]))
        dropped = self.dropped.copy()
        body = stmt.body.with_changes(header=cst.TrailingWhitespace()) if header is stmt.body.header else stmt.body
        stmts, carry = self._splice(stmt, body, [])
        self.dropped = dropped
        self.dropped.update(comments_of(stmt) - comments_of(guard, stmts, carry))
        return [guard, *stmts], carry

    def _splice(self, stmt, body, keep):
        """The statements of ``body`` in place of ``stmt``; ``keep`` are comment lines to carry over."""
        lead: list[cst.EmptyLine] = []
        for lines in keep:
            lead = _join_lines(lead, lines)
        footer: list[cst.EmptyLine] = []
        if isinstance(body, cst.IndentedBlock):
            if body.header.comment is not None:
                lead = [*lead, cst.EmptyLine(indent=True, comment=body.header.comment)]
            stmts = list(body.body)
            footer = list(body.footer)
        else:
            stmts = [cst.SimpleStatementLine(body=list(body.body), trailing_whitespace=body.trailing_whitespace)]
        if all(_is_pass(s) for s in stmts):
            stmts = [] if not any(comments_of(s) for s in stmts) else stmts
        if stmts:
            stmts[0] = stmts[0].with_changes(leading_lines=_join_lines(lead, stmts[0].leading_lines))
            carry = footer
        else:
            carry = _join_lines(lead, footer)
        self.dropped.update(comments_of(stmt) - comments_of(stmts, carry))
        return stmts, carry


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

