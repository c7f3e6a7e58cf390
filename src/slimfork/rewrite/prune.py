"""Remove top-level statements (and import aliases) that symbol reachability found unreferenced.

Statements are named by their position in the module body as the stdlib ``ast`` numbers them. A whole
statement goes by its line span (decorators included): top-level statements own whole lines, so nothing else
changes, byte for byte; a statement that shares a line with another (``a = 1; b = 2``) is left alone. Comments
above a removed statement stay where they are; comments inside it go with it; the blank lines around it do not
add up. Removing some names of an import rewrites only that statement, with LibCST (formatting and comments
kept). Parsing the whole file with LibCST would cost five times more than this on a large tree.
The result passes the same checks as the fact fold (``slimfork.rewrite.safety``: compiles, bytes kept, comments
accounted for, no name left undefined), or the file is left as it was.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections import Counter
from dataclasses import dataclass, field

import libcst as cst

from slimfork.index.parse import decode, parse_python
from slimfork.rewrite.annotations import drop_local_annotations
from slimfork.rewrite.comments import comments_of
from slimfork.rewrite.safety import check_rewrite

_AST_KINDS = {"def": (ast.FunctionDef, ast.AsyncFunctionDef), "class": (ast.ClassDef,), "method": (ast.ClassDef,),
              "assign": (ast.Assign, ast.AnnAssign, ast.Delete, ast.Expr),  # `del NAME`, a bare `NAME`: tied to it
              "import": (ast.Import, ast.ImportFrom), "all": (ast.Assign,)}


@dataclass(frozen=True)
class Cut:
    """Remove the statement at ``index`` (ast numbering), or only the import aliases at ``aliases``."""

    index: int
    kind: str
    aliases: tuple[int, ...] = ()  # empty: the whole statement; for kind "method": (position in the class body,);
    # for kind "all" (a literal ``__all__``): the positions of the entries removed

    @property
    def key(self):
        """What ``PruneResult.removed`` lists for this cut: the index, or (index, position) for a method."""
        return (self.index, self.aliases[0]) if self.kind == "method" else self.index


@dataclass
class PruneResult:
    path: str
    new: bytes | None = None  # None: unchanged, or a check failed
    removed: list = field(default_factory=list)  # ``Cut.key`` of the cuts applied
    failure: str | None = None


def prune_source(data: bytes, cuts: list[Cut], path: str = "<file>") -> PruneResult:
    result = PruneResult(path)
    if not cuts:
        return result
    try:
        new, dropped, applied = _prune(data, cuts, path)
    except (cst.ParserSyntaxError, SyntaxError, UnicodeDecodeError, LookupError, ValueError, RecursionError,
            tokenize.TokenError) as exc:
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


def _prune(data: bytes, cuts: list[Cut], path: str) -> tuple[bytes, Counter[str], list]:
    text = decode(data)
    tree = parse_python(text, path)
    lines = data.splitlines(keepends=True)
    body = tree.body
    comments = _comment_lines(data)
    replace: dict[int, list[bytes]] = {}  # first line (0-based) -> new lines for the span
    spans: list[tuple[int, int]] = []
    dropped: Counter[str] = Counter()
    applied: list = []
    emptied: dict[int, int] = {}  # class index -> methods removed from it
    unbound: set[str] = set()  # module names whose binding goes: local annotations naming them go too
    for cut in sorted(cuts, key=lambda c: (c.index, c.aliases)):
        if cut.index >= len(body):
            raise ValueError(f"statement {cut.index} does not exist (the file changed since it was read)")
        node = body[cut.index]
        if not isinstance(node, _AST_KINDS[cut.kind]):
            raise ValueError(f"statement {cut.index} is not a {cut.kind} (the file changed since it was read)")
        if cut.kind == "method":
            assert isinstance(node, ast.ClassDef)  # checked above (_AST_KINDS)
            block, at = node.body, cut.aliases[0]
        else:
            block, at = body, cut.index
        if cut.kind == "method":
            if at >= len(block) or not isinstance(block[at], (ast.FunctionDef, ast.AsyncFunctionDef)):
                raise ValueError(f"member {at} of statement {cut.index} is not a method (the file changed)")
            if emptied.get(cut.index, 0) + 1 >= len(block):
                continue  # the class keeps at least one statement of its own
            node = block[at]
        first = _start(node) - 1
        last = (node.end_lineno or node.lineno) - 1
        prev_end = (block[at - 1].end_lineno or block[at - 1].lineno) - 1 if at else \
            (body[cut.index].lineno - 1 if block is not body else -1)
        next_start = _start(block[at + 1]) - 1 if at + 1 < len(block) else \
            (len(lines) if block is body else _next_line(body, cut.index, len(lines)))
        if prev_end >= first or next_start <= last or (block is body and node.col_offset != 0) \
                or not _owns_line(lines[first], node.col_offset):
            continue  # shares a line with another statement: only whole lines are removed
        if cut.kind == "method":
            emptied[cut.index] = emptied.get(cut.index, 0) + 1
        partial = cut.kind == "all" or (cut.kind == "import" and isinstance(node, (ast.Import, ast.ImportFrom))
                                        and cut.aliases and len(cut.aliases) < len(node.names))
        if partial:
            old = b"".join(lines[first:last + 1])
            new = _without_entries(old, set(cut.aliases)) if cut.kind == "all" else _without_aliases(old, set(cut.aliases))
            dropped.update(comments_of(cst.parse_module(old)) - comments_of(cst.parse_module(new)))
            replace[first] = new.splitlines(keepends=True)
            spans.append((first, last))
        else:
            spans.append((first, last))
            replace[first] = []
            dropped.update(c for line, c in comments if first <= line <= last)
        applied.append(cut.key)
        if cut.kind not in ("method", "all"):
            unbound |= _bound_names(node, set(cut.aliases) if partial else None)
    out: list[bytes] = []
    i = 0
    removed_at: list[int] = []  # positions in ``out`` where a whole statement was removed
    for first, last in sorted(spans):
        out += lines[i:first]
        if replace[first]:
            out += replace[first]
        else:
            removed_at.append(len(out))
        i = last + 1
    out += lines[i:]
    pruned, _ = drop_local_annotations(b"".join(_squeeze_blank_runs(out, removed_at, lines)), unbound)
    return pruned, dropped, applied


def _bound_names(node: ast.stmt, aliases: set[int] | None) -> set[str]:
    """The module names a removed statement (or the removed ``aliases`` of an import) bound."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for pos, a in enumerate(node.names)
                if aliases is None or pos in aliases}
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _start(node) -> int:
    return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])


