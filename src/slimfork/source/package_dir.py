"""The folder that holds a project's packages, as its build configuration declares it: setuptools' ``package-dir``
(pyproject.toml, setup.cfg or a literal ``setup(package_dir=...)`` in setup.py) and pyproject.toml's
``[tool.setuptools.packages.find] where``, hatch's wheel ``packages`` (and ``only-include`` below a ``sources``
prefix) and poetry's ``packages = [{include, from}]``. ``None`` when nothing declares one folder (the caller
guesses)."""

from __future__ import annotations

import ast
import configparser
import tomllib
from pathlib import Path, PurePosixPath


def declared_python_root(root: Path) -> str | None:
    folders: set[str] = set()
    for read in (_pyproject, _setup_cfg, _setup_py):
        try:
            folders |= read(root)
        except (OSError, UnicodeDecodeError, ValueError, SyntaxError, configparser.Error, tomllib.TOMLDecodeError):
            continue
    folders = {f.strip("/") or "." for f in folders}
    if len(folders) != 1:
        return None
    folder = folders.pop()
    return folder if folder != "." and (root / folder).is_dir() else None


def _roots(mapping: dict) -> set[str]:
    """``{"": "src"}`` declares ``src``; ``{"name": "pkg/name"}`` declares ``pkg`` (the mapped folder's parent)."""
    found = set()
    for name, folder in mapping.items():
        if not isinstance(name, str) or not isinstance(folder, str):
            continue
        path = PurePosixPath(folder.replace("\\", "/"))
        if name == "":
            found.add(str(path))
        elif "." not in name and path.name == name:
            found.add(str(path.parent))
    return found


def _pyproject(root: Path) -> set[str]:
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    tool = data.get("tool", {})
    setuptools = tool.get("setuptools", {})
    found = _roots(setuptools.get("package-dir", {}) or {})
    # `packages.find` searches `where` (default ["."]), and setuptools maps the package folder to it (cbor2 6.3.0:
    # where = ["python"]); a `packages` table, not a list, in pyproject.toml only
    find = setuptools.get("packages", {}).get("find", {}) if isinstance(setuptools.get("packages"), dict) else {}
    where = find.get("where", []) if isinstance(find, dict) else []
    found |= {folder for folder in (where if isinstance(where, list) else []) if isinstance(folder, str)}
    wheel = tool.get("hatch", {}).get("build", {}).get("targets", {}).get("wheel", {})
    for package in wheel.get("packages", []) or []:
        if isinstance(package, str) and "/" in package:
            found.add(str(PurePosixPath(package).parent))
    # only-include paths below a `sources` prefix that maps to the wheel's top (["src"] or {"src" = ""})
    sources = wheel.get("sources", [])
    prefixes = [p for p in sources if isinstance(p, str)] if isinstance(sources, list) else \
        [p for p, into in sources.items() if isinstance(p, str) and into == ""] if isinstance(sources, dict) else []
    for path in wheel.get("only-include", []) or []:
        if isinstance(path, str):
            for prefix in prefixes:
                if path.lstrip("/").startswith(prefix.strip("/") + "/"):
                    found.add(prefix.strip("/"))
    for package in tool.get("poetry", {}).get("packages", []) or []:
        if isinstance(package, dict) and isinstance(package.get("from"), str):
            found.add(package["from"])
    return found


def _setup_cfg(root: Path) -> set[str]:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string((root / "setup.cfg").read_text(encoding="utf-8"))
    raw = parser.get("options", "package_dir", fallback="")
    mapping = {}
    for line in raw.replace(";", "\n").splitlines():
        if "=" in line:
            name, folder = line.split("=", 1)
            mapping[name.strip()] = folder.strip()
    return _roots(mapping)


