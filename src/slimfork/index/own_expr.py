"""Module names computed from the module's own name by plain string operations: ``".".join(__name__.split(".")[:-1]
+ ["impl"])``, ``__name__[:-len("app")] + "impl"``, ``importlib.util.resolve_name(".impl", __package__)``,
``type(self).__module__.replace(".api.", ".impls.")``. The index cannot evaluate them (a summary is cached by the
file's content, whatever its module's name), so it stores the expression as the target ``{=EXPR}``, its names
bound once (locals and module constants) written in; the graph evaluates it with the module's name
(``evaluate_own``). Only literals, the own name and an allow-list of string operations evaluate (session 45:
starred items, ``os.path.join``, ``os.sep``, ``re.sub`` of literals); anything else leaves the import as a name
computed at run time."""

from __future__ import annotations

import ast
import copy
import importlib.util
import posixpath
import re

MARK = "{="
_OWN = frozenset({"__name__", "__package__"})
_METHODS = frozenset({"split", "rsplit", "partition", "rpartition", "replace", "removesuffix", "removeprefix",
                      "strip", "lstrip", "rstrip", "join", "lower", "upper", "format", "casefold", "translate",
                      "decode", "encode"})
_SEQUENCES = frozenset({"list", "tuple", "reversed", "sorted", "iter", "itertools.chain", "chain"})
_CLASS_MODULE = frozenset({"type(self).__module__", "self.__class__.__module__", "cls.__module__",
                           "__class__.__module__", "type(cls).__module__", "self.__module__"})
_MAX = 500  # characters of any value evaluated: a name, never a computation
_SEPARATORS = frozenset({"os.sep", "os.path.sep", "posixpath.sep"})
_PATH_JOINS = frozenset({"os.path.join", "posixpath.join", "path.join"})


class _Unknown(Exception):
    """The expression holds something the evaluator does not compute."""


def own_expression(node: ast.expr, bound: dict[str, ast.expr]) -> tuple[str, bool] | None:
    """(``{=EXPR}``, whether what the import keeps otherwise must stay too: it reads the module of an instance's
    class, which a subclass elsewhere changes, or failed with a made-up name) for an argument computed from the
    module's own name alone; ``bound``: names bound once to an expression, written in."""
    inlined = _inline(node, bound, 4)
    try:
        text = ast.unparse(inlined)
    except ValueError:  # Python 3.11 cannot write a backslash inside an f-string's expression: as a concatenation
        try:
            text = ast.unparse(_concatenated(inlined))
        except ValueError:
            return None
    via_class = any(c in text for c in _CLASS_MODULE)
    if not via_class and not any(own in text for own in (*_OWN, "__spec__")):
        literal = constant_string(inlined)  # "pkg/backends/fast".translate(...), "xx.pkg.fastyy"[2:-2]: session 47
        return (MARK + text + "}", False) if literal else None
    failed = False
    try:
        value: object = _eval(inlined, {"__name__": "a.b.c", "__package__": "a.b"})
    except _Unknown:
        return None
    except Exception:  # an error with this made-up name (an index out of range): the real one may work
        value, failed = "", True
    return (MARK + text + "}", via_class or failed) if isinstance(value, str) else None


def evaluate_own(target: str, name: str, package: str) -> str | None:
    """The module name a ``{=EXPR}`` target gives for the module ``name`` of package ``package`` (None: unknown)."""
    try:
        value = _eval(ast.parse(target[len(MARK):-1], mode="eval").body, {"__name__": name, "__package__": package})
    except Exception:
        return None
    return value if isinstance(value, str) and value else None


def constant_string(node: ast.expr) -> str | None:
    """A string computed from literals alone (``"pkg" + ".fakes"``, ``".".join(["pkg", "fakes"])``), else None."""
    try:
        value = _eval(node, {})
    except Exception:
        return None
    return value if isinstance(value, str) else None


def module_bindings(tree: ast.Module) -> dict[str, ast.expr]:
    """Module-level names bound exactly once in the whole file, by a plain ``NAME = value``: name -> value."""
    stores: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for n in node.names:
                stores[n] = stores.get(n, 0) + 2
    return {s.targets[0].id: s.value for s in tree.body if isinstance(s, ast.Assign) and len(s.targets) == 1
            and isinstance(s.targets[0], ast.Name) and stores.get(s.targets[0].id) == 1}


