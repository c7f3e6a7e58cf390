"""Submodules a module names from its own name: ``f"{__name__}.ops"`` and ``__package__ + ".impl"`` become the
placeholders ``{__name__}.ops`` and ``{__package__}.impl``, which the graph fills in (``ModuleInfo.fill_own``).
Through a module constant derived from it (``_PKG = __name__.rsplit(".", 1)[0]``, then
``f"{_PKG}._{vendor}.ops"``: Liger-Kernel's vendor backends) the name is a pattern, ``{__parent__}._*.ops``."""

from __future__ import annotations

import ast
import re
from slimfork.index.str_build import as_fstring
from slimfork.index.walk import walk

_TAIL = re.compile(r"(?:\.[A-Za-z_]\w*)+")


def own_submodule(node: ast.AST) -> str | None:
    """The placeholder name an f-string or a concatenation of ``__name__``/``__package__`` and a literal gives."""
    if isinstance(node, ast.JoinedStr) and len(node.values) == 2:
        head, tail = node.values
        head = head.value if isinstance(head, ast.FormattedValue) else head
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        head, tail = node.left, node.right
    else:
        return None
    own = own_name(head)
    if own is not None and isinstance(tail, ast.Constant) and isinstance(tail.value, str) and _TAIL.fullmatch(tail.value):
        return own + tail.value
    return None


_RESOLVERS = frozenset({"resolve_name", "import_string", "locate", "import_object", "load_object"})


def own_lookup(node: ast.Call) -> str | None:
    """A call that reads the module's own namespace by a name computed at run time: ``import_module(__name__)``
    ("": any name), ``pkgutil.resolve_name(f"{__name__}:_impl_{kind}")`` or ``resolve_name(__name__ + ":" + x)``
    (the literal text after the separator: "_impl_", ""). None for any other call."""
    func = node.func
    called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if not node.args or called not in _RESOLVERS | {"import_module"}:
        return None
    pieces = _flat(node.args[0])
    if not pieces or not isinstance(pieces[0], ast.expr) or own_name(pieces[0]) != "{__name__}":
        return None
    if called == "import_module":
        return "" if len(pieces) == 1 else None
    text = ""
    for piece in pieces[1:]:
        if not isinstance(piece, str):
            break
        text += piece
    if text[:1] not in (":", ".") or len(pieces) == 1 or text[0] == "." and set(".:") & set(text[1:]):
        return None  # f"{__name__}.sub:{x}": a submodule's name
    return re.match(r"\w*", text[1:]).group()  # type: ignore[union-attr]


def rendered_code(node: ast.expr) -> str | None:
    """An f-string or a ``+`` chain as text: its literal pieces, the module's own name as a placeholder
    (``{__package__}``) and each other computed piece as ``*``; None unless it mixes literal text and a computed
    piece (``f"from {__package__}.runtime import helper"`` -> ``from {__package__}.runtime import helper``)."""
    if not isinstance(node, ast.JoinedStr) and not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)):
        return None
    pieces = _flat(node)
    if not any(isinstance(p, str) for p in pieces) or all(isinstance(p, str) for p in pieces):
        return None
    return "".join(p if isinstance(p, str) else own_name(p) or "*" for p in pieces)


_BUILT_IMPORT = re.compile(r"(?:^|[\s;])(?:from\s+(\S+)\s+import\b|import\s+(\S+)|(-m)\s+(\S+))")
_BUILT_NAME = re.compile(r"(?:\{__\w+__\}|[A-Za-z_])[\w.]*(?:\*[\w.*]*)?")


def built_imports(node: ast.expr) -> list[tuple[str, bool]]:
    """(name, run as ``-m``) for each module that code built in an f-string, a ``+`` chain, ``str.format``, ``%``
    or ``Template.substitute`` (session 47: a ``-c`` child's code) imports or runs (``rendered_code``):
    ``{__package__}.runtime``, ``pkg.tasks.*`` (a computed part), ``{__package__}.backends.fast`` of ``from
    {__package__}.backends import fast``; a name that starts computed (``f"import {name} failed"``) is left out."""
    text = rendered_code(as_fstring(node) if isinstance(node, (ast.Call, ast.BinOp)) else node)
    if text is None or ("import " not in text and "-m " not in text):
        return []
    out = []
    for m in _BUILT_IMPORT.finditer(text):
        found = _BUILT_NAME.match(m.group(1) or m.group(2) or m.group(4))
        name = found.group().rstrip(".") if found else ""
        if name and not name.startswith("*"):
            out.append((name, bool(m.group(3))))
    out += [(name, False) for name in from_submodules(text) if not name.startswith("*") and "*" not in name]
    return out


