"""Doctests in kept library docstrings that use what the fork removes (``--doctest-modules``): pytest runs every
docstring's examples, and one that passes a dropped entry point's name (pybtex's ``t.render_as("latex")``), reads a
name symbol pruning removed or imports a removed module fails in the fork. Those examples are cut from the
docstring, with each later example of the same docstring that reads a name one of them bound or read (its state
may come from the cut one); the prose and the other examples stay. A docstring is library text, not code: cutting
an example removes no behaviour, where keeping what it needs would undo the user's drop."""

from __future__ import annotations

import ast
import doctest
from dataclasses import dataclass, field

from slimfork.testsuite.scan import Unit, collect_uses


@dataclass
class DoctestCut:
    path: str
    module: str
    content: bytes  # the original with the examples cut
    cut: dict[str, list[int]] = field(default_factory=dict)  # doctest name -> the indexes of its examples cut
    emptied: list[str] = field(default_factory=list)  # doctest names left without examples (pytest drops them)
    reasons: dict[str, str] = field(default_factory=dict)  # doctest name -> why its first example cut goes


def cut_library_doctests(root, modules: dict[str, str], internal: set[str], library,
                         warnings: list[str]) -> list[DoctestCut]:
    """``modules``: the kept library modules pytest collects (name -> path); ``library``: the fork as tests see it
    (testsuite.library.Library); ``warnings`` gets the files whose examples could not be cut."""
    out = []
    for name, rel in sorted(modules.items()):
        source = (root / rel).read_bytes()
        if b">>>" not in source:
            continue
        plan: dict[str, list[int]] = {}
        reasons: dict[str, str] = {}
        for doc_name, text in _docstrings(source, name):
            if _owner_pruned(doc_name, name, library):
                continue  # its doctest goes with it (the pytest check knows)
            bad = _bad_examples(text, name, doc_name, internal, library)
            if bad:
                plan[doc_name] = sorted(bad)
                first = min(i for i, why in bad.items() if why)
                reasons[doc_name] = f"its example {first + 1} {bad[first]}"
        if not plan:
            continue
        cut = apply_doctest_cuts(source, name, plan)
        if cut is None:
            warnings.append(f"{rel}: doctest examples that use removed code not cut (a docstring's lines are not "
                            f"the source's: a backslash continuation or an escaped newline): {min(reasons.values())}")
            continue
        content, emptied = cut
        out.append(DoctestCut(rel, name, content, plan, emptied, reasons))
    return out


def _owner_pruned(doc_name: str, module: str, library) -> bool:
    parts = doc_name[len(module) + 1:].split(".") if doc_name != module else []
    return module not in library.fork or any((module, ".".join(parts[:i])) in library.pruned
                                             for i in range(1, len(parts) + 1))


def apply_doctest_cuts(source: bytes, module: str, plan: dict[str, list[int]]) -> tuple[bytes, list[str]] | None:
    """``source`` without the examples ``plan`` names (a later content of the file: the same docstrings), and the
    doctests left without examples; None where a docstring's lines are not its text's (escapes, continuations)."""
    try:
        text = source.decode("utf-8")
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    lines = text.splitlines(keepends=True)
    drop: set[int] = set()
    emptied = []
    for doc_name, node, value in _docstring_nodes(tree, module):
        if doc_name not in plan:
            continue
        examples = _examples(value)
        if examples is None or not _lines_match(node, value, lines):
            return None
        gone = [e for i, e in enumerate(examples) if i in plan[doc_name]]
        for example in gone:
            for offset in range(example.lineno, example.lineno + _lines(example)):
                at = node.lineno - 1 + offset
                if offset == 0 or at >= (node.end_lineno or 0) - 1:
                    return None  # the first or last line holds a quote
                if offset < example.lineno + example.source.count("\n") and \
                        lines[at].lstrip()[:3] != value.split("\n")[offset].lstrip()[:3]:
                    return None  # a prompt line that is not the source's
                drop.add(at)
        if len(gone) == len(examples):
            emptied.append(doc_name)
    return "".join(line for i, line in enumerate(lines) if i not in drop).encode("utf-8"), emptied


def _lines_match(node: ast.Constant, value: str, lines: list[str]) -> bool:
    """Whether each line of the string's value is one line of the source (escapes such as ``\\emph`` change a
    line's text, not its place; a backslash continuation or a ``\\n`` escape would move them)."""
    if node.end_lineno is None or value.count("\n") != node.end_lineno - node.lineno:
        return False
    return not any(line.rstrip("\r\n").endswith("\\") for line in lines[node.lineno - 1:node.end_lineno])


def _lines(example: doctest.Example) -> int:
    return example.source.count("\n") + example.want.count("\n")


def _examples(text: str) -> list[doctest.Example] | None:
    try:
        return doctest.DocTestParser().get_examples(text)
    except ValueError:  # an example pytest could not run either
        return None


def _docstrings(source: bytes, module: str) -> list[tuple[str, str]]:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    return [(name, value) for name, _, value in _docstring_nodes(tree, module) if ">>>" in value]


def _docstring_nodes(tree: ast.Module, module: str) -> list[tuple[str, ast.Constant, str]]:
    """The strings doctest's finder collects, by the name pytest gives their test: the module's docstring, those of
    its functions and classes and of the classes' methods (nested), and the values of a literal ``__test__``."""
    out: list[tuple[str, ast.Constant, str]] = []

    def visit(node, name: str) -> None:
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            out.append((name, body[0].value, body[0].value.value))
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if isinstance(stmt, ast.ClassDef) or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    visit(stmt, f"{name}.{stmt.name}")

    visit(tree, module)
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__test__" for t in stmt.targets) \
                and isinstance(stmt.value, ast.Dict):
            out += [(f"{module}.__test__.{k.value}", v, v.value) for k, v in zip(stmt.value.keys, stmt.value.values)
                    if isinstance(k, ast.Constant) and isinstance(k.value, str) and isinstance(v, ast.Constant)
                    and isinstance(v.value, str)]
    return out


def _bad_examples(text: str, module: str, doc_name: str, internal: set[str], library) -> dict[int, str]:
    """The examples of one docstring that use removed code -> why (empty for one cut with an earlier one)."""
    examples = _examples(text) or []
    trees: list[ast.Module | None] = []
    for example in examples:
        try:
            trees.append(ast.parse(example.source))
        except SyntaxError:
            trees.append(None)
    bound = {n for t in trees if t is not None for n in _bound(t)}
    own = {n: f"{module}.{n}" for n in library.original.get(module, ()) if n not in bound}
    bad: dict[int, str] = {}
    touched: set[str] = set()  # the example state the cut examples read or bound
    for i, tree in enumerate(trees):
        if tree is None:
            continue
        names = ({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | _bound(tree)) & bound
        why = _why(tree, doc_name, own, internal, library)
        if why or names & touched:
            bad[i] = why or ""
            touched |= names
    return bad


def _why(tree: ast.Module, doc_name: str, own: dict[str, str], internal: set[str], library) -> str | None:
    unit = Unit(doc_name, "test", 1, 1)
    collect_uses(tree, unit, internal, own)
    for use in unit.uses:
        why = library.broken(use.dotted)
        if why:
            return f"uses {why}"
    why = library.removed_key(unit)
    return f"uses {why}" if why else None


def _bound(tree: ast.Module) -> set[str]:
    out = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}
    out |= {(a.asname or a.name).split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
            for a in n.names if a.name != "*"}
    out |= {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    return out
