"""Folders a setup script installs by copying them (``shutil.copytree``), not as packages: tutel ``1ed068d^``'s
``setup.py`` runs ``user_setup('../../tutel', 'tutel_moe')``, whose body is ``shutil.copytree(dir_name, path)``
into the user's site-packages, and its tests import ``tutel_moe.moe_layer``. The folder has no ``__init__.py`` and
nothing in the tree imports it by its own name, so it was "unreached" (70): the library itself. Its files are
roots (they are installed; unknown means keep)."""

from __future__ import annotations

import ast
import posixpath
from pathlib import Path

_COPIERS = {"copytree", "copy_tree"}  # shutil.copytree, distutils' dir_util.copy_tree


def copied_folder_files(root: Path, python_paths: list[str]) -> dict[str, str]:
    """Python files of folders a ``setup.py`` copies -> why. A folder is named by a literal argument of a call to
    ``copytree``/``copy_tree``, or to a function of the script whose body calls one of them; the argument's path,
    its leading ``./`` and ``../`` parts dropped, is the folder's path or its tail."""
    folders = {posixpath.dirname(p) for p in python_paths if "/" in p}
    out: dict[str, str] = {}
    for script in sorted(p for p in python_paths if posixpath.basename(p) == "setup.py"):
        try:
            tree = ast.parse((root / script).read_text(errors="replace"))
        except (OSError, SyntaxError, ValueError):
            continue
        copiers = set(_COPIERS) | {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
                                   and any(_called(call) in _COPIERS for call in ast.walk(node)
                                           if isinstance(call, ast.Call))}
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call) or _called(call) not in copiers:
                continue
            for arg in call.args[:1]:  # the source folder
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    continue
                parts = [p for p in posixpath.normpath(arg.value).split("/") if p not in ("", ".", "..")]
                tail = "/".join(parts)
                for folder in sorted(f for f in folders if tail and (f == tail or f.endswith("/" + tail))):
                    for path in python_paths:
                        if path.startswith(folder + "/"):
                            out.setdefault(path, f"{script}:{call.lineno} copies {folder}/ to install it")
    return out


def _called(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
