"""A file's summary walks each syntax tree once: the walk is ``ast.walk``'s, shared only inside the block."""

from __future__ import annotations

import ast

from slimfork.index.walk import shared_walks, walk


def test_walk_is_ast_walk_and_shared_only_inside_the_block():
    tree = ast.parse("def f(x):\n    return [y for y in x]\nclass C:\n    a = f(1)\n")
    expected = [type(n) for n in ast.walk(tree)]
    assert [type(n) for n in walk(tree)] == expected
    assert walk(tree) is not walk(tree)  # outside the block: a fresh walk each time
    with shared_walks():
        first = walk(tree)
        with shared_walks():  # a nested block shares the outer one's walks
            assert walk(tree) is first
        inner = tree.body[0]
        assert walk(inner) is walk(inner) and walk(inner) is not first
        assert [type(n) for n in first] == expected
    assert walk(tree) is not first
