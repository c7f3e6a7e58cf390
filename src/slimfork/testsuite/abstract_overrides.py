"""A cut test method that overrides an abstract one: pybtex 0.26.1's ``TestText(TextTestMixin, TestCase)`` defines
``test_render_as``, which renders as HTML; with the HTML backend gone the stage cut it, and pytest then ran the
mixin's ``@abstractmethod`` placeholder for ``TestText`` (``raise NotImplementedError``: a new failure). The
placeholder goes too: an override the file keeps is unchanged, and a class that inherits it unchanged was abstract
(or failing) in the original already."""

from __future__ import annotations

import ast
from pathlib import Path

from slimfork.testsuite.decide import REMOVED, TestDecisions, TestRemoval
from slimfork.testsuite.scan import TestFile


def cut_abstract_placeholders(root: Path, files: dict[str, TestFile], decisions: TestDecisions) -> None:
    """Add to ``decisions`` the abstract methods of a file's classes that a cut override of the same file inherits."""
    gone_files = decisions.removed_files()
    cut: dict[str, set[str]] = {}
    for path, qualname in decisions.removed_units():
        if path not in gone_files and qualname.count(".") == 1 and " " not in qualname:
            cut.setdefault(path, set()).add(qualname)
    for path, qualnames in sorted(cut.items()):
        tf = files.get(path)
        if tf is None or not tf.bases:
            continue
        abstract, sizes = _abstract_methods(root / path)
        added: set[str] = set()
        for qualname in sorted(qualnames):
            cls, method = qualname.split(".")
            base = next((b for b in _bases(tf.bases, cls) if method in abstract.get(b, set())), None)
            if base is None or f"{base}.{method}" in qualnames | added:
                continue
            if sum(q.startswith(base + ".") for q in qualnames | added) + 1 < sizes[base]:
                added.add(f"{base}.{method}")
                decisions.removals.append(TestRemoval(path, f"{base}.{method}", REMOVED, (
                    f"an abstract placeholder the cut {qualname} overrode (pytest would run it for {cls})")))
            elif cls not in added:  # the base would be left empty: the class that inherits the placeholder goes
                added.add(cls)
                decisions.removals.append(TestRemoval(path, cls, REMOVED, (
                    f"its cut {method} overrode the abstract {base}.{method}, which pytest would run instead")))


def _bases(bases: dict[str, list[str]], cls: str) -> list[str]:
    """The classes of the file ``cls`` derives from, nearest first."""
    out: list[str] = []
    todo = list(bases.get(cls, []))
    while todo:
        base = todo.pop(0)
        if base not in out:
            out.append(base)
            todo += bases.get(base, [])
    return out


def _abstract_methods(path: Path) -> tuple[dict[str, set[str]], dict[str, int]]:
    """Class -> its methods decorated ``@abstractmethod`` (``abc.abstractmethod``); class -> its statements."""
    try:
        tree = ast.parse(path.read_bytes())
    except (SyntaxError, ValueError):
        return {}, {}
    out: dict[str, set[str]] = {}
    sizes: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            out[node.name] = {f.name for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                              and any(_is_abstract(d) for d in f.decorator_list)}
            sizes[node.name] = len(node.body)
    return out, sizes


def _is_abstract(decorator: ast.expr) -> bool:
    return isinstance(decorator, ast.Name) and decorator.id == "abstractmethod" or \
        isinstance(decorator, ast.Attribute) and decorator.attr == "abstractmethod"
