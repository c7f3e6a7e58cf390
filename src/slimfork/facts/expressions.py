"""``[facts.expressions]``: facts about arbitrary expressions, keyed by their source text and matched by
normalized AST equality (spacing, parentheses, quotes and line breaks do not matter; names are not resolved)."""

from __future__ import annotations

import ast

import libcst as cst

_EMPTY = cst.Module([])


def normalize(source: str) -> str | None:
    """The AST dump of an expression's source (None when it is not one expression)."""
    try:
        return ast.dump(ast.parse(f"(\n{source}\n)", mode="eval").body)
    except (SyntaxError, ValueError, RecursionError):
        return None


def normalize_node(node: cst.BaseExpression) -> str | None:
    return normalize(_EMPTY.code_for_node(node))


def trigger(source: str) -> str:
    """The longest identifier of the expression: code without it cannot contain the expression."""
    tree = ast.parse(f"(\n{source}\n)", mode="eval")
    words = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name)]
    words += [n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)]
    words += [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
              and n.value and "\\" not in n.value and "\n" not in n.value]
    return max(words, key=len) if words else source.strip()