_FROM_NAMES = re.compile(r"(?:^|[\s;])from\s+(\S+)\s+import\s+\(?\s*"
                         r"(\w+(?:\s+as\s+\w+)?(?:\s*,\s*\w+(?:\s+as\s+\w+)?)*)")


def from_submodules(code: str) -> list[str]:
    """``from pkg.backends import fast`` in code held as text: ``pkg.backends.fast``, a name or a submodule."""
    return [f"{m.group(1)}.{n.split()[0]}" for m in _FROM_NAMES.finditer(code) if not m.group(1).startswith(".")
            for n in m.group(2).split(",") if n.strip()]


def _flat(node: ast.expr) -> list[ast.expr | str]:
    """An f-string or a ``+`` chain as its pieces: literal text, or the expression of a computed piece."""
    if isinstance(node, ast.JoinedStr):
        return [str(v.value) if isinstance(v, ast.Constant) else v.value if isinstance(v, ast.FormattedValue)
                else v for v in node.values]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _flat(node.left) + _flat(node.right)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    return [node]


flat_pieces = _flat


def own_submodules(tree: ast.Module) -> list[tuple[str, int]]:
    """Every such name in ``tree``, with its line."""
    derived = derived_names(tree)
    out = []
    for node in walk(tree):
        name = own_submodule(node) or (own_pattern(node, derived) if derived else None)
        if name is not None:
            out.append((name, getattr(node, "lineno", 0)))
    return out


def own_name(node: ast.expr) -> str | None:
    """A module's name or its parent's, as a placeholder: ``__name__``, ``__package__``, ``__spec__.name`` and
    ``.parent``,
    ``__name__.rsplit(".", 1)[0]``, ``__name__.rpartition(".")[0]`` (``{__parent__}``)."""
    if isinstance(node, ast.Name) and node.id in ("__name__", "__package__"):
        return "{%s}" % node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "__spec__" \
            and node.attr in ("name", "parent"):
        return "{__name__}" if node.attr == "name" else "{__package__}"
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call) and ast.unparse(node.value) in (
            "__name__.rsplit('.', 1)", "__name__.rpartition('.')") and ast.unparse(node.slice) == "0":
        return "{__parent__}"
    return None


def derived_names(tree: ast.Module) -> dict[str, str]:
    """Module-level names bound to the module's own name or its parent's: name -> placeholder."""
    return {stmt.targets[0].id: own for stmt in tree.body if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and (own := own_name(stmt.value)) is not None}


def own_pattern(node: ast.AST, derived: dict[str, str]) -> str | None:
    """``f"{_PKG}._{vendor}.ops"`` -> ``{__parent__}._*.ops``: a computed part is ``*``; one that ends computed
    (``f"{_PKG}.{name}"``, a logger's name as often as a module's) names nothing."""
    if not isinstance(node, ast.JoinedStr) or len(node.values) < 3:
        return None
    head, *rest = node.values
    if not (isinstance(head, ast.FormattedValue) and isinstance(head.value, ast.Name) and head.value.id in derived):
        return None
    parts = [p.value if isinstance(p, ast.Constant) and isinstance(p.value, str) else "*" for p in rest]
    text = "".join(parts)
    if not parts[-1] != "*" or not re.fullmatch(r"(?:\.[A-Za-z_*][\w*]*)+", text):
        return None
    return derived[head.value.id] + text