def _setup_py(root: Path) -> set[str]:
    tree = ast.parse((root / "setup.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    # names bound to a value it can compute (mlx: package_dir = {"": "python"} ... setup(package_dir=package_dir);
    # crcmod: base_dir = 'python3' under `sys.version_info[0] == 3`, then os.path.join(base_dir, 'crcmod')); a
    # name bound twice to different values declares nothing
    bound = _bindings(tree.body, {})
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg == "package_dir":
                    value = _value(keyword.value, bound)
                    if isinstance(value, dict):
                        found |= _roots(value)
    return found


_UNKNOWN = object()


def _bindings(body: list[ast.stmt], bound: dict) -> dict:
    """Module-level ``name = value`` of setup.py, in order; an ``if`` on the running Python's version
    (``sys.version_info[0] == 3``, ``sys.version_info >= (3,)``, ``sys.version_info.major``) takes the branch
    this interpreter runs (setup.py runs on it, as the fork's users will); any other ``if`` takes both, and a name
    they bind differently is unknown."""
    for node in body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, _value(node.value, bound)
            bound[name] = value if name not in bound or bound[name] == value else _UNKNOWN
        elif isinstance(node, ast.If):
            test = _value(node.test, bound)
            if test is True or test is False:
                _bindings(node.body if test else node.orelse, bound)
            else:
                for branch in (node.body, node.orelse):
                    _bindings(branch, bound)
        elif isinstance(node, (ast.Try, ast.With)):
            _bindings(node.body, bound)
    return bound


def _value(node: ast.expr, bound: dict):
    """What a setup.py expression computes, from literals, names bound above, ``os.path.join``, ``dict(...)``,
    ``+`` and comparisons of ``sys.version_info``; :data:`_UNKNOWN` otherwise."""
    import sys

    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    if isinstance(node, ast.Name):
        return bound.get(node.id, _UNKNOWN)
    dotted = _dotted(node)
    if dotted == "sys.version_info":
        return tuple(sys.version_info)
    if dotted in ("sys.version_info.major", "sys.version_info.minor"):
        return getattr(sys.version_info, dotted.rsplit(".", 1)[1])
    if isinstance(node, ast.Dict):
        keys = [_value(k, bound) if k is not None else _UNKNOWN for k in node.keys]
        values = [_value(v, bound) for v in node.values]
        if any(x is _UNKNOWN for x in keys + values):
            return _UNKNOWN
        try:
            return dict(zip(keys, values))
        except TypeError:
            return _UNKNOWN
    if isinstance(node, ast.Call) and not any(k.arg is None for k in node.keywords):
        func = _dotted(node.func)
        args = [_value(a, bound) for a in node.args]
        kwargs = {k.arg: _value(k.value, bound) for k in node.keywords}
        if func in ("os.path.join", "posixpath.join", "join") and args and not kwargs \
                and all(isinstance(a, str) for a in args):
            return "/".join(a.strip("/") for a in args if a)
        if func == "dict" and not args:
            return kwargs  # unknown values stay unknown inside: only package_dir is read
        return _UNKNOWN
    if isinstance(node, ast.Subscript):
        value, index = _value(node.value, bound), _value(node.slice, bound)
        if isinstance(value, tuple) and isinstance(index, (int, slice)):
            return value[index]
        if isinstance(node.slice, ast.Slice) and isinstance(value, tuple):
            lower, upper = (_value(x, bound) if x is not None else None for x in (node.slice.lower, node.slice.upper))
            if all(x is None or isinstance(x, int) for x in (lower, upper)):
                return value[lower:upper]
        return _UNKNOWN
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _value(node.left, bound), _value(node.right, bound)
        if type(left) is type(right) and isinstance(left, (str, tuple, list)):
            return left + right
        return _UNKNOWN
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left, right = _value(node.left, bound), _value(node.comparators[0], bound)
        if left is _UNKNOWN or right is _UNKNOWN or type(left) is not type(right) or not isinstance(left, (int, tuple)):
            return _UNKNOWN
        ops = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
               ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b}
        op = ops.get(type(node.ops[0]))
        return op(left, right) if op else _UNKNOWN
    return _UNKNOWN


def _dotted(node: ast.expr) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""
