"""After folding: remove module-level imports, flags, functions and classes that only the deleted code used.

A name is removed only when all of these hold: the original module used it and the folded one does not; it is
bound once at module level by a plain import, a side-effect-free assignment, or an undecorated def/class; it
is not in ``__all__``, not a dunder, not named by a string in the module, the module is not a package
``__init__`` (re-exports), and no other module imports it or reads it as an attribute (``is_protected``).
Imports that were already unused (side-effect imports, re-exports) are never touched. An import statement of a
function body (``from .v4_pool import V4Pool`` above ``isinstance(pool, V4Pool)``) goes by the same rule, in that
function: the function read the name before the fold and reads it nowhere now.
"""

from __future__ import annotations

import ast
from collections import Counter
from typing import Callable

import libcst as cst

from slimfork.facts.bindings import ModuleBindings
from slimfork.facts.literals import is_literal, is_pure
from slimfork.index.parse import parse_python
from slimfork.rewrite.comments import comments_of
from slimfork.rewrite.fold_nodes import _join_lines


def load_counts(tree: ast.AST) -> Counter[str]:
    counts: Counter[str] = Counter()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Store):
            counts[node.id] += 1
    return counts


def function_loads(tree: ast.AST) -> dict[tuple[str, ...], Counter[str]]:
    """Names read inside each function (nested code included), by the path of class and function names to it."""
    out: dict[tuple[str, ...], Counter[str]] = {}

    def visit(node: ast.AST, path: tuple[str, ...]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner = path + (child.name,)
                if not isinstance(child, ast.ClassDef):
                    out.setdefault(inner, Counter()).update(load_counts(child))
                visit(child, inner)
            else:
                visit(child, path)

    visit(tree, ())
    return out


def string_names(tree: ast.AST) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) < 200:
            for part in node.value.replace(",", " ").split():
                out.add(part.rsplit(".", 1)[-1].rsplit(":", 1)[-1])
    return out


def remove_unused(module: cst.Module, used_before: Counter[str], bindings: ModuleBindings,
                  is_protected: Callable[[str], bool], functions_before: dict | None = None
                  ) -> tuple[cst.Module, str | None, list[str], Counter[str]]:
    """The module without the unused names, its code when already generated, what was removed, and the
    comments that went with it. ``functions_before``: ``function_loads`` of the module before the fold."""
    removed: list[str] = []
    dropped: Counter[str] = Counter()
    if bindings.is_package:
        return module, None, removed, dropped
    code = None
    for _ in range(3):
        code = module.code
        tree = parse_python(code)
        used_after = load_counts(tree)
        strings = string_names(tree)
        exported = set(bindings.all_names or ())

        def removable(name: str) -> bool:
            return (used_before.get(name, 0) > 0 and used_after.get(name, 0) == 0 and name not in exported
                    and not (name.startswith("__") and name.endswith("__")) and name not in strings
                    and name not in bindings.ambiguous and not is_protected(name))

        body, carry, names = _filter(module.body, lambda stmt: _without_unused(stmt, removable), dropped)
        removed.extend(names)
        changed = bool(names)
        if changed:
            if body and not module.header:  # no blank lines at the top of the file
                lead = list(body[0].leading_lines)
                while lead and lead[0].comment is None:
                    lead.pop(0)
                body[0] = body[0].with_changes(leading_lines=lead)
            module = module.with_changes(body=body, footer=_join_lines(carry, module.footer))
        local = _LocalImports(functions_before or {}, function_loads(tree), strings)
        if local.paths:
            module = module.visit(local)
        if not changed and not local.removed:
            return module, code, removed, dropped
        removed.extend(local.removed)
        dropped.update(local.dropped)
    return module, None, removed, dropped


class _LocalImports(cst.CSTTransformer):
    """Import statements directly in a function body whose names the function read before the fold and no
    longer reads (``before``/``after``: ``function_loads``; ``strings``: words of the module's strings)."""

    def __init__(self, before: dict, after: dict, strings: set[str]):
        super().__init__()
        self.before, self.after, self.strings = before, after, strings
        # The functions that read a name before the fold and read it no more (only they can lose an import), and
        # the classes and functions on the way to them (no other part of the module is visited).
        self.paths = {path for path, loads in before.items()
                      if any(count > 0 and not after.get(path, {}).get(name, 0) and name not in strings
                             for name, count in loads.items())}
        self.on_the_way = {path[:i] for path in self.paths for i in range(len(path) + 1)}
        self.path: list[str] = []
        self.removed: list[str] = []
        self.dropped: Counter[str] = Counter()

    def visit_ClassDef(self, node) -> bool:
        self.path.append(node.name.value)
        return tuple(self.path) in self.on_the_way

    def leave_ClassDef(self, original_node, updated_node):
        self.path.pop()
        return updated_node

    visit_FunctionDef = visit_ClassDef

    def visit_SimpleStatementLine(self, node) -> bool:
        return False  # holds no function

    def leave_FunctionDef(self, original_node, updated_node):
        path = tuple(self.path)
        self.path.pop()
        before, after = self.before.get(path), self.after.get(path, Counter())
        if before is None or path not in self.paths:
            return updated_node

        shared = _declared_shared(updated_node)

        def removable(name: str) -> bool:
            return before.get(name, 0) > 0 and after.get(name, 0) == 0 and name not in self.strings \
                and name not in shared

        if not isinstance(updated_node.body, cst.IndentedBlock):
            return updated_node
        blocks = _BlockImports(removable, self.dropped)
        body = updated_node.body.visit(blocks)
        if not blocks.removed:
            return updated_node
        self.removed.extend(blocks.removed)
        return updated_node.with_changes(body=body)


