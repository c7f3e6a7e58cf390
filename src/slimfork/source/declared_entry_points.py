"""Entry points a source tree declares outside PEP 621 metadata: ``setup.cfg``'s ``[options.entry_points]``, a
literal ``entry_points=`` of ``setup.py`` and poetry's ``[tool.poetry.scripts]``/``[tool.poetry.plugins]``.
A git checkout has no PKG-INFO or ``entry_points.txt``; without these its plugins and scripts look unused."""

from __future__ import annotations

import ast
import configparser
import re
import tomllib
from pathlib import Path

Groups = dict[str, dict[str, str]]  # group -> name -> "module:attr"


def declared_entry_points(root: Path) -> Groups:
    out: Groups = {}
    for found in (_setup_cfg(root / "setup.cfg"), _setup_py(root / "setup.py"), _poetry(root / "pyproject.toml")):
        for group, entries in found.items():
            for name, value in entries.items():
                out.setdefault(group, {}).setdefault(name, value)
    return out


def setup_cfg_metadata(root: Path) -> tuple[str, str]:
    """(name, version) of ``setup.cfg``'s ``[metadata]``, '' where absent or not literal (``attr:``)."""
    parser = _read_cfg(root / "setup.cfg")
    name = parser.get("metadata", "name", fallback="").strip() if parser else ""
    version = parser.get("metadata", "version", fallback="").strip() if parser else ""
    return name, "" if ":" in version else version


def setup_py_metadata(root: Path) -> tuple[str, str]:
    """(name, version) of ``setup.py``'s ``setup(name=..., version=...)`` where literal (also through a name bound
    at module level: records' ``version = "0.6.0"``), '' where absent or computed."""
    path = root / "setup.py"
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace")) if path.is_file() else None
    except (SyntaxError, ValueError):
        tree = None
    if tree is None:
        return "", ""
    assigned = {t.id: n.value for n in tree.body if isinstance(n, ast.Assign) for t in n.targets
                if isinstance(t, ast.Name)}
    found = {"name": "", "version": ""}
    for node in ast.walk(tree):
        for kw in node.keywords if isinstance(node, ast.Call) and any(k.arg == "name" for k in node.keywords) else ():
            if kw.arg in found and not found[kw.arg]:
                value = _value(kw.value, assigned)
                found[kw.arg] = value.strip() if isinstance(value, str) else ""
    return found["name"], found["version"]


def _read_cfg(path: Path) -> configparser.ConfigParser | None:
    if not path.is_file():
        return None
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(path.read_text(encoding="utf-8", errors="replace"))
    except configparser.Error:
        return None
    return parser


def _setup_cfg(path: Path) -> Groups:
    parser = _read_cfg(path)
    if parser is None or not parser.has_section("options.entry_points"):
        return {}
    return {group: _lines(text) for group, text in parser.items("options.entry_points")}


def _lines(text: str | list) -> dict[str, str]:
    """``name = module:attr`` lines (a string of them, or a list of such strings)."""
    lines = text.splitlines() if isinstance(text, str) else [str(t) for t in text]
    pairs = (line.split("=", 1) for line in lines if "=" in line)
    return {k.strip(): v.strip() for k, v in pairs if k.strip() and v.strip()}


def _setup_py(path: Path) -> Groups:
    if not path.is_file():
        return {}
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (SyntaxError, ValueError):
        return {}
    assigned = {t.id: n.value for n in tree.body if isinstance(n, ast.Assign) for t in n.targets
                if isinstance(t, ast.Name)}  # ENTRY_POINTS = {...}; setup(entry_points=ENTRY_POINTS)
    for node in ast.walk(tree):
        for kw in node.keywords if isinstance(node, ast.Call) else ():
            if kw.arg == "entry_points":
                value = _value(kw.value, assigned)
                if isinstance(value, dict):
                    return {str(g): _lines(v) for g, v in value.items() if isinstance(v, (str, list))}
                if isinstance(value, str):  # entry_points="""[console_scripts]\ntool = pkg.cli:main"""
                    return _ini_groups(value)
    return {}


_TEMPLATE_ENTRY = re.compile(r"^\s*[\w.*-]+\s*=\s*([A-Za-z_*][\w.*]*)\s*(?::[\w.*]+)?\s*(?:\[[^\]]*\])?\s*$")
_PLACEHOLDER = re.compile(r"%(?:\(\w+\))?[sr]|\{[^{}]*\}")