_RELATIVE = re.compile(r"\.[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def own_relative_strings(tree: ast.Module) -> list[tuple[str, int]]:
    """Relative module names handed to a call beside the module's own name, which the callee resolves against it:
    ``__getattr__ = make_getattr(__name__, {"Heavy": "._heavy"})`` (a lazy-attribute factory of another module),
    ``register(__package__, [".fast", ".slow"])``: ``{__name__}._heavy``, each module the graph finds so named."""
    tables = assigned_values(tree)
    return [(name, node.lineno) for node in walk(tree) if isinstance(node, ast.Call)
            for name in own_relative_names(node, tables)]


def assigned_values(tree: ast.Module) -> dict[str, ast.expr]:
    """The value of each module-level ``NAME = value`` (``_TABLE = {"Heavy": "._heavy"}``)."""
    return {s.targets[0].id: s.value for s in tree.body if isinstance(s, ast.Assign) and len(s.targets) == 1
            and isinstance(s.targets[0], ast.Name)}


def own_relative_names(node: ast.Call, tables: dict[str, ast.expr]) -> list[str]:
    """For one call: ``{__name__}._heavy`` for each relative name among its arguments (in a literal, or a module
    table ``tables`` holds) when exactly one argument is the module's own name; the items of a tuple or list
    argument count as arguments (``pool.apply(_load, (".plugins.alpha", __package__))``, ``initargs=(...)``,
    ``starmap(import_module, [(".plugins.alpha", __package__)])``: session 43, what the callee runs imports them).
    Without the own name, a package the call names otherwise stands in for it: its own subpackage
    (``load(".fast", package=f"{__package__}.backends")``) or a dotted literal (``load(".fast", "pkg.backends")``:
    session 44, the callee's ``import_module(name, package)`` kept only loose modules), also as an argument of the
    call that made the object or function called (``Loader("pkg.backends").load(".fast")``, ``make_loader(
    __package__)(".backends.fast")``); a literal that
    names no package of the project names no module either."""
    values, todo = [], [*node.args, *(k.value for k in node.keywords)]
    func = node.func
    while isinstance(func, (ast.Attribute, ast.Call)):  # Loader("pkg.backends").load(".fast"): the object's own
        # arguments; make_loader(__package__)(".backends.fast"): the factory's
        if isinstance(func, ast.Call):
            todo += [*func.args, *(k.value for k in func.keywords)]
            func = func.func
        else:
            func = func.value
    while todo:  # starmap(import_module, [(".plugins.alpha", __package__)]): nested ones too
        value = todo.pop(0)
        todo += value.elts if isinstance(value, (ast.Tuple, ast.List)) else []
        values += [] if isinstance(value, (ast.Tuple, ast.List)) else [value]
    owns = [own for v in values if isinstance(v, (ast.Name, ast.Attribute)) and (own := own_name(v)) is not None]
    if not owns:
        owns = [own for v in values if (own := own_submodule(v) or _package_literal(v)) is not None]
    if len(owns) != 1:
        return []
    out = []
    for value in values:
        value = tables.get(value.id, value) if isinstance(value, ast.Name) else value
        for sub in ast.walk(value):
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and _RELATIVE.fullmatch(sub.value):
                out.append(owns[0] + sub.value)
    return out


_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def _package_literal(node: ast.expr) -> str | None:
    """A literal dotted name (``"pkg.backends"``): a package a relative name beside it may resolve against."""
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) \
        and _DOTTED.fullmatch(node.value) else None


_RELATIVE_CODE = re.compile(r"(?:^|[\s;])from[ \t]+(\.+)([\w*][\w.*]*)?[ \t]+import[ \t]+\(?[ \t]*"
                            r"([\w*]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w*]+(?:[ \t]+as[ \t]+\w+)?)*)")


def relative_code_imports(code: str, built: bool = False) -> list[str]:
    """What the relative imports of code held as text import, against its package (``{__package__}``): code run by
    ``exec(CODE, {"__package__": __package__, ...})``, or a data file of a package folder run so. ``from .plugins
    import alpha``: ``{__package__}.plugins`` and ``{__package__}.plugins.alpha`` (a name or a submodule); ``from
    ..plugins import alpha``: ``{__package__}..plugins.alpha``, a package up. ``built``:
    code an f-string or a ``+`` chain renders (``rendered_code``), where ``*`` is a computed piece
    (``f"from .plugins import {name}"``: ``{__package__}.plugins.*``); else ``import *`` imports names only."""
    out = []
    for m in _RELATIVE_CODE.finditer(code):
        dots, module, names = m.groups()
        if "*" in (module or "") and not built:
            continue
        # ``from ..plugins import x``: {__package__}..plugins.x, resolved above the package by ModuleInfo.fill_own
        base = "{__package__}" + "." * (len(dots) - 1) + (f".{module}" if module else "")
        out += [base] if module else []
        out += [f"{base}.{name.split()[0]}" for name in names.split(",")
                if name.strip() and (built or name.split()[0] != "*")]
    return list(dict.fromkeys(out))