def _next_line(body: list, index: int, end: int) -> int:
    """0-based first line of what follows statement ``index`` (for a method: the rest of the file after its
    class)."""
    return _start(body[index + 1]) - 1 if index + 1 < len(body) else end


def _owns_line(line: bytes, col: int) -> bool:
    """The statement starts its first line (nothing but indentation before it)."""
    return not line[:col].strip()


def _squeeze_blank_runs(out: list[bytes], removed_at: list[int], original: list[bytes]) -> list[bytes]:
    """Where statements went, the blank lines between and around them would add up: a stretch of blank lines
    holding removal points keeps as many as its longest original run. At the top of the file only the blank
    lines that were before the first removed statement stay, and none right after a block's header (a class
    whose first methods went)."""
    drop: set[int] = set()
    points = sorted(set(removed_at))
    done = -1
    for pos in points:
        if pos <= done:
            continue
        start = pos
        while start > 0 and not out[start - 1].strip():
            start -= 1
        end = pos
        while end < len(out) and not out[end].strip():
            end += 1
        group = [p for p in points if start <= p <= end]
        done = group[-1]
        bounds = [start, *group, end]
        runs = [b - a for a, b in zip(bounds, bounds[1:])]
        if start == 0:
            keep = runs[0]
        elif runs[0] == 0 and out[start - 1].rstrip().endswith(b":"):
            keep = 0
        else:
            keep = max(runs)
        drop.update(range(start + keep, end))
    return [line for k, line in enumerate(out) if k not in drop]


def _comment_lines(data: bytes) -> list[tuple[int, str]]:
    """(0-based line, comment text) of every comment."""
    tokens = tokenize.tokenize(io.BytesIO(data).readline)
    return [(tok.start[0] - 1, tok.string.strip()) for tok in tokens if tok.type == tokenize.COMMENT]


def _without_aliases(statement: bytes, positions: set[int]) -> bytes:
    """One import statement (its whole lines) without the aliases at ``positions`` (LibCST)."""
    module = cst.parse_module(statement)
    stmt = module.body[0]
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        raise ValueError("an import sharing its line with another statement")
    small = stmt.body[0]
    assert isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(small.names, cst.ImportStar)
    names = list(small.names)
    keep = [a for pos, a in enumerate(names) if pos not in positions]
    if keep[-1] is not names[-1]:
        parenthesized = isinstance(small, cst.ImportFrom) and small.lpar
        last_comma = names[-1].comma
        if not parenthesized or last_comma is cst.MaybeSentinel.DEFAULT:
            keep[-1] = keep[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        else:
            keep[-1] = keep[-1].with_changes(comma=_comma_keeping_comment(keep[-1].comma, last_comma))
    new = module.with_changes(body=[stmt.with_changes(body=[small.with_changes(names=keep)])])
    return new.bytes


def _without_entries(statement: bytes, positions: set[int]) -> bytes:
    """``__all__ = [...]`` (its whole lines) without the string entries at ``positions`` (LibCST)."""
    module = cst.parse_module(statement)
    stmt = module.body[0]
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1 or not isinstance(stmt.body[0], cst.Assign):
        raise ValueError("__all__ shares its line with another statement")
    value = stmt.body[0].value
    if not isinstance(value, (cst.List, cst.Tuple)) or max(positions) >= len(value.elements) \
            or not all(isinstance(value.elements[p].value, cst.SimpleString) for p in positions):
        raise ValueError("__all__ is not the literal that was read")
    keep = [e for p, e in enumerate(value.elements) if p not in positions]
    if keep and keep[-1] is not value.elements[-1]:
        keep[-1] = keep[-1].with_changes(comma=value.elements[-1].comma)
    if not keep and isinstance(value, cst.Tuple):
        value = cst.List([], lbracket=cst.LeftSquareBracket(), rbracket=cst.RightSquareBracket())
    new = stmt.with_changes(body=[stmt.body[0].with_changes(value=value.with_changes(elements=keep))])
    return module.with_changes(body=[new]).bytes


def _comma_keeping_comment(own, last):
    """The last alias's comma (and the whitespace up to the parenthesis), with the kept alias's own comment."""
    if isinstance(own, cst.Comma) and isinstance(own.whitespace_after, cst.ParenthesizedWhitespace) \
            and isinstance(last.whitespace_after, cst.ParenthesizedWhitespace):
        return last.with_changes(whitespace_after=last.whitespace_after.with_changes(
            first_line=own.whitespace_after.first_line))
    return last
