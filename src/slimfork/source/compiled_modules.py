"""The compiled extension modules a build makes, and what a meson-python build installs. ``setup.py``'s
``Extension("name", ...)`` (any ``*Extension`` call: ``Pybind11Extension``) and ``meson.build``'s
``py.extension_module('name', ..., subdir: 'pkg')``, ``py.install_sources(..., subdir: 'pkg')`` and
``install_subdir('pkg', ...)``. pyahocorasick 2.3.1 installs only the extension ``ahocorasick`` and siphash24 1.9
only ``siphash24``: `slimfork init` drafted their tooling (``etc/``, ``check.py``, ``tempita.py``) as the public API."""

from __future__ import annotations

import ast
import re
from pathlib import Path

_MESON_CALL = re.compile(r"\b(extension_module|install_sources|install_subdir)\s*\(")
_STRING = re.compile(r"""'((?:[^'\\]|\\.)*)'""")
_SUBDIR = re.compile(r"""\bsubdir\s*:\s*'([^']*)'""")


def compiled_modules(root: Path) -> dict[str, str]:
    """Each top-level compiled extension module -> where the build declares it (``setup.py:43``); not those inside a
    package (``Extension("pkg._ext")``, ``subdir: 'pkg'``)."""
    found: dict[str, str] = {}
    for name, line in _setup_py_extensions(root / "setup.py"):
        if "." not in name:  # pkg._ext is a module of the package pkg
            found.setdefault(name, f"setup.py:{line}")
    for call, args, subdir, line in _meson_calls(root / "meson.build"):
        if call == "extension_module" and args and not subdir and "." not in args[0]:
            found.setdefault(args[0], f"meson.build:{line}")
    return found


def unbuilt_extensions(root: Path) -> dict[str, str]:
    """Each extension module the build makes (inside a package too: ``zope.hookable._zope_hookable``) whose
    compiled file (``_zope_hookable*.so``, ``.pyd``) the source tree lacks, beside its package's folder (at the
    top, under ``src/`` or ``lib/``) -> where the build declares it. Its tests fail on the original and the fork
    alike until it is built (zope.hookable 8.4: 21 of 42 tests)."""
    declared = [(name, f"setup.py:{line}") for name, line in _setup_py_extensions(root / "setup.py")]
    declared += [(".".join(filter(None, [*subdir.strip("/").split("/"), args[0]])), f"meson.build:{line}")
                 for call, args, subdir, line in _meson_calls(root / "meson.build")
                 if call == "extension_module" and args]
    found: dict[str, str] = {}
    for name, where in declared:
        *package, module = name.split(".")
        folders = [base.joinpath(*package) for base in (root, root / "src", root / "lib")]
        if not any(folder.is_dir() for folder in folders):
            continue  # not a folder of this tree: a name we cannot place
        if not any(next(folder.glob(f"{module}*{suffix}"), None) for folder in folders for suffix in (".so", ".pyd")):
            found.setdefault(name, where)
    return found


def meson_installed(root: Path) -> set[str]:
    """The top-level packages and modules ``meson.build`` installs (nothing where it has none of these calls)."""
    out: set[str] = set()
    for call, args, subdir, _line in _meson_calls(root / "meson.build"):
        if subdir:
            out.add(subdir.strip("/").split("/")[0])
        elif call == "extension_module" and args:
            out.add(args[0].split(".")[0])
        elif call == "install_sources":
            out |= {a.strip("/").split("/")[0].removesuffix(".py") for a in args}
        elif call == "install_subdir" and args:
            out.add(args[0].rstrip("/").rsplit("/", 1)[-1])
    return {n for n in out if n}


def _setup_py_extensions(path: Path) -> list[tuple[str, int]]:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return []
    found = []
    for node in ast.walk(tree):
        func = node.func if isinstance(node, ast.Call) else None
        called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if isinstance(node, ast.Call) and called.endswith("Extension"):
            arg = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "name"), None)
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value:
                found.append((arg.value, node.lineno))
    return found


def _meson_calls(path: Path) -> list[tuple[str, list[str], str, int]]:
    """(call, its string arguments before the first keyword, its ``subdir:``, line) of each install call."""
    try:
        text = re.sub(r"#[^\n]*", "", path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return []
    calls = []
    for match in _MESON_CALL.finditer(text):
        depth, end = 1, match.end()
        while end < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        body = text[match.end():end - 1]
        positional = re.split(r"\b\w+\s*:", body, maxsplit=1)[0]
        subdir = _SUBDIR.search(body)
        calls.append((match.group(1), _STRING.findall(positional), subdir.group(1) if subdir else "",
                      text.count("\n", 0, match.start()) + 1))
    return calls