def _inline(node: ast.expr, bound: dict[str, ast.expr], depth: int) -> ast.expr:
    if depth <= 0 or not bound:
        return node

    class _Writer(ast.NodeTransformer):
        def visit_Name(self, name: ast.Name) -> ast.expr:
            value = bound.get(name.id)
            return _inline(value, bound, depth - 1) if value is not None and isinstance(name.ctx, ast.Load) else name

    return _Writer().visit(_copy(node))


def _copy(node: ast.expr) -> ast.expr:
    return copy.deepcopy(node)


def _concatenated(node: ast.expr) -> ast.expr:
    """The expression with its plain f-strings written as ``+`` of their pieces (``f"{a}.x"``: ``str(a) + ".x"``)."""

    class _Writer(ast.NodeTransformer):
        def visit_JoinedStr(self, joined: ast.JoinedStr) -> ast.expr:
            out: ast.expr = ast.Constant("")
            for v in joined.values:
                if isinstance(v, ast.FormattedValue) and v.conversion == -1 and v.format_spec is None:
                    v = ast.Call(ast.Name("str", ast.Load()), [self.visit(v.value)], [])
                elif not isinstance(v, ast.Constant):
                    return joined
                out = ast.BinOp(out, ast.Add(), v)
            return out

    return _Writer().visit(node)


def _eval(node: ast.expr, env: dict[str, str]) -> object:
    value = _value(node, env)
    if isinstance(value, (str, bytes, list, tuple, dict)) and len(value) > _MAX:
        raise _Unknown
    return value


def _value(node: ast.expr, env: dict[str, str]) -> object:
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes, int, type(None))):
        return node.value
    if isinstance(node, ast.Dict) and None not in node.keys:  # ".".join({"pkg": 1, "fast": 2}): its keys
        return {_eval(k, env): _eval(v, env) for k, v in zip(node.keys, node.values)}  # type: ignore[arg-type]
    if isinstance(node, ast.Name) and node.id in env:
        return env[node.id]
    text = ast.unparse(node) if isinstance(node, ast.Attribute) else ""
    if text in ("__spec__.name", *_CLASS_MODULE):
        return env["__name__"]
    if text == "__spec__.parent":
        return env["__package__"]
    if text in _SEPARATORS:  # os.sep: a POSIX run
        return "/"
    if isinstance(node, (ast.List, ast.Tuple)):
        items: list[object] = []
        for e in node.elts:  # [*__name__.split(".")[:-1], "impl"]: the starred items spliced in
            spliced = _eval(e.value, env) if isinstance(e, ast.Starred) else None
            if isinstance(e, ast.Starred) and not isinstance(spliced, (list, tuple)):
                raise _Unknown
            items += list(spliced) if isinstance(spliced, (list, tuple)) else [_eval(e, env)]
        return items if isinstance(node, ast.List) else tuple(items)
    if isinstance(node, ast.JoinedStr):
        return "".join(_piece(v, env) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mod)):
        left, right = _eval(node.left, env), _eval(node.right, env)
        if isinstance(node.op, ast.Add) and type(left) is type(right) and isinstance(left, (str, bytes, int, list,
                                                                                           tuple)):
            return left + right  # type: ignore[operator]
        if isinstance(node.op, ast.Sub) and isinstance(left, int) and isinstance(right, int):
            return left - right
        if isinstance(node.op, ast.Mod) and isinstance(left, str) and isinstance(right, (str, tuple)):
            return left % right
        raise _Unknown
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        operand = _eval(node.operand, env)
        if isinstance(operand, int):
            return -operand
        raise _Unknown
    if isinstance(node, ast.Subscript):
        return _subscript(node, env)
    if isinstance(node, ast.Call):
        return _call(node, env)
    if isinstance(node, ast.GeneratorExp) and len(node.generators) == 1 and not node.generators[0].ifs \
            and isinstance(node.elt, ast.Name) and isinstance(node.generators[0].target, ast.Name) \
            and node.elt.id == node.generators[0].target.id:  # (p for p in (__package__, "impl"))
        found = _eval(node.generators[0].iter, env)
        if isinstance(found, (list, tuple)):
            return list(found)
    raise _Unknown


