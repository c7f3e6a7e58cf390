"""Directory scans that find modules at run time, and which package each one scans (read with ``ast``).

``pkgutil.iter_modules(models.__path__, models.__name__ + ".")``, ``pkgutil.walk_packages(...)``, and in a module
that imports by computed names, ``os.listdir``/``os.scandir``/``glob``/``Path.glob``/``iterdir`` over a folder
found from ``X.__file__`` or ``X.__path__``. The scanned package is a dotted name, ``OWN`` (the scanning module's
own package: ``__path__``, ``dirname(__file__)``), ``"{__name__}"``, or None when it is computed at run time."""

from __future__ import annotations

import ast
import re
from typing import NamedTuple
from slimfork.index.walk import walk

OWN = "{own}"
_PKGUTIL = ("iter_modules", "walk_packages")
_LISTING = ("listdir", "scandir", "glob", "iglob", "iterdir", "rglob", "walk")
_DEPTH = 6
_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+")


def find_scans(tree: ast.Module, lines_of, listing: bool) -> list[tuple[int, str, str | None, bool]]:
    """(line, call text, scanned package, whether it reaches subpackages' modules) for every scan.
    ``listing``: count folder listings too (the module imports by computed names)."""
    aliases = _aliases(tree)
    local = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    out = []
    for scope, env in _scopes(tree):
        for node in _calls(scope):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            if name in _PKGUTIL:
                path = node.args[0] if node.args else _keyword(node, "path")
                prefix = node.args[1] if len(node.args) > 1 else _keyword(node, "prefix")
                package = _package(path, env, aliases, 0) if path is not None else None
                if package is None and prefix is not None:
                    package = _prefix_package(prefix, env, aliases)
                out.append((node.lineno, lines_of(node), package, name == "walk_packages"))
            elif name not in _PATH_CALLS and (folder := _folder_argument(node, env, aliases)) is not None \
                    and not (isinstance(func, ast.Name) and func.id in local and _reads_only(local[func.id])):
                out.append((node.lineno, lines_of(node), folder, False))
            elif name in _LISTING and listing and _mentions_package_file(node):
                target = func.value if isinstance(func, ast.Attribute) and name in ("glob", "iterdir", "rglob") \
                    and not (isinstance(func.value, ast.Name) and func.value.id in ("glob", "os")) else \
                    (node.args[0] if node.args else None)
                package = _package(target, env, aliases, 0) if target is not None else None
                out.append((node.lineno, lines_of(node), package, name in ("walk", "rglob")))
    return out


# Calls that take a folder as a path to read or list, not as a package to load plugins from (the listings are
# scans of their own above):
_PATH_CALLS = {*_PKGUTIL, *_LISTING, "join", "dirname", "abspath", "realpath", "normpath", "relpath", "Path", "PurePath",
               "PosixPath", "str", "fspath", "exists", "isdir", "isfile", "open", "resolve", "expanduser", "insert",
               "append", "chdir", "stat", "lstat", "getmtime", "basename", "split", "splitext", "access", "print",
               "format", "files", "as_file", "joinpath", "add_dll_directory", "with_name", "relative_to",
               "get", "getenv", "setdefault", "run", "Popen", "call", "check_call", "check_output"}  # a default, a cwd


def _folder_argument(call: ast.Call, env, aliases) -> str | None:
    """The package whose folder a call is handed, whole (``register_plugins(linter, __path__[0])``, pylint's
    checkers; ``load_all(os.path.dirname(__file__))``): the callee may load every module in it."""
    for arg in [*call.args, *(k.value for k in call.keywords)]:
        if isinstance(arg, ast.Name) and arg.id == "__file__" or isinstance(arg, ast.Attribute) \
                and arg.attr == "__file__":
            continue  # a file, not a folder
        if isinstance(arg, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) and _mentions_package_file(arg):
            package = _package(arg, env, aliases, 0)
            if package is not None:
                return package
    return None


# Names of calls that may load, run or import what a folder holds (or hand it on to code that does).
_LOADS = {"import_module", "__import__", "exec", "eval", "compile", "spec_from_file_location", "module_from_spec",
          "exec_module", "load_module", "load_source", "run_path", "run_module", "import_string", "load", "system",
          "Popen", "run", "call", "check_call", "check_output", "getoutput", *_PKGUTIL}