def computed_entry_points(root: Path) -> list[str]:
    """Module names, ``*`` for a computed part, of the entry points a ``setup.py`` builds at run time
    (``entry_points={"pkg.plugins": ["%s = pkg.plugins.%s:load" % (n, n) for n in os.listdir(...)]}``): every
    string of the file shaped like an entry point (``name = module:attr``) with a placeholder or an f-string's
    computed piece in it. Nothing when ``entry_points=`` is literal (``declared_entry_points`` reads it)."""
    path = root / "setup.py"
    if not path.is_file():
        return []
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (SyntaxError, ValueError):
        return []
    assigned = {t.id: n.value for n in tree.body if isinstance(n, ast.Assign) for t in n.targets
                if isinstance(t, ast.Name)}
    computed = [kw.value for node in ast.walk(tree) if isinstance(node, ast.Call) for kw in node.keywords
                if kw.arg == "entry_points" and _partly_computed(_value(kw.value, assigned))]
    if not computed:
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = _PLACEHOLDER.sub("*", node.value)
        elif isinstance(node, ast.JoinedStr):
            text = "".join(str(v.value) if isinstance(v, ast.Constant) else "*" for v in node.values)
        else:
            continue
        for line in text.splitlines():
            m = _TEMPLATE_ENTRY.match(line)
            if m and "*" in line and not m.group(1).startswith("*"):
                out.append(m.group(1).rstrip("."))
    return list(dict.fromkeys(out))


def _partly_computed(value) -> bool:
    return value is None or isinstance(value, dict) and any(v is None for v in value.values())


def _ini_groups(text: str) -> Groups:
    """The ``entry_points.txt`` form setuptools also takes as ``entry_points=``: ``[group]`` sections of
    ``name = module:attr`` lines."""
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # entry point names keep their case
    try:
        parser.read_string(text)
    except configparser.Error:
        return {}
    return {group: {k.strip(): v.strip() for k, v in parser.items(group) if v.strip()} for group in parser.sections()}


def _value(node: ast.expr, assigned: dict[str, ast.expr]):
    """A literal, or one built from module-level literals: names bound to them, and list comprehensions of
    f-strings over them (``[f"adv-{n} = pkg.cli_{n}:main" for n in NAMES]``); None when it is computed otherwise."""
    if isinstance(node, ast.Name) and node.id in assigned:
        node = assigned[node.id]
    try:
        return ast.literal_eval(node)
    except ValueError:
        pass
    if isinstance(node, ast.Dict) and None not in node.keys:
        keys = [_value(k, assigned) for k in node.keys]  # type: ignore[arg-type]
        return {k: _value(v, assigned) for k, v in zip(keys, node.values)} if None not in keys else None
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_value(e, assigned) for e in node.elts]
        return None if None in items else [x for item in items for x in (item if isinstance(item, list) else [item])]
    if isinstance(node, ast.ListComp) and len(node.generators) == 1 and not node.generators[0].ifs \
            and isinstance(node.generators[0].target, ast.Name):
        loop = node.generators[0]
        values = _value(loop.iter, assigned)
        if not isinstance(values, (list, tuple)):
            return None
        var = loop.target.id if isinstance(loop.target, ast.Name) else ""
        texts = [_fstring(node.elt, var, v) for v in values]
        return None if None in texts else texts
    return None


def literal_value(node: ast.expr, assigned: dict[str, ast.expr]):
    """:func:`_value` for other readers of setup.py (``install_requires=REQUIRES``)."""
    return _value(node, assigned)


def _fstring(node: ast.expr, var: str, value) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if not isinstance(node, ast.JoinedStr):
        return None
    parts = []
    for part in node.values:
        if isinstance(part, ast.Constant):
            parts.append(str(part.value))
        elif isinstance(part, ast.FormattedValue) and isinstance(part.value, ast.Name) and part.value.id == var \
                and part.conversion == -1 and part.format_spec is None:
            parts.append(str(value))
        else:
            return None
    return "".join(parts)


def _poetry(path: Path) -> Groups:
    if not path.is_file():
        return {}
    try:
        poetry = tomllib.loads(path.read_text(encoding="utf-8")).get("tool", {}).get("poetry", {})
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return {}
    out: Groups = {}
    scripts = {k: v if isinstance(v, str) else v.get("reference", "") for k, v in poetry.get("scripts", {}).items()
               if isinstance(v, (str, dict))}
    if scripts := {k: v for k, v in scripts.items() if ":" in v}:
        out["console_scripts"] = scripts
    for group, entries in poetry.get("plugins", {}).items():
        if isinstance(entries, dict):
            out[group] = {k: v for k, v in entries.items() if isinstance(v, str)}
    return out
