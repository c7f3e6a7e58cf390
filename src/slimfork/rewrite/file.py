"""Fold one file: the codemod, the clean-up of names only deleted code used, and the safety checks."""

from __future__ import annotations

import ast
import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

import libcst as cst

from slimfork.facts.bindings import ModuleBindings, ModuleScope, Resolver, renamed_imports
from slimfork.facts.evaluate import STDLIB_FACTS, FactTable
from slimfork.graph.public_api import PublicApi
from slimfork.index.parse import decode, parse_python
from slimfork.rewrite.cleanup import function_loads, load_counts, remove_unused
from slimfork.rewrite.fold import FoldTransformer
from slimfork.rewrite.methods import MethodRemover, method_uses
from slimfork.rewrite.positions import statement_info
from slimfork.rewrite.report import FileFold
from slimfork.rewrite.safety import check_rewrite, does_not_compile, undefined_names
from slimfork.rewrite.unresolved import unresolved_mentions

_RUNS = 3  # runs of the fold on its own output: the last must change nothing


@dataclass
class FoldContext:
    """Everything a file's fold needs, shared by all files of a run."""

    table: FactTable
    resolver: Resolver
    is_protected: Callable[[str, str], bool] = lambda module, name: False  # (module, name) used elsewhere
    unused_methods: frozenset[str] = frozenset()  # methods to delete from class bodies (rewrite/methods.py)
    public: PublicApi = field(default_factory=PublicApi)  # public names of API modules are never cleaned up


def fold_source(data: bytes, path: str, bindings: ModuleBindings, ctx: FoldContext) -> tuple[bytes | None, FileFold]:
    """The folded bytes (None when nothing changed or a check failed) and what happened."""
    result = FileFold(path, bindings.module, lines_before=_count_lines(data))
    try:
        new, transformer, removed, dropped, undefined = _fold_pinned(data, path, bindings, ctx)
    except RewriteError as exc:
        result.failure = str(exc)
        result.unresolved = _unresolved(data, path, bindings, ctx, set(), f"the file was left unmodified ({exc})")
        return None, result
    except (cst.ParserSyntaxError, SyntaxError, UnicodeDecodeError, LookupError, ValueError, RecursionError) as exc:
        result.failure = f"cannot fold: {exc.__class__.__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        return None, result
    result.folds, result.matches, result.blocked = transformer.folds, transformer.matches, transformer.blocked
    result.removed_names = removed
    result.public_kept = list(transformer.public_kept)
    result.unresolved = _unresolved(data, path, bindings, ctx, {line for _, line in transformer.matches})
    if new == data:
        return None, result
    problems = check_rewrite(data, new, dropped, path, undefined)
    for attempt in range(_RUNS):  # a fold may open another: an append whose list only the first made isinstance-only
        if problems:
            break
        try:
            again, transformer, more, lost, undefined = _fold_pinned(new, path, bindings, ctx)
        except Exception as exc:  # noqa: BLE001 - any crash on our own output is a failed check
            problems.append(f"a second run fails: {exc.__class__.__name__}: {exc}")
            break
        if again == new:
            break
        if attempt == _RUNS - 1:
            problems.append(f"run {_RUNS + 1} changes the file again (the fold does not converge)")
            break
        result.folds += transformer.folds
        result.matches += transformer.matches
        result.blocked += transformer.blocked
        result.removed_names = [*result.removed_names, *more]
        result.public_kept += [k for k in transformer.public_kept if k not in result.public_kept]
        dropped = dropped + lost
        new = again
        problems = check_rewrite(data, new, dropped, path,
                                 (undefined_names(decode(data), path), undefined[1]) if undefined else None)
    if problems:
        result.failure = "; ".join(problems)
        return None, result
    result.changed = True
    result.lines_after = _count_lines(new)
    return new, result


def _fold_pinned(data: bytes, path: str, bindings: ModuleBindings, ctx: FoldContext):
    """Fold; if that leaves names undefined that an ``if`` arm bound (pitfall 20: an NPU-only import still
    named by a dispatch nobody can prove dead), fold again keeping those arms as written."""
    new, transformer, removed, dropped = _fold_once(data, path, bindings, ctx)
    if new == data:
        return new, transformer, removed, dropped, None
    before = undefined_names(decode(data), path)
    after = undefined_names(decode(new), path)
    if before is not None and after is not None and after - before:
        new, transformer, removed, dropped = _fold_once(data, path, bindings, ctx, frozenset(after - before))
        after = undefined_names(decode(new), path)
    return new, transformer, removed, dropped, (before, after)


