"""The folder that holds a project's packages, as its build configuration declares it: setuptools' ``package-dir``
(pyproject.toml, setup.cfg or a literal ``setup(package_dir=...)`` in setup.py), hatch's wheel ``packages`` (and
``only-include`` below a ``sources`` prefix) and poetry's ``packages = [{include, from}]``. ``None`` when nothing declares one folder (the caller guesses)."""

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
    found = _roots(tool.get("setuptools", {}).get("package-dir", {}) or {})
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
    # names bound to a literal (mlx: package_dir = {"": "python"} ... setup(package_dir=package_dir)); a name
    # bound twice to different values declares nothing
    bound: dict[str, ast.expr | None] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            previous = bound.get(name)
            same = previous is not None and ast.dump(previous) == ast.dump(node.value)
            bound[name] = node.value if name not in bound or same else None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg == "package_dir":
                    value: ast.expr | None = keyword.value
                    if isinstance(value, ast.Name):
                        value = bound.get(value.id)
                    if value is None:
                        continue
                    try:
                        found |= _roots(ast.literal_eval(value))
                    except ValueError:
                        continue
    return found
