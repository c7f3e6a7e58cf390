"""What the build configuration names by hand. Files it installs as programs (``[tool.setuptools] script-files``,
``setup.cfg``'s ``[options] scripts``, a literal ``scripts=[...]`` of ``setup.py``) run from the installed fork, so
what they import is a root, whether or not they end in ``.py`` (``bin/orun`` with a Python shebang). Packages it
lists by name (``packages = ["pkg", "pkg.extras"]``) must exist, or the fork does not install. And the project's
own settings in ``pyproject.toml``'s ``[tool.*]`` tables may name its modules."""

from __future__ import annotations

import ast
import configparser
import re
import tomllib
from pathlib import Path


def installed_scripts(root: Path) -> list[str]:
    """The script paths the build metadata declares, relative to ``root``, that exist; and the Python programs in
    ``bin/`` or ``scripts/`` without a suffix (``bin/pyflakes``, installed through ``setup(**extra)``)."""
    found = declared_list(root, "script-files", "scripts")
    for folder in ("bin", "scripts"):
        for path in sorted((root / folder).glob("*")) if (root / folder).is_dir() else []:
            if not path.suffix and path.is_file() and _python_shebang(path):
                found.append(f"{folder}/{path.name}")
    return [p for p in dict.fromkeys(str(p).lstrip("./") for p in found) if (root / p).is_file()]


def _python_shebang(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            first = f.readline(200)
    except OSError:
        return False
    return first.startswith(b"#!") and b"python" in first


def listed_packages(root: Path) -> list[str]:
    """The packages the build configuration lists by name (not ``find:`` or ``find_packages()``)."""
    return list(dict.fromkeys(declared_list(root, "packages", "packages")))


def declared_list(root: Path, toml_key: str, key: str) -> list[str]:
    """A list of strings under ``[tool.setuptools] toml_key``, ``setup.cfg``'s ``[options] key`` and a literal
    ``setup(key=[...])``."""
    found: list[str] = []
    try:
        value = tomllib.loads((root / "pyproject.toml").read_text(errors="replace")).get("tool", {}) \
            .get("setuptools", {}).get(toml_key, [])
        found += [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
    except (tomllib.TOMLDecodeError, OSError):
        pass
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(root / "setup.cfg", encoding="utf-8")
        value = parser.get("options", key, fallback="")
        found += [] if value.strip().startswith("find") else value.split()
    except configparser.Error:
        pass
    return found + _setup_py_list(root / "setup.py", key)


def _parsed(path: Path) -> ast.Module | None:
    try:
        return ast.parse(path.read_text(errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return None


def _setup_py_list(path: Path, key: str) -> list[str]:
    tree = _parsed(path)
    if tree is None:
        return []
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "setup":
            for kw in node.keywords:
                if kw.arg == key and isinstance(kw.value, (ast.List, ast.Tuple)):
                    out += [e.value for e in kw.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return out


def script_imports(path: Path) -> list[str]:
    """The absolute modules a Python script imports (none if it is not Python)."""
    tree = _parsed(path)
    if tree is None:
        return []
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out += [node.module] + [f"{node.module}.{a.name}" for a in node.names if a.name != "*"]
    return out


_BUILD_TOOLS = frozenset({"setuptools", "setuptools_scm", "poetry", "hatch", "pdm", "flit", "maturin", "scikit-build",
                          "cibuildwheel", "meson-python"})
_NAME = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*(:[A-Za-z_][\w.]*)?")


def tool_config_names(root: Path) -> list[tuple[str, str]]:
    """(dotted name, where) for each ``pkg.mod`` or ``pkg.mod:attr`` string in ``pyproject.toml``'s ``[tool.*]``
    tables but the build tools': a project's own settings (``[tool.clipkg] on_start = "clipkg.hooks:start"``)
    that its code may resolve at run time."""
    try:
        tools = tomllib.loads((root / "pyproject.toml").read_text(errors="replace")).get("tool", {})
    except (tomllib.TOMLDecodeError, OSError):
        return []
    out: list[tuple[str, str]] = []
    todo = [(f"tool.{k}", v) for k, v in tools.items() if k not in _BUILD_TOOLS]
    while todo:
        where, value = todo.pop()
        if isinstance(value, dict):
            todo += [(f"{where}.{k}", v) for k, v in value.items()]
        elif isinstance(value, list):
            todo += [(where, v) for v in value]
        elif isinstance(value, str) and ("." in value or ":" in value) and _NAME.fullmatch(value):
            out.append((value.split(":", 1)[0], where))
    return out
