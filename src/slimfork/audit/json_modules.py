"""Native modules registered in a JSON file, and Python strings that name files only to write them.

aiter lists its JIT modules in ``aiter/jit/optCompilerConfig.json``: ``{"module_pa_v1": {"srcs":
["f'{AITER_CSRC_DIR}/kernels/attention_v1.cu'", ...]}, ...}``, and loads one by its key
(``@compile_ops("module_pa_v1")``). A registered module's sources are named by the Python code that names its key;
a key that reached code names only inside a literal list of several keys (``ck_modules = {"module_pa", ...}``, an
exclusion list) loads nothing, so its sources are named by nothing (the three "[module_pa*] dead code" clean-ups).
A JSON file counts as such a registry only where a Python string names it.

A path a function only writes (``f_instance = os.path.join(out, "instances", f"{kernel.name}.cu")`` then
``open(f_instance, "a")``) is an output of a code generator, not a source it reads: it names no file of the tree
(aiter's pattern ``{...}.cu`` matched every ``.cu`` of the tree and kept them all)."""

from __future__ import annotations

import ast
import json
import os
import posixpath
import re
from collections.abc import Callable, Iterable

_MAX_JSON = 4_000_000  # bytes: larger JSON files are data, not module registries
_NATIVE = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hip", ".metal", ".mm", ".cpp.jinja")
_HOLE = re.compile(r"\{[^{}]*\}")
_QUOTED = re.compile(r"""^[fFrRbB]{0,2}(['"])(.*)\1$""", re.S)
_MIN_LISTING = 3  # strings of registry keys in one literal collection: a listing of modules, not a load


def path_text(value: str) -> str:
    """A JSON string as a path pattern: quotes of a Python expression dropped (``"f'{DIR}/k.cu'"``), holes as
    ``{...}``."""
    value = value.strip()
    m = _QUOTED.match(value)
    if m:
        value = m.group(2)
    return _HOLE.sub("{...}", value)


def json_registries(root: str, other_files: Iterable[str], named: Callable[[str], bool]) -> dict[str, dict]:
    """JSON files a Python string names (``named(basename)``) whose top level is an object: path -> object."""
    out: dict[str, dict] = {}
    for rel in other_files:
        if not rel.endswith(".json") or not named(posixpath.basename(rel)):
            continue
        full = os.path.join(root, rel)
        try:
            if os.path.getsize(full) > _MAX_JSON:
                continue
            with open(full, encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError, UnicodeDecodeError):
            continue
        if isinstance(data, dict):
            out[rel] = data
    return out


def entry_strings(value) -> list[str]:
    """Every string below a JSON value that may name a native file or folder (path-like)."""
    out: list[str] = []
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, dict):
            todo += list(v.values())
        elif isinstance(v, list):
            todo += v
        elif isinstance(v, str) and "/" in v and len(v) < 500:
            out.append(path_text(v))
    return out


def is_native_path(text: str) -> bool:
    return text.lower().endswith(_NATIVE)


def listing_lines(source: str, keys: set[str]) -> set[int]:
    """Lines of the key strings that sit in a literal list, set, tuple or dict (keys) holding several keys of the
    registry: a catalogue of modules (an exclusion list), not a load of one."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set()
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.List, ast.Set, ast.Tuple)):
            items = node.elts
        elif isinstance(node, ast.Dict):
            items = [k for k in node.keys if k is not None]
        else:
            continue
        hits = [e for e in items if isinstance(e, ast.Constant) and isinstance(e.value, str) and e.value in keys]
        if len(hits) >= _MIN_LISTING:
            out.update(e.lineno for e in hits)
    return out


_WRITE_METHODS = {"write_text", "write_bytes"}


def written_lines(source: str) -> set[int]:
    """Lines of path expressions a scope only writes: the first argument of ``open(x, "w"/"a"/"x")`` (and of
    ``Path(x).write_text``), and the values of the names such a call is given, assigned in the same scope."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set()
    out: set[int] = set()
    scopes = [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for scope in scopes:
        nodes = list(_own_nodes(scope))
        written: list[ast.expr] = []
        for node in nodes:
            if not isinstance(node, ast.Call):
                continue
            if isinstance(node.func, ast.Name) and node.func.id == "open" and node.args and _write_mode(node):
                written.append(node.args[0])
            elif isinstance(node.func, ast.Attribute) and node.func.attr in _WRITE_METHODS:
                target = node.func.value
                if isinstance(target, ast.Call) and target.args:  # Path(x).write_text(...)
                    target = target.args[0]
                written.append(target)
        names = {w.id for w in written if isinstance(w, ast.Name)}
        read = _read_names(nodes, names)
        for w in written:
            if not isinstance(w, ast.Name):
                out.update(range(w.lineno, (w.end_lineno or w.lineno) + 1))
        for node in nodes:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and node.targets[0].id in names - read:
                out.update(range(node.value.lineno, (node.value.end_lineno or node.value.lineno) + 1))
    return out


def _read_names(nodes: list[ast.AST], names: set[str]) -> set[str]:
    """The names among ``names`` the scope also reads other than to write (``os.path.exists(x)`` is fine: a
    check before writing; any other call given the name may read the file)."""
    harmless = {"exists", "isfile", "isdir", "dirname", "makedirs", "basename", "remove", "unlink"}
    read: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Call):
            func = node.func
            fname = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if fname in harmless or fname == "open" and _write_mode(node) or fname in _WRITE_METHODS:
                continue
            for arg in list(node.args) + [k.value for k in node.keywords]:
                read |= {n.id for n in ast.walk(arg) if isinstance(n, ast.Name) and n.id in names}
        elif isinstance(node, (ast.Return, ast.Yield)) and isinstance(node.value, ast.Name) \
                and node.value.id in names:
            read.add(node.value.id)
    return read


def _write_mode(call: ast.Call) -> bool:
    mode = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "mode"), None)
    return isinstance(mode, ast.Constant) and isinstance(mode.value, str) and any(c in mode.value for c in "wax")


def _own_nodes(scope: ast.AST):
    """The nodes of a scope, not those of the functions and classes nested in it."""
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        yield node
        todo += list(ast.iter_child_nodes(node))
