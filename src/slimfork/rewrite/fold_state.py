"""The folding codemod's shared state, declared once for its mixins (``fold_scopes``, ``fold_expressions``,
``fold_blocks``): the attributes ``FoldTransformer.__init__`` sets and the methods one part calls on another.
Annotations only: nothing here exists at run time, so the mixins and ``FoldTransformer`` behave as without it."""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Any, TypeVar

import libcst as cst

from slimfork.facts.bindings import ModuleScope
from slimfork.facts.evaluate import Evaluator, FactTable
from slimfork.rewrite.fold_nodes import Fold
from slimfork.rewrite.positions import StmtInfo

# A local alias: its name -> (the qualified name it stands for, (its line, the end of its block)).
Aliases = dict[str, tuple[str, tuple[int, int]]]
NodeT = TypeVar("NodeT", bound=cst.CSTNode)


class FoldState:
    """What every part of ``FoldTransformer`` reads and writes (set in ``FoldTransformer.__init__``)."""

    pinned: frozenset[str]  # names still used after an arm that binds them: such arms are kept
    source_lines: list[str] | None  # the original text by line, to skip statements no fact can match in
    trigger: re.Pattern[str] | None  # any word a fact matches on
    table: FactTable
    module_scope: ModuleScope
    info: dict[int, StmtInfo]
    scopes: list[tuple[str, frozenset[str], Aliases]]  # ("function" | "class", local names, aliases)
    alias_triggers: list[set[str]]  # module imports that rename, then per function
    evaluator: Evaluator[ModuleScope]
    skip: set[int]  # Name/Attribute nodes that are not plain loads
    truth_context: set[int]  # expressions whose value only matters as a truth value
    lines: list[int]
    function_depth: int
    class_names: list[str]  # the classes around the statement being visited
    class_lists: list[frozenset[str]]  # per function: lists of classes only isinstance reads
    folds: list[Fold]
    matches: list[tuple[str, int]]  # (fact key, line)
    blocked: list[tuple[int, str]]  # (line, why a known condition was not folded)
    dropped: Counter[str]  # comments inside deleted code
    substitutions: int
    edits_at: list[int]  # per simple statement line being visited: the edits made before it
    wrapped: set[int]  # literals given the parentheses of what they replaced
    keep_alive: list[cst.CSTNode]  # ... kept alive, so their ids stay theirs
    fstring_quotes: list[str]  # the quote of each f-string around the expression (innermost last)
    public_kept: list[tuple[str, str]]  # (name, why): kept as the public API (rewrite/file.py)

    if TYPE_CHECKING:  # defined by fold.py (bookkeeping) and the mixins; declared for the others
        @property
        def line(self) -> int: ...

        def _push_scope(self, kind: str, names: frozenset[str], aliases: tuple = ()) -> None: ...

        def _pop_scope(self) -> None: ...

        def _constant_parameters(self, name: str, found: StmtInfo) -> None: ...

        def _declared_parameters(self, node: cst.FunctionDef, found: StmtInfo) -> None: ...

        def _evaluate(self, node: cst.BaseExpression) -> tuple[Any, set[str]]: ...

        def _absent(self, node: cst.BaseExpression, line: int | None = None) -> bool: ...

        def _own_class_lists(self) -> frozenset[str]: ...

        def _narrow_class_list(self, updated_node: cst.Assign) -> cst.Assign: ...

        def _replace(self, old: cst.CSTNode, new: NodeT) -> NodeT: ...

        def _wrap(self, new: cst.BaseExpression, old: cst.BaseExpression) -> cst.BaseExpression: ...