def _piece(node: ast.expr, env: dict[str, str]) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.FormattedValue) and node.conversion == -1 and node.format_spec is None:
        value = _eval(node.value, env)
        if isinstance(value, (str, int)):
            return str(value)
    raise _Unknown


def _subscript(node: ast.Subscript, env: dict[str, str]) -> object:
    value = _eval(node.value, env)
    if isinstance(value, dict) and not isinstance(node.slice, ast.Slice):
        key = _eval(node.slice, env)
        if key not in value:
            raise _Unknown
        return value[key]
    if not isinstance(value, (str, list, tuple)):
        raise _Unknown
    if isinstance(node.slice, ast.Slice):
        bounds = [None if b is None else _eval(b, env) for b in (node.slice.lower, node.slice.upper, node.slice.step)]
        ints = [b for b in bounds if b is None or isinstance(b, int)]
        if len(ints) != 3:
            raise _Unknown
        return value[slice(*ints)]
    index = _eval(node.slice, env)
    if not isinstance(index, int):
        raise _Unknown
    return value[index]


def _call(node: ast.Call, env: dict[str, str]) -> object:
    func = node.func
    if isinstance(func, ast.Name) and func.id == "map" and len(node.args) == 2 and not node.keywords \
            and isinstance(node.args[0], ast.Name) and node.args[0].id in ("chr", "str") \
            and isinstance(node.args[1], (ast.List, ast.Tuple)):  # map(chr, [46, 98, ...])
        return [_call(ast.Call(node.args[0], [e], []), env) for e in node.args[1].elts]
    args = [_eval(a, env) for a in node.args]
    keywords = {k.arg: _eval(k.value, env) for k in node.keywords if k.arg}
    if len(keywords) != len(node.keywords) or not all(isinstance(v, (str, int, type(None))) for v in keywords.values()):
        raise _Unknown
    called = ast.unparse(func)
    if keywords and not (isinstance(func, ast.Attribute) and func.attr in _METHODS):
        raise _Unknown
    if called == "len" and len(args) == 1 and isinstance(args[0], (str, list, tuple)):
        return len(args[0])
    if called == "str" and len(args) == 1 and isinstance(args[0], (str, int)):
        return str(args[0])
    if called.rpartition(".")[2] == "resolve_name" and len(args) == 2 and all(isinstance(a, str) for a in args):
        return importlib.util.resolve_name(*args)  # type: ignore[arg-type]
    strings = [a for a in args if isinstance(a, str)]
    if called in _PATH_JOINS and args and len(strings) == len(args):  # os.path.join(__package__, "impl")
        return posixpath.join(*strings)
    if called == "re.sub" and len(strings) == len(args) == 3:  # re.sub(r"\.py$", "", "backends/fast.py")
        return re.sub(strings[0], strings[1], strings[2])
    sequences = [a for a in args if isinstance(a, (str, list, tuple, dict))]
    if called in _SEQUENCES and len(sequences) == len(args):
        items = [x for a in sequences for x in a] if "chain" in called else list(sequences[0]) if len(args) == 1 \
            else None
        if items is None:
            raise _Unknown
        return items[::-1] if called == "reversed" else sorted(items) if called == "sorted" else items
    if called == "next" and len(args) == 1 and isinstance(args[0], list) and args[0]:
        return args[0][0]
    if called == "chr" and len(args) == 1 and isinstance(args[0], int) and 0 < args[0] < 0x110000:
        return chr(args[0])
    if called == "str.maketrans" and 1 <= len(args) <= 3 and all(isinstance(a, str) for a in args):
        return str.maketrans(*args)  # type: ignore[call-overload]
    if not isinstance(func, ast.Attribute) or func.attr not in _METHODS:
        raise _Unknown
    receiver = _eval(func.value, env)
    if not isinstance(receiver, (str, bytes)) or not all(isinstance(a, (str, int, list, tuple, dict)) for a in args):
        raise _Unknown
    if func.attr == "join" and not (len(args) == 1 and isinstance(args[0], (list, tuple, dict))
                                    and all(isinstance(a, type(receiver)) for a in args[0])):
        raise _Unknown
    if func.attr == "translate" and not (len(args) == 1 and isinstance(args[0], dict)):
        raise _Unknown
    value = getattr(receiver, func.attr)(*args, **keywords)
    if isinstance(value, str) and len(value) > _MAX:
        raise _Unknown
    return value
