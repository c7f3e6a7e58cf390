"""Drop the known terms of a partly known ``#if``/``#elif`` expression that unifdef leaves as it is.

unifdef folds a conditional only when the facts decide its whole expression; a line such as
``#if defined __CUDA_ARCH__ && __CUDA_ARCH__ >= 610 || defined USE_ROCM`` is unknown as a whole, so unifdef
passes it through, ROCm term included. This module removes exactly the operands that cannot change the
result (a known-false operand of ``||``, a known-true operand of ``&&``) and keeps every other operand's text
byte for byte: ``#if defined __CUDA_ARCH__ && __CUDA_ARCH__ >= 610``. It understands the subset of
expression syntax unifdef documents (integers, macros, ``defined``, ``!``, comparisons, ``&&``, ``||``,
parentheses, function-like macro calls); anything else leaves the line unchanged (unknown means keep).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from slimfork.kernels.spec import PreprocessorFacts


class Unparsable(Exception):
    pass


_TOKEN = re.compile(r"\s*(?:(?P<num>0[xX][0-9a-fA-F]+[uUlL]*|[0-9]+[uUlL]*)|(?P<id>[A-Za-z_][A-Za-z0-9_]*)"
                    r"|(?P<op>&&|\|\||<=|>=|==|!=|[!<>(),]))")
_CMP = {"<": lambda a, b: a < b, ">": lambda a, b: a > b, "<=": lambda a, b: a <= b,
        ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


@dataclass
class Node:
    kind: str  # "or", "and", "not", "cmp", "defined", "ident", "num", "call", "paren"
    start: int
    end: int
    items: list["Node"] = field(default_factory=list)
    text: str = ""  # macro name, number or operator


def _tokens(expr: str) -> list[tuple[str, str, int, int]]:
    out, pos = [], 0
    while pos < len(expr):
        if expr[pos:].strip() == "":
            break
        match = _TOKEN.match(expr, pos)
        if not match:
            raise Unparsable(expr[pos:])
        kind = match.lastgroup or ""
        out.append((kind, match.group(kind), match.start(kind), match.end(kind)))
        pos = match.end()
    return out


class _Parser:
    def __init__(self, expr: str):
        self.toks = _tokens(expr)
        self.i = 0

    def peek(self, text: str | None = None) -> bool:
        return self.i < len(self.toks) and (text is None or self.toks[self.i][1] == text)

    def take(self, text: str | None = None) -> tuple[str, str, int, int]:
        if not self.peek(text):
            raise Unparsable(text or "end of expression")
        self.i += 1
        return self.toks[self.i - 1]

    def parse(self) -> Node:
        node = self.chain("||", "or", lambda: self.chain("&&", "and", self.compare))
        if self.peek():
            raise Unparsable(self.toks[self.i][1])
        return node

    def chain(self, op: str, kind: str, operand) -> Node:
        items = [operand()]
        while self.peek(op):
            self.take(op)
            items.append(operand())
        return items[0] if len(items) == 1 else Node(kind, items[0].start, items[-1].end, items)

    def compare(self) -> Node:
        left = self.unary()
        while self.peek() and self.toks[self.i][1] in _CMP:
            op = self.take()[1]
            right = self.unary()
            left = Node("cmp", left.start, right.end, [left, right], op)
        return left

    def unary(self) -> Node:
        if self.peek("!"):
            start = self.take()[2]
            operand = self.unary()
            return Node("not", start, operand.end, [operand])
        return self.primary()

    def primary(self) -> Node:
        kind, text, start, end = self.take()
        if text == "(":
            inner = self.chain("||", "or", lambda: self.chain("&&", "and", self.compare))
            return Node("paren", start, self.take(")")[3], [inner])
        if kind == "num":
            return Node("num", start, end, text=text)
        if kind != "id":
            raise Unparsable(text)
        if text == "defined":
            if self.peek("("):
                self.take("(")
                name = self.take()
                close = self.take(")")
                if name[0] != "id":
                    raise Unparsable(name[1])
                return Node("defined", start, close[3], text=name[1])
            name = self.take()
            if name[0] != "id":
                raise Unparsable(name[1])
            return Node("defined", start, name[3], text=name[1])
        if self.peek("("):  # a function-like macro call: always unknown
            depth, stop = 0, end
            while True:
                tok = self.take()
                depth += {"(": 1, ")": -1}.get(tok[1], 0)
                stop = tok[3]
                if depth == 0:
                    break
            return Node("call", start, stop, text=text)
        return Node("ident", start, end, text=text)


def _number(text: str) -> int:
    return int(text.rstrip("uUlL"), 0) if not re.match(r"^0[0-7]+", text) else int(text.rstrip("uUlL"), 8)


class Evaluator:
    """Three-valued evaluation: an int when the facts decide the value, None when they do not."""

    def __init__(self, facts: PreprocessorFacts):
        self.facts = facts

    def macro(self, name: str, depth: int = 0) -> int | None:
        if name in self.facts.undefined:
            return 0
        value = self.facts.defined.get(name)
        if value is None or depth > 4:
            return None
        if re.match(r"^-?[0-9]", value):
            return _number(value.lstrip("-")) * (-1 if value.startswith("-") else 1)
        return self.macro(value, depth + 1)

    def value(self, node: Node) -> int | None:
        kind = node.kind
        if kind == "num":
            return _number(node.text)
        if kind == "ident":
            return self.macro(node.text)
        if kind == "defined":
            return 1 if node.text in self.facts.defined else 0 if node.text in self.facts.undefined else None
        if kind == "call":
            return None
        if kind == "paren":
            return self.value(node.items[0])
        if kind == "not":
            inner = self.value(node.items[0])
            return None if inner is None else int(inner == 0)
        if kind == "cmp":
            left, right = (self.value(item) for item in node.items)
            return None if left is None or right is None else int(_CMP[node.text](left, right))
        values = [self.value(item) for item in node.items]
        absorbing = 1 if kind == "or" else 0  # the operand value that decides the chain
        if any(v is not None and (v != 0) == bool(absorbing) for v in values):
            return absorbing
        return None if any(v is None for v in values) else 1 - absorbing

    def uses_facts(self, node: Node) -> bool:
        """Whether a known macro decides part of ``node`` (constant-only terms such as ``1`` are left alone)."""
        if node.kind in ("defined", "ident"):
            return node.text in self.facts.known()
        return any(self.uses_facts(item) for item in node.items)

    def render(self, node: Node, expr: str) -> str:
        """The expression text with neutral known operands removed; untouched parts keep their bytes."""
        original = expr[node.start:node.end]
        if node.kind in ("or", "and"):
            neutral = 0 if node.kind == "or" else 1
            kept = [item for item in node.items if not self.uses_facts(item)
                    or (v := self.value(item)) is None or (v != 0) != bool(neutral)]
            if len(kept) == len(node.items):
                parts = [self.render(item, expr) for item in node.items]
                if all(p == expr[i.start:i.end] for p, i in zip(parts, node.items)):
                    return original
                # Re-join with the original separators (operators and their spacing).
                out, pos = [], node.start
                for item, part in zip(node.items, parts):
                    out.append(expr[pos:item.start] + part)
                    pos = item.end
                return "".join(out)
            joiner = " || " if node.kind == "or" else " && "
            out = []
            for k, item in enumerate(kept):
                if k:
                    adjacent = node.items.index(item) == node.items.index(kept[k - 1]) + 1
                    out.append(expr[kept[k - 1].end:item.start] if adjacent else joiner)
                out.append(self.render(item, expr))
            return "".join(out)
        if node.kind in ("paren", "not"):
            inner = node.items[0]
            return expr[node.start:inner.start] + self.render(inner, expr) + expr[inner.end:node.end]
        return original


_DIRECTIVE = re.compile(r"^(?P<head>[ \t]*#[ \t]*(?:if|elif)\b[ \t]*)(?P<rest>.*?)(?P<eol>\r?\n|\r)?$", re.S)


def reduce_directive(line: str, facts: PreprocessorFacts) -> str | None:
    """The ``#if``/``#elif`` line with its neutral known operands removed, or None to leave it as it is.

    None when the line is not such a directive, spans lines, cannot be parsed, is decided as a whole
    (unifdef's job) or contains no known operand that can be removed.
    """
    match = _DIRECTIVE.match(line)
    if not match:
        return None
    rest = match.group("rest")
    cut = min((i for i in (rest.find("//"), rest.find("/*")) if i >= 0), default=len(rest))
    expr, tail = rest[:cut], rest[cut:]
    if rest.endswith("\\") or ("/*" in tail and "*/" not in tail[tail.find("/*") + 2:]):
        return None
    stripped = expr.rstrip()
    tail = expr[len(stripped):] + tail
    try:
        node = _Parser(stripped).parse()
    except (Unparsable, ValueError):
        return None
    evaluator = Evaluator(facts)
    if evaluator.value(node) is not None:
        return None
    new_expr = evaluator.render(node, stripped)
    if new_expr == stripped:
        return None
    return match.group("head") + new_expr + tail + (match.group("eol") or "")


def mentions(line: str, names: set[str]) -> bool:
    return any(word in names for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", line))
