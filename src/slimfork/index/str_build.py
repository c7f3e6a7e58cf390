"""A string built by ``%``, ``str.format``, ``sep.join``, ``string.Template`` or ``+`` as the f-string it equals (``"%s.drivers.%s" %
(__package__, d)`` is ``f"{__package__}.drivers.{d}"``), so the rules for f-string names apply to every spelling.
Only plain fields convert (``%s``, ``{}``/``{0}``/``{name}`` without a conversion or a format spec; ``%(name)s``,
``format_map`` and ``**`` over a dict literal, ``sep.join(filter(None, [...]))``: session 44; ``reversed([...])``,
``tuple([...])``, ``Formatter().vformat(text, (...), {...})``, ``dict(pkg=...)``, ``{0[pkg]}``: session 45); anything
else is returned as written."""

from __future__ import annotations

import ast
import re
import string


def as_fstring(node: ast.expr) -> ast.expr:
    parts = _parts(node)
    if parts is None or not any(isinstance(p, str) for p in parts):
        return node  # no literal piece: not known to build a string
    values: list[ast.expr] = []
    for part in parts:
        if isinstance(part, str):
            if values and isinstance(values[-1], ast.Constant):
                values[-1] = ast.Constant(str(values[-1].value) + part)
            elif part:
                values.append(ast.Constant(part))
        else:
            values.append(ast.FormattedValue(part, -1, None))
    return ast.copy_location(ast.JoinedStr(values), node)