def _reads_only(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A function of the module that only reads the files of a folder it is handed (``_hash_source_dir(h, root)``:
    ``for src in root.rglob("*.py"): h.update(src.read_bytes())``, quack's cache key): it loads, runs or returns
    nothing, and hands its parameters to no call but path and listing calls or methods of what it reads."""
    params = {a.arg for a in function.args.posonlyargs + function.args.args + function.args.kwonlyargs}
    derived = set(params)  # names bound from a parameter (``for src in root.rglob(...)``)
    for node in ast.walk(function):
        if isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom)) and getattr(node, "value", None) is not None:
            return False
        if isinstance(node, (ast.Global, ast.Nonlocal, ast.Import, ast.ImportFrom)):
            return False
        if isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Name) \
                and any(isinstance(n, ast.Name) and n.id in derived for n in ast.walk(node.iter)):
            derived.add(node.target.id)
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and any(isinstance(n, ast.Name) and n.id in derived
                                                for n in ast.walk(node.value)):
            derived.update(t.id for t in node.targets if isinstance(t, ast.Name))
    for node in ast.walk(function):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        if name is None or name in _LOADS:
            return False
        handed = any(isinstance(n, ast.Name) and n.id in derived
                     for a in [*node.args, *(k.value for k in node.keywords)] for n in ast.walk(a))
        if handed and (name not in _PATH_CALLS and name not in _READS or name in _COLLECTS):
            return False  # handed on, or collected into a list the caller may import from (out.append(f.stem))
    for node in ast.walk(function):  # names[f.stem] = f: collected too
        if isinstance(node, ast.Assign) and any(isinstance(t, (ast.Subscript, ast.Attribute)) for t in node.targets) \
                and any(isinstance(n, ast.Name) and n.id in derived for n in ast.walk(node.value)):
            return False
    return True


_COLLECTS = {"append", "extend", "insert", "add", "setdefault", "appendleft"}


_READS = {"read_bytes", "read_text", "read", "update", "encode", "as_posix", "is_file", "is_dir", "sorted", "len",
          "to_bytes", "hash", "sha256", "md5", "sha1", "blake2b", "getsize", "is_symlink"}


def _keyword(call: ast.Call, name: str):
    return next((k.value for k in call.keywords if k.arg == name), None)


class Param(NamedTuple):
    """A parameter of the scanning function: its callers name the package."""

    function: str
    position: int
    name: str


def param_placeholder(param: Param) -> str:
    return f"{{param:{param.function}:{param.position}:{param.name}}}"


def parse_param(text: str) -> Param | None:
    if not text.startswith("{param:"):
        return None
    function, index, name = text[7:-1].split(":")
    return Param(function, int(index), name)


def _scopes(tree: ast.Module):
    """(a function or the module, its names bound once by a plain assignment -> value) for each scope."""
    yield tree, _assignments(tree.body)
    for node in walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args.posonlyargs + node.args.args
            offset = 1 if args and args[0].arg in ("self", "cls") else 0
            params = {a.arg: Param(node.name, i - offset, a.arg) for i, a in enumerate(args) if i >= offset}
            yield node, {**_assignments(tree.body), **params, **_assignments(node.body)}


def _calls(scope):
    """Calls in this scope, not in nested functions (they are scopes of their own)."""
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Call):
            yield node
        todo.extend(ast.iter_child_nodes(node))


def _assignments(body) -> dict[str, ast.AST | None]:
    found: dict[str, ast.AST | None] = {}
    todo = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            key = node.targets[0].id
            found[key] = node.value if key not in found else None  # bound twice: unknown
        todo.extend(ast.iter_child_nodes(node))
    return found


def _aliases(tree: ast.Module) -> dict[str, str]:
    out: dict[str, str] = {}
    for node in walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def literal_calls(tree: ast.Module) -> list[tuple[str, int | str, str]]:
    """(callee name, argument position or keyword, value) for every dotted-name string a call passes: what a
    scanning function's callers say it scans (``load_models("pkg.models")``), also where the argument only holds
    it (a default: ``load_models(os.environ.get("PKG", "pkg.extra"))``, ``name or "pkg.extra"``)."""
    out = []
    for node in walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        if name is None:
            continue
        pairs = list(enumerate(node.args)) + [(k.arg, k.value) for k in node.keywords if k.arg]
        for where, arg in pairs:
            for part in ast.walk(arg):
                if isinstance(part, ast.Constant) and isinstance(part.value, str) and _DOTTED.fullmatch(part.value):
                    out.append((name, where, part.value))
    return out


_FOLDER = re.compile(r"[\w.-]+(/[\w.-]+)*")


def folder_strings(tree: ast.Module) -> list[tuple[str, int]]:
    """Folder names a path built from ``__file__`` or ``__path__`` takes (``Path(alembic.__file__).parent /
    "templates"``, ``here = dirname(__file__)`` then ``join(here, "plugins")``): the Python files there may be
    read, copied or run as data. Only the constants a path expression joins to such a base count, joined into one
    path (``root / "flashinfer" / "data"`` names ``flashinfer/data``, not ``flashinfer``); the other strings of the
    statement (``setup(name="lmdeploy", ext_modules=ext_modules)``) name no folder."""
    simple: list[ast.stmt] = [n for n in walk(tree) if isinstance(n, ast.stmt) and not hasattr(n, "body")]
    anchored = {t.id for n in simple if isinstance(n, ast.Assign) and _anchored(n.value)
                for t in n.targets if isinstance(t, ast.Name)}
    # the headers of compound statements: ``for p in glob(join(here, "extra", "*.py")):``, ``with open(...)``
    headers: list[ast.expr] = [n.iter for n in walk(tree) if isinstance(n, (ast.For, ast.AsyncFor))]
    headers += [i.context_expr for n in walk(tree) if isinstance(n, (ast.With, ast.AsyncWith)) for i in n.items]

    def based(node) -> bool:
        return _anchored(node) or any(isinstance(n, ast.Name) and n.id in anchored for n in ast.walk(node))

    out = []
    nodes: list[ast.stmt | ast.expr] = [*simple, *headers]
    for node in nodes:
        if not based(node):
            continue
        found = [(text, line) for text, line in _path_texts(node, based) if len(text) <= 80
                 and not text.endswith(".py") and _FOLDER.fullmatch(text) and text.strip(".")]
        # join(here, "plugins", "list.txt"): a file read in a subfolder, whose modules it may name and load
        found += [(folder, line) for text, line in found if "." in text.rsplit("/", 1)[-1].strip(".")
                  and (folder := text.rsplit("/", 1)[0]).strip("./") and ".." not in folder.split("/")]
        if not found and _computed_py_name(node):  # join(dirname(__file__), name + ".py"): a sibling file
            found = [(".", node.lineno)]
        out += found
    return out


_JOINING_CALLS = frozenset({"join", "Path", "PurePath", "PosixPath", "PurePosixPath"})


def _path_texts(stmt: ast.stmt | ast.expr, based) -> list[tuple[str, int]]:
    """(path, line) for each path expression of ``stmt`` that joins constants to a base ``based`` accepts: the
    constants after the base, up to the first computed part, joined with "/"."""
    out: list[tuple[str, int]] = []
    seen: set[int] = set()

    def after_base(parts: list[ast.expr]) -> None:
        for i, part in enumerate(parts):
            if based(part):
                texts = []
                for rest in parts[i + 1:]:
                    if not (isinstance(rest, ast.Constant) and isinstance(rest.value, str)):
                        break
                    if any(c in rest.value for c in "*?["):  # join(here, "plugins", "*.py"): a glob in the folder
                        break
                    texts.append(rest.value.strip("/"))
                text = "/".join(t for t in texts if t)
                if text:  # "./": a path, never a package's dotted name (``files("pkg")``)
                    out.append((text if text.startswith(".") else "./" + text, parts[i].lineno))
                return

    for node in ast.walk(stmt):
        if id(node) in seen:
            continue
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.Add)):
            parts: list[ast.expr] = []
            expr: ast.expr = node
            while isinstance(expr, ast.BinOp) and isinstance(expr.op, type(node.op)):
                seen.add(id(expr))
                parts.insert(0, expr.right)
                expr = expr.left
            after_base([expr] + parts)
        elif isinstance(node, ast.JoinedStr):
            parts = [v.value if isinstance(v, ast.FormattedValue) else v for v in node.values]
            after_base(parts)
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            if name in _RESOURCE_CALLS:  # files("pkg.templates"), get_data(__name__, "tools/x.py")
                out += [(a.value, a.lineno) for a in node.args
                        if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                out += [("./" + head.value.rsplit("/", 1)[0], a.lineno) for a in node.args[1:]  # f"tools/{name}.py"
                        if isinstance(a, ast.JoinedStr) and a.values and isinstance(head := a.values[0], ast.Constant)
                        and isinstance(head.value, str) and "/" in head.value]
            elif name in _JOINING_CALLS:
                after_base(list(node.args))
            elif isinstance(func, ast.Attribute) and based(func.value):  # Path(__file__).with_name("tools")
                after_base([func.value] + list(node.args))
    return out


def sys_path_folders(tree: ast.Module) -> list[tuple[str, int]]:
    """Folders a module puts on ``sys.path`` by a path built from ``__file__`` (``sys.path.append(dirname(__file__))``
    -> ".", ``sys.path.insert(0, str(Path(__file__).parent.parent / "vendor"))`` -> "../vendor"): the modules there
    are importable by bare names (FlagGems' ``import_module("_" + vendor_name)``), relative to the module's folder;
    ``site.addsitedir(join(dirname(__file__), "_hooks"))`` too (the folders its ``.pth`` files list join them in the
    graph: ``graph/dynamic.py`` ``with_pth_folders``)."""
    simple = [n for n in walk(tree) if isinstance(n, ast.Assign)]
    anchored: dict[str, ast.expr] = {}
    for _ in range(4):  # here = abspath(__file__); folder = dirname(here): names anchored through others
        for n in simple:
            names = {x.id for x in ast.walk(n.value) if isinstance(x, ast.Name)}
            if _mentions_package_file(n.value) or names & anchored.keys():
                anchored.update({t.id: n.value for t in n.targets if isinstance(t, ast.Name)})
    out = []
    for node in walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if ast.unparse(node.func) in ("site.addsitedir", "addsitedir"):
            args = node.args[:1]
        elif isinstance(node.func, ast.Attribute) and node.func.attr in ("append", "insert", "extend") \
                and ast.unparse(node.func.value) == "sys.path":
            args = node.args[-1:]
        else:
            continue
        for arg in args:
            folder = _folder_of(arg, anchored)
            if folder is not None:
                out.append((folder, node.lineno))
    return out


def _folder_of(node: ast.expr, anchored: dict[str, ast.expr]) -> str | None:
    """The folder (relative to the module's own) a path expression anchored at ``__file__`` names, else None."""
    chain, expr = [node], node
    for _ in range(4):  # follow the names it is built from back to __file__
        names = sorted(n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and n.id in anchored)
        if not names or anchored[names[0]] in chain:
            break
        expr = anchored[names[0]]
        chain.append(expr)
    if not any(_mentions_package_file(e) for e in chain):
        return None
    ups = -1  # the first dirname/.parent gives the module's own folder
    for expr in chain:
        ups += sum(1 for n in ast.walk(expr) if isinstance(n, ast.Attribute) and n.attr == "parent"
                   or isinstance(n, ast.Call) and (getattr(n.func, "attr", None) or getattr(n.func, "id", None))
                   == "dirname")
    parts = [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
             and _FOLDER.fullmatch(n.value) and n.value.strip(".")]
    return "/".join([".."] * max(ups, 0) + parts) or "."


# importlib.resources, pkgutil and pkg_resources calls that read a package's files: (package, resource, ...)
_RESOURCE_CALLS = frozenset({"files", "get_data", "read_text", "read_binary", "open_text", "open_binary", "contents",
                             "is_resource", "resource_filename", "resource_string", "resource_stream",
                             "resource_listdir", "resource_exists", "resource_isdir"})


def _anchored(node) -> bool:
    """A path built from the module's file or folder, or a resource call on its own (or a named) package:
    ``resources.files(__package__) / "snippets"``, ``pkgutil.get_data(__name__, f"tools/{name}.py")``."""
    return _mentions_package_file(node) or any(
        isinstance(n, ast.Call) and (getattr(n.func, "attr", None) or getattr(n.func, "id", None)) in _RESOURCE_CALLS
        and n.args and _package_argument(n.args[0]) for n in ast.walk(node))


def _package_argument(node) -> bool:
    if isinstance(node, ast.Name):
        return node.id in ("__package__", "__name__")
    if isinstance(node, ast.Attribute):
        return ast.unparse(node) in ("__spec__.parent", "__spec__.name")
    return isinstance(node, ast.Constant) and isinstance(node.value, str) \
        and re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", node.value) is not None


def _computed_py_name(node) -> bool:
    """A ``.py`` file name with a computed part: ``name + ".py"``, ``f"{name}.py"``, ``"%s.py" % name``."""
    for n in ast.walk(node):
        if isinstance(n, ast.JoinedStr) and len(n.values) > 1 and isinstance(n.values[-1], ast.Constant) \
                and str(n.values[-1].value).endswith(".py"):
            return True
        if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Mod)):
            side = n.right if isinstance(n.op, ast.Add) else n.left
            if isinstance(side, ast.Constant) and isinstance(side.value, str) and side.value.endswith(".py"):
                return True
    return False


def _mentions_package_file(node) -> bool:
    return any(isinstance(n, ast.Name) and n.id in ("__file__", "__path__")
               or isinstance(n, ast.Attribute) and n.attr in ("__file__", "__path__") for n in ast.walk(node))


def _package(node, env, aliases, depth: int) -> str | None:
    """The package whose folder ``node`` (a path, a list of paths, ``X.__path__``) is, when it can be known."""
    if depth > _DEPTH or node is None:
        return None
    if isinstance(node, ast.Name):
        if node.id in ("__path__", "__file__"):
            return OWN
        value = env.get(node.id)
        return None if isinstance(value, Param) else _package(value, env, aliases, depth + 1)
    if isinstance(node, ast.Attribute):
        if node.attr in ("__path__", "__file__"):
            return _module(node.value, env, aliases, depth + 1)
        if node.attr == "parent":
            return _package(node.value, env, aliases, depth + 1)
        return None
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == 0:
        return _package(node.value, env, aliases, depth + 1)  # __path__[0]
    if isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) == 1:
        return _package(node.elts[0], env, aliases, depth + 1)
    if isinstance(node, ast.Call) and node.args:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in ("dirname", "Path", "PurePath", "abspath", "realpath", "fspath", "str", "resolve"):
            return _package(node.args[0], env, aliases, depth + 1)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "resolve":
        return _package(node.func.value, env, aliases, depth + 1)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
            and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and node.args[1].value == "__path__":
        return _module(node.args[0], env, aliases, depth + 1)  # getattr(module, "__path__", None)
    return None


def _module(node, env, aliases, depth: int) -> str | None:
    """The module an expression is: an imported name, or the result of ``import_module("a.b")``."""
    if depth > _DEPTH or node is None:
        return None
    if isinstance(node, ast.Name):
        if node.id in aliases and node.id not in env:
            return aliases[node.id]
        value = env.get(node.id)
        if isinstance(value, ast.Call):
            func = value.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in ("import_module", "import_string") and value.args:  # werkzeug's import_string
                return _string(value.args[0], env, depth + 1)
        if isinstance(value, Param):
            return None  # a module object passed in: its callers' names are not strings
        return _module(value, env, aliases, depth + 1) if isinstance(value, (ast.Name, ast.Attribute)) else None
    if isinstance(node, ast.Attribute):
        base = _module(node.value, env, aliases, depth + 1)
        return f"{base}.{node.attr}" if base and base != OWN else None
    return None


def _string(node, env, depth: int) -> str | None:
    if depth > _DEPTH or node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, Param):
        return param_placeholder(node)
    if isinstance(node, ast.Name):
        if node.id in ("__name__", "__package__"):
            return "{" + node.id + "}"
        return _string(env.get(node.id), env, depth + 1)
    return None


def _prefix_package(node, env, aliases) -> str | None:
    """``iter_modules(path, X.__name__ + ".")`` or ``"a.b."``: the package the names are given under."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(node.right, ast.Constant) \
            and node.right.value == ".":
        left = node.left
        if isinstance(left, ast.Attribute) and left.attr == "__name__":
            return _module(left.value, env, aliases, 1)
        return _string(left, env, 1)
    text = _string(node, env, 1)
    return text[:-1] if text and text.endswith(".") else None
