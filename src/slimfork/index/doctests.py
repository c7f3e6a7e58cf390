"""The ``>>>`` examples of a text (a docstring, a doctest file), parsed as doctest reads them."""

from __future__ import annotations

import ast
import doctest

_PARSER = doctest.DocTestParser()


def doctest_examples(text: str) -> list[ast.Module]:
    """Each example of ``text`` parsed, its lines those of ``text`` (one that does not parse is skipped: doctest
    would fail it too)."""
    if ">>>" not in text:
        return []
    try:
        examples = _PARSER.get_examples(text)
    except ValueError:  # inconsistent indentation: doctest cannot run it either
        return []
    out = []
    for example in examples:
        try:
            tree = ast.parse(example.source)
        except (SyntaxError, ValueError):
            continue
        ast.increment_lineno(tree, example.lineno)
        out.append(tree)
    return out


def doctest_sources(text: str) -> list[tuple[str, ast.Module | None]]:
    """Each example of ``text``: its source and its parse (None where it does not parse); [] when the text has
    none or doctest cannot read it."""
    if ">>>" not in text:
        return []
    try:
        examples = _PARSER.get_examples(text)
    except ValueError:
        return []
    out: list[tuple[str, ast.Module | None]] = []
    for example in examples:
        try:
            tree = ast.parse(example.source)
        except (SyntaxError, ValueError):
            out.append((example.source, None))
            continue
        ast.increment_lineno(tree, example.lineno)
        out.append((example.source, tree))
    return out
