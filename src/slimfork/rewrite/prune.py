"""Remove top-level statements (and import aliases) that symbol reachability found unreferenced (LibCST).

Statements are named by their position in the module body as the stdlib ``ast`` numbers them; both trees walk
the body in the same order (a line ``a = 1; b = 2`` holds two ``ast`` statements), and the kinds must agree or
nothing is rewritten. Comments above a removed statement move to the next one; comments inside it go with it.
The result passes the same checks as the fact fold (``slimfork.rewrite.safety``: compiles, bytes kept, comments
accounted for, no name left undefined) and a second prune of the result with the same request changes nothing.
"""

from __future__ import annotations

import ast
import warnings
from collections import Counter
from dataclasses import dataclass, field

import libcst as cst

from slimfork.index.parse import decode
from slimfork.rewrite.comments import comments_of
from slimfork.rewrite.safety import check_rewrite

_KINDS = {"def": (cst.FunctionDef,), "class": (cst.ClassDef,), "assign": (cst.Assign, cst.AnnAssign),
          "import": (cst.Import, cst.ImportFrom)}
_AST_KINDS = {"def": (ast.FunctionDef, ast.AsyncFunctionDef), "class": (ast.ClassDef,),
              "assign": (ast.Assign, ast.AnnAssign), "import": (ast.Import, ast.ImportFrom)}


@dataclass(frozen=True)
class Cut:
    """Remove the statement at ``index`` (ast numbering), or only the import aliases at ``aliases``."""

    index: int
    kind: str
    aliases: tuple[int, ...] = ()  # empty: the whole statement


@dataclass
class PruneResult:
    path: str
    new: bytes | None = None  # None: unchanged, or a check failed
    removed: list[int] = field(default_factory=list)  # indexes of cuts applied
    failure: str | None = None


def prune_source(data: bytes, cuts: list[Cut], path: str = "<file>") -> PruneResult:
    result = PruneResult(path)
    if not cuts:
        return result
    try:
        new, dropped, applied = _prune(data, cuts, path)
    except (cst.ParserSyntaxError, SyntaxError, UnicodeDecodeError, LookupError, ValueError, RecursionError) as exc:
        result.failure = f"not pruned: {exc.__class__.__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        return result
    if new == data:
        return result
    problems = check_rewrite(data, new, dropped, path)
    if problems:
        result.failure = "not pruned: " + "; ".join(problems)
        return result
    result.new, result.removed = new, applied
    return result


def _prune(data: bytes, cuts: list[Cut], path: str) -> tuple[bytes, Counter[str], list[int]]:
    if b"\r" in data and b"\n" not in data:  # LibCST does not round-trip files ending lines with CR only
        new, dropped, applied = _prune(data.replace(b"\r", b"\n"), cuts, path)
        return new.replace(b"\n", b"\r"), dropped, applied
    module = cst.parse_module(data)
    if module.bytes != data:
        raise ValueError("LibCST does not reproduce this file byte for byte")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = ast.parse(decode(data), path)
    by_index = {c.index: c for c in cuts}
    dropped: Counter[str] = Counter()
    applied: list[int] = []
    body: list[cst.BaseStatement] = []
    carry: list[cst.EmptyLine] = []
    i = 0
    for stmt in module.body:
        n = len(stmt.body) if isinstance(stmt, cst.SimpleStatementLine) else 1
        nodes = tree.body[i:i + n]
        wanted = [by_index.get(i + k) for k in range(n)]
        i += n
        new = stmt
        if any(wanted):
            _check_kinds(stmt, nodes, wanted)
            new = _apply(stmt, wanted)
            applied += [c.index for c in wanted if c is not None] if new is not stmt else []
            if new is not stmt:
                dropped.update(comments_of(stmt) - comments_of(new, stmt.leading_lines if new is None else []))
        if new is None:
            carry = _join_lines(carry, stmt.leading_lines)
            continue
        if carry:
            new = new.with_changes(leading_lines=_join_lines(carry, new.leading_lines))
            carry = []
        body.append(new)
    if i != len(tree.body):
        raise ValueError("LibCST and ast disagree on the statements of this module")
    if body and not module.header:  # no blank lines at the top of the file
        lead = list(body[0].leading_lines)
        while lead and lead[0].comment is None:
            lead.pop(0)
        body[0] = body[0].with_changes(leading_lines=lead)
    new_module = module.with_changes(body=body, footer=_join_lines(carry, module.footer))
    return new_module.bytes, dropped, applied


def _check_kinds(stmt, nodes, wanted) -> None:
    for node, cut in zip(nodes, wanted):
        if cut is not None and not isinstance(node, _AST_KINDS[cut.kind]):
            raise ValueError(f"statement {cut.index} is not a {cut.kind} (the file changed since it was read)")
    smalls = stmt.body if isinstance(stmt, cst.SimpleStatementLine) else [stmt]
    for small, cut in zip(smalls, wanted):
        if cut is not None and not isinstance(small, _KINDS[cut.kind]):
            raise ValueError(f"statement {cut.index}: LibCST sees {type(small).__name__}, not a {cut.kind}")


def _apply(stmt, wanted):
    """The statement without what ``wanted`` removes; None when nothing is left. A line holding several
    statements (``a = 1; b = 2``) is only removed whole."""
    if not isinstance(stmt, cst.SimpleStatementLine):
        return None if wanted[0] is not None and not wanted[0].aliases else stmt
    if len(stmt.body) > 1:
        whole = all(c is not None and (not c.aliases or c.aliases == tuple(range(len(s.names))))
                    for c, s in zip(wanted, stmt.body))
        return None if whole else stmt
    cut, small = wanted[0], stmt.body[0]
    if not cut.aliases:
        return None
    names = list(small.names)
    keep = [a for pos, a in enumerate(names) if pos not in cut.aliases]
    if not keep:
        return None
    if keep[-1] is not names[-1]:
        parenthesized = isinstance(small, cst.ImportFrom) and small.lpar
        if not parenthesized or names[-1].comma is cst.MaybeSentinel.DEFAULT:
            keep[-1] = keep[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        else:
            keep[-1] = keep[-1].with_changes(comma=names[-1].comma)
    return stmt.with_changes(body=[small.with_changes(names=keep)])


def _join_lines(first, second) -> list[cst.EmptyLine]:
    """Two runs of EmptyLines joined; blank lines where they meet do not add up (the longer gap wins)."""
    first, second = list(first), list(second)
    trailing = 0
    while trailing < len(first) and first[-1 - trailing].comment is None:
        trailing += 1
    leading = 0
    while leading < len(second) and second[leading].comment is None:
        leading += 1
    return first + second[min(trailing, leading):]