def _parts(node: ast.expr) -> list[str | ast.expr] | None:
    """The pieces in order: literal text, or the expression of a computed piece; None for any other expression."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        out: list[str | ast.expr] = []
        for v in node.values:
            if isinstance(v, ast.FormattedValue) and (v.conversion != -1 or v.format_spec is not None):
                return None
            out.append(str(v.value) if isinstance(v, ast.Constant) else v.value if isinstance(v, ast.FormattedValue)
                       else v)
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _parts(node.left), _parts(node.right)
        return [*(left if left is not None else [node.left]), *(right if right is not None else [node.right])]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) \
            and isinstance(node.left.value, str):
        return _percent(node.left.value, node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in ("substitute", "safe_substitute") and (text := _template_text(node.func.value)):
        return _template(text, node)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "vformat" \
            and len(node.args) == 3 and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str) \
            and (items := _joined_items(node.args[1])) is not None and (named := _mapping(node.args[2])) is not None:
        # string.Formatter().vformat("{0}.backends.{1}", (__package__, "fast"), {}): as str.format
        return _format(node.args[0].value, ast.Call(node.func, items, [ast.keyword(k, v) for k, v in named.items()]))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _TRIMS \
            and not node.keywords and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args):
        inner = _parts(node.func.value)  # " pkg.x\n".strip(), "mod:pkg.x".removeprefix("mod:"): session 46
        return None if inner is None else _trimmed(inner, node.func.attr, [a.value for a in node.args])  # type: ignore
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "decode" \
            and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, bytes) \
            and node.func.value.value.isascii() and not node.keywords:  # b"pkg.x".decode()
        return [node.func.value.value.decode("ascii")]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Constant) \
            and isinstance(node.func.value.value, str):
        if node.func.attr == "format":
            return _format(node.func.value.value, node)
        if node.func.attr == "format_map" and len(node.args) == 1 and not node.keywords \
                and (named := _mapping(node.args[0])) is not None:  # "{pkg}.x".format_map({"pkg": __package__})
            return _format(node.func.value.value, ast.Call(node.func, [], [ast.keyword(k, v) for k, v in
                                                                               named.items()]))
        elts = _joined_items(node.args[0]) if node.func.attr == "join" and len(node.args) == 1 \
            and not node.keywords else None
        if elts and not any(isinstance(e, ast.Starred) for e in elts):
            sep, out = node.func.value.value, []
            for k, elt in enumerate(elts):
                out += ([sep] if k else []) + (_parts(elt) or [elt])
            return out
    return None


_TRIMS = ("strip", "lstrip", "rstrip", "removeprefix", "removesuffix")


def _trimmed(parts: list[str | ast.expr], method: str, args: list[str]) -> list[str | ast.expr] | None:
    """The pieces with ``method`` applied to the literal text at their start or end; None where it would cut into
    a computed piece (a prefix to remove before an expression: what is left is not known)."""
    if len(args) > 1 or method.startswith("remove") and len(args) != 1:
        return None
    out = list(parts)
    if method in ("strip", "lstrip", "removeprefix"):
        head = out[0]
        if not isinstance(head, str):
            return None if method == "removeprefix" else out if method == "lstrip" else _trimmed(out, "rstrip", args)
        out[0] = head.removeprefix(args[0]) if method == "removeprefix" else head.lstrip(*args)
    if method in ("strip", "rstrip", "removesuffix"):
        tail = out[-1]
        if not isinstance(tail, str):
            return None if method == "removesuffix" else out
        out[-1] = tail.removesuffix(args[0]) if method == "removesuffix" else tail.rstrip(*args)
    return out


def _mapping(node: ast.expr) -> dict[str, ast.expr] | None:
    """A dict literal with string keys (``{"pkg": __package__}``, ``dict(pkg=__package__)``) as its items."""
    if isinstance(node, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
        return {k.value: v for k, v in zip(node.keys, node.values)}  # type: ignore[union-attr]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args \
            and all(k.arg for k in node.keywords):  # dict(pkg=__package__)
        return {k.arg: k.value for k in node.keywords if k.arg}
    return None


def _joined_items(node: ast.expr) -> list[ast.expr] | None:
    """What ``sep.join`` joins: a list or tuple literal, or one filtered of its empty items (``filter(None, [...])``:
    the literal "" and None leave)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "filter" \
            and len(node.args) == 2 and isinstance(node.args[0], ast.Constant) and node.args[0].value is None:
        items = _joined_items(node.args[1])
        return None if items is None else [e for e in items if not (isinstance(e, ast.Constant) and not e.value)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "map" \
            and len(node.args) == 2 and isinstance(node.args[0], ast.Name) and node.args[0].id == "str":  # session 46
        return _joined_items(node.args[1])
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _SEQUENCE_CALLS \
            and len(node.args) == 1 and not node.keywords:  # reversed([...]), tuple([...]): session 45
        items = _joined_items(node.args[0])
        return None if items is None else items[::-1] if node.func.id == "reversed" else items
    return list(node.elts) if isinstance(node, (ast.List, ast.Tuple)) else None


_SEQUENCE_CALLS = ("reversed", "tuple", "list")


def _percent(text: str, right: ast.expr) -> list[str | ast.expr] | None:
    if "%(" in text and (named := _mapping(right)) is not None:  # "%(pkg)s.x" % {"pkg": __package__}
        return _percent_named(text, named)
    pieces = re.split(r"(%.)", text)
    fields = [p for p in pieces if p.startswith("%") and len(p) == 2 and p != "%%"]
    if any(f != "%s" for f in fields) or "%(" in text:
        return None
    as_tuple = isinstance(right, ast.Tuple) or isinstance(right, ast.Call) and isinstance(right.func, ast.Name) \
        and right.func.id == "tuple"  # "%s.%s" % tuple([__package__, "fast"])
    args = _joined_items(right) if as_tuple else [right] if len(fields) == 1 else None
    if args is None or len(args) != len(fields) or any(isinstance(a, ast.Starred) for a in args):
        return None
    out: list[str | ast.expr] = []
    it = iter(args)
    for p in pieces:
        out += ["%"] if p == "%%" else (_parts(a := next(it)) or [a]) if p == "%s" else [p]
    return out


def _percent_named(text: str, named: dict[str, ast.expr]) -> list[str | ast.expr] | None:
    out: list[str | ast.expr] = []
    for piece in re.split(r"(%%|%\(\w+\)s|%.)", text):
        if piece == "%%":
            out.append("%")
        elif piece.startswith("%(") and piece[2:-2] in named:
            out += _parts(value := named[piece[2:-2]]) or [value]
        elif piece.startswith("%") and len(piece) > 1:
            return None  # "%(name)d", a missing key or a positional field
        else:
            out.append(piece)
    return out


def _format(text: str, call: ast.Call) -> list[str | ast.expr] | None:
    spread = [_mapping(k.value) for k in call.keywords if k.arg is None]  # .format(**{"pkg": __package__})
    if any(isinstance(a, ast.Starred) for a in call.args) or None in spread:
        return None
    named = {k.arg: k.value for k in call.keywords if k.arg is not None}
    for mapping in spread:
        named.update(mapping or {})
    out: list[str | ast.expr] = []
    auto = 0
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        return None
    for literal, field, spec, conversion in parsed:
        out.append(literal)
        if field is None:
            continue
        if spec or conversion:
            return None
        if field == "":
            field, auto = str(auto), auto + 1
        head, _, key = field.partition("[")
        if key and key.endswith("]") and (found := _argument(head, call.args, named)) is not None \
                and (items := _mapping(found)) is not None and key[:-1] in items:  # "{0[pkg]}.x".format({"pkg": ...})
            value = items[key[:-1]]
        elif (found := _argument(field, call.args, named)) is not None:
            value = found
        elif "." in field and "[" not in field and (found := _argument(field.split(".")[0], call.args, named)) \
                is not None:  # "{0.pkg}.backends.{0.leaf}".format(ns): ns.pkg, a computed piece (session 46)
            value = found
            for attr in field.split(".")[1:]:
                value = ast.Attribute(value, attr, ast.Load())
        else:
            return None  # a missing argument
        out += _parts(value) or [value]
    return out


def _argument(field: str, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr | None:
    if field.isdigit():
        return args[int(field)] if int(field) < len(args) else None
    return named.get(field)


def _template_text(node: ast.expr) -> str | None:
    """The literal of ``string.Template("$pkg.mod")`` (or a bare ``Template(...)``)."""
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords \
            and (isinstance(node.func, ast.Name) and node.func.id == "Template"
                 or isinstance(node.func, ast.Attribute) and node.func.attr == "Template") \
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        return node.args[0].value
    return None


def _template(text: str, call: ast.Call) -> list[str | ast.expr] | None:
    """``Template(text).substitute(name=value, ...)``, or over a dict literal (``substitute({"pkg": __package__})``,
    ``**{...}``)."""
    mappings = [_mapping(a) for a in call.args] + [_mapping(k.value) for k in call.keywords if k.arg is None]
    if len(call.args) > 1 or None in mappings:
        return None
    named = {k.arg: k.value for k in call.keywords if k.arg is not None}
    for mapping in mappings:
        named = {**(mapping or {}), **named}
    out: list[str | ast.expr] = []
    for piece in re.split(r"(\$\$|\$\w+|\$\{\w+\})", text):
        if piece == "$$":
            out.append("$")
        elif piece.startswith("$"):
            value = named.get(piece.strip("${}"))
            if value is None:
                return None
            out += _parts(value) or [value]
        else:
            out.append(piece)
    return out
