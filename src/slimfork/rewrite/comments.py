"""Comments of a LibCST subtree, so that every comment an edit drops can be accounted for."""

from __future__ import annotations

from collections import Counter

import libcst as cst


class _Comments(cst.CSTVisitor):
    def __init__(self):
        self.found: Counter[str] = Counter()

    def visit_Comment(self, node: cst.Comment) -> None:
        self.found[node.value.strip()] += 1


def comments_of(*nodes) -> Counter[str]:
    visitor = _Comments()
    for node in nodes:
        if isinstance(node, cst.CSTNode):
            node.visit(visitor)
        elif isinstance(node, (list, tuple)):
            for item in node:
                if isinstance(item, cst.CSTNode):
                    item.visit(visitor)
    return visitor.found