class _BlockImports(cst.CSTTransformer):
    """In one function's blocks (``if``/``try``/``with``/loop bodies too, not nested functions or classes): the
    import statements whose names ``removable`` says go; an emptied block gets ``pass``."""

    def __init__(self, removable: Callable[[str], bool], dropped: Counter[str]):
        super().__init__()
        self.removable, self.dropped = removable, dropped
        self.removed: list[str] = []

    def visit_FunctionDef(self, node) -> bool:
        return False

    visit_ClassDef = visit_FunctionDef
    visit_SimpleStatementLine = visit_FunctionDef  # holds no block

    def leave_IndentedBlock(self, original_node, updated_node):
        body, carry, names = _filter(updated_node.body, lambda stmt: _without_unused(stmt, self.removable)
                                     if _is_import(stmt) or _is_flag(stmt) else (stmt, []), self.dropped)
        if not names:
            return updated_node
        self.removed.extend(names)
        footer = list(updated_node.footer)
        if not body or all(_is_docstring(s) for s in body):
            body.append(cst.SimpleStatementLine([cst.Pass()], leading_lines=carry))
        elif carry:
            footer = _join_lines(carry, footer)
        lead = list(body[0].leading_lines)
        while lead and lead[0].comment is None:  # no blank line on top of a body
            lead.pop(0)
        body[0] = body[0].with_changes(leading_lines=lead)
        return updated_node.with_changes(body=body, footer=footer)


def _filter(statements, without: Callable, dropped: Counter[str]):
    """(the statements ``without`` leaves, the comment lines above removed ones at the end, the names removed);
    the comments above a removed statement move to the next one; ``dropped`` counts the others it removed."""
    body: list[cst.BaseStatement] = []
    carry: list[cst.EmptyLine] = []
    removed: list[str] = []
    for stmt in statements:
        new, names = without(stmt)
        if names:
            removed.extend(names)
            dropped.update(comments_of(stmt) - comments_of(new, stmt.leading_lines))
        if new is None:
            carry = _join_lines(carry, stmt.leading_lines)
            continue
        if carry:
            new = new.with_changes(leading_lines=_join_lines(carry, new.leading_lines))
            carry = []
        body.append(new)
    return body, carry, removed


def _is_import(stmt) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 \
        and isinstance(stmt.body[0], (cst.Import, cst.ImportFrom))


def _is_flag(stmt) -> bool:
    """``WINDOWS_ = False``: a name bound to a literal (what a fold leaves of a local flag)."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)):
        return False
    small = stmt.body[0]
    return len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name) and is_literal(small.value)


def _declared_shared(function: cst.FunctionDef) -> set[str]:
    """Names a function declares ``global`` or ``nonlocal``: assigning them is not local."""
    names: set[str] = set()

    class _Shared(cst.CSTVisitor):
        def visit_Global(self, node) -> None:
            names.update(n.name.value for n in node.names)

        visit_Nonlocal = visit_Global

    function.visit(_Shared())
    return names


def _is_docstring(stmt) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 \
        and isinstance(stmt.body[0], cst.Expr) and isinstance(stmt.body[0].value, (cst.SimpleString,
                                                                                   cst.ConcatenatedString))


def _without_unused(stmt, removable):
    """(the statement with unused names removed or None if nothing is left, the names removed)."""
    if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
        if not stmt.decorators and removable(stmt.name.value):
            return None, [stmt.name.value]
        return stmt, []
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return stmt, []
    small = stmt.body[0]
    if isinstance(small, cst.Assign):
        if (len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
                and is_pure(small.value) and removable(small.targets[0].target.value)):
            return None, [small.targets[0].target.value]
        return stmt, []
    if isinstance(small, cst.AnnAssign):
        if (isinstance(small.target, cst.Name) and small.value is not None and is_pure(small.value)
                and removable(small.target.value)):
            return None, [small.target.value]
        return stmt, []
    if isinstance(small, (cst.Import, cst.ImportFrom)):
        if isinstance(small, cst.ImportFrom):
            if isinstance(small.names, cst.ImportStar):
                return stmt, []
            if isinstance(small.module, cst.Name) and small.module.value == "__future__" and not small.relative:
                return stmt, []
        keep, gone = [], []
        for alias in small.names:
            bound = _bound_name(alias, isinstance(small, cst.Import))
            (gone if bound and removable(bound) else keep).append(alias)
        if not gone:
            return stmt, []
        names = [_bound_name(a, isinstance(small, cst.Import)) for a in gone]
        if not keep:
            return None, names
        if not (isinstance(small, cst.ImportFrom) and small.lpar):
            keep[-1] = keep[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        elif keep[-1] is not small.names[-1]:  # the new last name ends the list as the old one did (`)` indent)
            keep[-1] = keep[-1].with_changes(comma=small.names[-1].comma)
        return stmt.with_changes(body=[small.with_changes(names=keep)]), names
    return stmt, []


def _bound_name(alias: cst.ImportAlias, plain_import: bool) -> str | None:
    if alias.asname is not None:
        name = alias.asname.name
        return name.value if isinstance(name, cst.Name) else None
    dotted = cst.Module([]).code_for_node(alias.name)
    return dotted.split(".")[0] if plain_import else dotted
