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
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import Any

import libcst as cst

from slimfork.facts.bindings import ModuleScope
from slimfork.facts.evaluate import Evaluator, FactTable
from slimfork.facts.model import UNKNOWN
from slimfork.index.relative import absolute_module
from slimfork.rewrite.constant_args import KEY as CONSTANT_ARGUMENTS
from slimfork.rewrite.fold_blocks import BlockFolding
from slimfork.rewrite.fold_expressions import ExpressionFolding
from slimfork.rewrite.fold_nodes import rebound_names
from slimfork.rewrite.fold_scopes import ScopeTracking
from slimfork.rewrite.fold_state import Aliases
from slimfork.rewrite.positions import StmtInfo


class FoldTransformer(ScopeTracking, ExpressionFolding, BlockFolding, cst.CSTTransformer):
    """The folding codemod; its parts are mixins: scopes (``fold_scopes``), expressions (``fold_expressions``),
    statements and blocks (``fold_blocks``)."""

    def __init__(self, table: FactTable, scope: ModuleScope, info: dict[int, StmtInfo],
                 lines: list[str] | None = None, pinned: frozenset[str] = frozenset(),
                 renamed: AbstractSet[str] = frozenset()):
        super().__init__()  # the state (what each attribute holds: ``FoldState``)
        self.pinned = pinned
        self.source_lines = lines
        self.trigger = re.compile("|".join(sorted(map(re.escape, table.triggers)))) if table.triggers else None
        self.table = table
        self.module_scope = scope
        self.info = info
        self.scopes = []
        self.alias_triggers = [set(renamed)]
        self.evaluator = Evaluator(table, scope)
        self.skip = set()
        self.truth_context = set()
        self.lines = [1]
        self.function_depth = 0
        self.class_names = []
        self.class_lists = []
        self.folds = []
        self.matches = []
        self.blocked = []
        self.dropped = Counter()
        self.substitutions = 0
        self.edits_at = []
        self.wrapped = set()
        self.keep_alive = []
        self.fstring_quotes = []
        self.public_kept = []

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

    def _local_constants(self, values: list, own: Aliases) -> Aliases:
        """Local names bound once to a flag the facts decide (``use_mlx = is_mlx()``; not ``debug = False``, which
        no fact decides): each stands for a synthetic name whose value the table knows, from its line to the end of
        its block."""
        out: Aliases = {}
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

    def _resolve_aliases(self, aliases: Sequence[tuple]) -> Aliases:
        """What each local alias of a function stands for, resolved in the scope around the function."""
        out: Aliases = {}
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
                everywhere = ModuleScope(around.resolver, around.bindings, around.shadow, None, around.aliases)
                everywhere.line = span[0]
                target = everywhere.resolve(what)
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
        aliases: Aliases = {}
        for i, (kind, local, own) in enumerate(self.scopes):
            if kind == "function" or i == len(self.scopes) - 1:
                shadow |= local
                aliases = {k: v for k, v in aliases.items() if k not in local} | own
        self.evaluator = Evaluator(self.table, self.module_scope.with_shadow(frozenset(shadow), aliases))

    def _evaluate(self, node: cst.BaseExpression) -> tuple[Any, set[str]]:
        self.evaluator.scope.line = self.line
        self.evaluator.used = set()
        value = self.evaluator.value(node)
        return value, self.evaluator.used
