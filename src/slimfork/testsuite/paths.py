"""Python files a test runs or reads by their path (``runpy.run_path(os.path.join(ROOT, "examples", "demo.py"))``,
``subprocess.run([sys.executable, "scripts/tool.py"])``, ``Path(HERE) / "data" / "mod.py"``): the test needs the
file, and goes when the fork removes it (an example importing removed code leaves with it)."""

from __future__ import annotations

import ast

FILE_USE = "file:"  # Use.dotted of such a file: "file:examples/demo.py" (the literal end of its path)


def path_constants(tree: ast.Module) -> dict[str, str]:
    """Module-level names bound to such a path (``DEMO = os.path.join(ROOT, "examples", "demo.py")``) -> the
    ``FILE_USE`` name of the file."""
    out = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            found = py_path(stmt.value, {})
            if found:
                out[stmt.targets[0].id] = FILE_USE + found
    return out


def run_paths(call: ast.Call, aliases: dict[str, str]) -> list[str]:
    """The Python files a call is handed by path: an argument, or an element of a list or tuple argument (argv)."""
    func = call.func
    if (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) == "join":
        return []  # the call it is an argument of names the whole path
    out = []
    for arg in call.args + [k.value for k in call.keywords]:
        for item in arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg]:
            found = py_path(item, aliases)
            if found:
                out.append(found)
    return out


def py_path(node: ast.expr, aliases: dict[str, str]) -> str | None:
    """The literal end of a path to a ``.py`` file: ``"tool.py"``, ``join(HERE, "examples", "demo.py")``,
    ``Path(HERE) / "examples" / "demo.py"``, ``str(...)`` of one, a name bound to one; None otherwise (a glob, a
    path through ``..``)."""
    parts = _parts(node, aliases)
    if not parts or not parts[-1].endswith(".py") or any(p in ("..", "") or "*" in p for p in parts):
        return None
    return "/".join(p for p in parts if p != ".")


def _parts(node: ast.expr, aliases: dict[str, str]) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("\\", "/").strip("/").split("/")
    if isinstance(node, ast.Name) and aliases.get(node.id, "").startswith(FILE_USE):
        return aliases[node.id][len(FILE_USE):].split("/")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        return _parts(node.left, aliases) + _parts(node.right, aliases) if _parts(node.right, aliases) else []
    if isinstance(node, ast.Call):
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name == "join":
            tail: list[str] = []
            for arg in reversed(node.args):
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    break
                tail = _parts(arg, aliases) + tail
            return tail
        if name in ("str", "Path", "PurePath", "abspath", "realpath", "normpath", "fspath") and len(node.args) == 1:
            return _parts(node.args[0], aliases)
    return []


PACKAGE_SCAN = ".*"  # Use.dotted of a package whose modules a test lists: "pkg.plugins.*"
_SCANS = frozenset({"iter_modules", "walk_packages", "listdir", "scandir", "iterdir", "glob", "rglob", "walk"})


def package_scans(call: ast.Call, dotted) -> list[str]:
    """The packages whose folder a call lists (``pkgutil.iter_modules(pkg.__path__)``,
    ``os.listdir(os.path.dirname(pkg.__file__))``, ``resources.files("pkg").iterdir()``): a test asserting on
    what it finds needs every module of it. ``dotted``: the file's name resolver (an expression -> its dotted
    name, or None)."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name not in _SCANS:
        return []
    subjects = list(call.args[:1]) + ([func.value] if isinstance(func, ast.Attribute) else [])
    return [found for node in subjects if (found := _package(node, dotted))]


def _package(node: ast.expr, dotted) -> str | None:
    while True:
        if isinstance(node, ast.Subscript):  # pkg.__path__[0]
            node = node.value
        elif isinstance(node, ast.Attribute) and node.attr == "parent":  # Path(pkg.__file__).parent
            node = node.value
        elif isinstance(node, ast.Call) and len(node.args) == 1 and (
                getattr(node.func, "attr", None) or getattr(node.func, "id", None)) in ("dirname", "Path", "str"):
            node = node.args[0]
        else:
            break
    if isinstance(node, ast.Attribute) and node.attr in ("__path__", "__file__"):
        return dotted(node.value)
    if isinstance(node, ast.Call) and (getattr(node.func, "attr", None) or getattr(node.func, "id", None)) \
            == "files" and node.args and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, str):
        return node.args[0].value
    return None


DOC_RUN = "doc:"  # Use.dotted of a text file whose examples a test runs: "doc:docs/usage.rst", "doc:*" (computed)
_DOC_RUNNERS = frozenset({"testfile", "DocFileSuite", "DocFileTest"})


def doc_runs(call: ast.Call) -> list[str]:
    """``doctest.testfile("../docs/usage.rst")`` -> ``doc:docs/usage.rst`` (a literal path, ``..`` and ``.`` parts
    dropped); a path computed at run time (icalendar's ``testfile(document)`` over a listing of the docs) ->
    ``doc:*``: any documentation file with examples."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name not in _DOC_RUNNERS:
        return []
    paths = [a for a in call.args if not isinstance(a, ast.Starred)][:1 if name != "DocFileSuite" else None]
    if not paths:
        return [DOC_RUN + "*"]
    out = []
    for arg in paths:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            parts = arg.value.replace("\\", "/").split("/")
            out.append(DOC_RUN + "/".join(p for p in parts if p not in ("", ".", "..")))
        else:
            out.append(DOC_RUN + "*")
    return out
