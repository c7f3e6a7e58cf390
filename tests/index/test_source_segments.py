"""``index.bindings.source_segments`` gives what ``ast.get_source_segment`` gives, for every node, splitting once."""

from __future__ import annotations

import ast

import pytest

from slimfork.index.bindings import source_segments

SOURCES = [
    "x = 1\ny = [1,\n     2]\n",
    "a = {'k': (1,\r\n 2)}\r\nb = a['k']\r\n",  # CRLF
    "a = 1\rb = (a +\r 2)\r",  # CR only
    "s = 'é' + \"ü\"  # wide characters shift byte offsets\nt = (s,\n  s)\n",
    "x = 1\x0c\ny = (x\n  + 1)\n",  # a form feed is not a line break for ast
    "def f(a,\n      b=[1, 2]):\n    return (a\n            + b)\n",
    "v = 1",  # no final newline
]


@pytest.mark.parametrize("text", SOURCES)
def test_segments_match_ast(text):
    segment = source_segments(text)
    nodes = [n for n in ast.walk(ast.parse(text)) if hasattr(n, "lineno")]
    assert nodes
    for node in nodes:
        assert segment(node) == ast.get_source_segment(text, node)


def test_node_without_position():
    assert source_segments("x = 1\n")(ast.Name("x")) is None