def _fold_once(data: bytes, path: str, bindings: ModuleBindings, ctx: FoldContext,
               pinned: frozenset[str] = frozenset()):
    if b"\r" in data and b"\n" not in data:  # LibCST does not round-trip files ending lines with CR only
        new, *rest = _fold_once(data.replace(b"\r", b"\n"), path, bindings, ctx, pinned)
        return (new.replace(b"\n", b"\r"), *rest)
    module = cst.parse_module(data)
    if module.bytes != data:
        raise ValueError("LibCST does not reproduce this file byte for byte; not rewritten")
    text = decode(data)
    tree = parse_python(text, path)
    renamed = renamed_imports(bindings, ctx.resolver, ctx.table.words)
    scope = ModuleScope(ctx.resolver, bindings, words=ctx.table.words | renamed)
    params = {p for (m, _, _), found in ctx.table.parameters.items() if m == bindings.module for p in found} | \
        {p for (m, _), found in ctx.table.declared_parameters.items() if m == bindings.module for p in found}
    transformer = FoldTransformer(ctx.table, scope, statement_info(module, tree), text.splitlines(keepends=True),
                                  pinned, renamed | params)
    folded = module.visit(transformer)
    if ctx.unused_methods:
        lines = {(cls, name): line for cls, name, line in method_uses(tree, ctx.unused_methods)[0]}
        remover = MethodRemover(ctx.unused_methods, lines)
        folded = folded.visit(remover)
        transformer.folds += remover.folds
        transformer.dropped += remover.dropped
    transformer.public_kept = []
    if not transformer.folds and not transformer.substitutions:
        return data, transformer, [], Counter()
    try:
        warned = syntax_warnings(folded.code, path)
    except SyntaxError as exc:  # a bug of the fold, reported at the line of the source it rewrote
        raise RewriteError(does_not_compile(text, folded.code, exc)) from None
    if warned and (new_warnings := warned - syntax_warnings(text, path)):  # '0' is None: an error under -W error
        raise RewriteError(f"the folded code makes Python warn: {sorted(new_warnings)[0]}")

    imported = imported_names(tree)

    def protected(name: str) -> bool:
        if ctx.is_protected(bindings.module, name):
            return True
        why = ctx.public.keeps(bindings.module, name, bindings.all_names, name in imported)
        if why and (name, why) not in transformer.public_kept:
            transformer.public_kept.append((name, why))
        return why is not None

    cleaned, code, removed, dropped = remove_unused(folded, load_counts(tree), bindings, protected,
                                                    function_loads(tree))
    new = code.encode(cleaned.encoding) if code is not None else cleaned.bytes
    return new, transformer, removed, transformer.dropped + dropped


def syntax_warnings(code: str, path: str) -> set[str]:
    """The SyntaxWarnings compiling ``code`` gives (``"is" with a literal``); raises SyntaxError."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SyntaxWarning)
        compile(code, path, "exec", dont_inherit=True)
    return {str(w.message) for w in caught if issubclass(w.category, SyntaxWarning)}


def imported_names(tree: ast.Module) -> set[str]:
    """The names the module's top level binds by imports and not by a definition or an assignment."""
    imported: set[str] = set()
    defined: set[str] = set()
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imported.update((a.asname or a.name).split(".")[0] for a in node.names if a.name != "*")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        else:
            defined.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
                           and not isinstance(node, (ast.If, ast.Try, ast.With)))
            if isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
                todo += [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.stmt)]
                todo += [h for h in getattr(node, "handlers", [])]
            elif isinstance(node, ast.ExceptHandler):
                todo += node.body
    return imported - defined


class RewriteError(Exception):
    """The fold's own output is wrong: the file is left unmodified, with this reason."""


def _unresolved(data: bytes, path: str, bindings: ModuleBindings, ctx: FoldContext,
                matched: set[int], why: str | None = None) -> list[tuple[int, str]]:
    """The stdlib platform facts this file spells but the fold did not match, with why (``rewrite/unresolved.py``)."""
    known = {q for q in STDLIB_FACTS if q in ctx.table.values or q in ctx.table.calls}
    spelled = {q.rpartition(".")[2].encode() for q in known}
    if not known or not any(b"." + word in data for word in spelled):
        return []
    try:
        tree = parse_python(decode(data), path)
    except (SyntaxError, ValueError, UnicodeDecodeError, LookupError, RecursionError):
        return []
    return unresolved_mentions(tree, bindings, known, matched, why)


def _count_lines(data: bytes) -> int:
    return len(data.splitlines())
