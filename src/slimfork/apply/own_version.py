"""Does kept code read the distribution's own version? Such code may parse it, and a local suffix such as
``+slimfork`` breaks a parse that expects only numbers (``tuple(int(p) for p in v.split("."))``).

Read from the syntax, not from names: every call of ``importlib.metadata``/``importlib_metadata``/``pkg_resources``
whatever it is bound to (``from importlib.metadata import version as _v``, ``import importlib.metadata as md``)
reads the own version unless its distribution is a string (or a constant bound to one) naming another
distribution; ``distributions()`` and ``working_set`` read every distribution's. A file that names
``pyproject.toml``, ``setup.cfg`` or ``PKG-INFO`` and ``version`` may compare the static version too (a test that
``__version__`` equals the pyproject's). Unknown means keep: the original's version."""

from __future__ import annotations

import ast
import re
from pathlib import Path

META_MODULES = ("importlib.metadata", "importlib_metadata", "pkg_resources")
# calls whose first argument names a distribution (or a requirement, for ``require``)
BY_DISTRIBUTION = {"version", "distribution", "metadata", "get_distribution", "require", "requires", "files",
                   "get_provider", "Distribution.from_name"}
EVERY_DISTRIBUTION = {"distributions", "packages_distributions", "working_set", "find_distributions"}
_STATIC_FILES = re.compile(r"""["'][^"'\n]*(?:pyproject\.toml|setup\.cfg|PKG-INFO)["']""")


def own_version_reader(root: Path, paths: list[str], name: str) -> str | None:
    """The first ``path:line`` of the given files that reads the distribution's own version; None when none does."""
    own = _normal(name)
    trees: dict[str, tuple[str, ast.Module | None]] = {}
    for path in sorted(paths):
        try:
            text = (root / path).read_text(errors="replace")
        except OSError:
            continue
        try:
            trees[path] = (text, ast.parse(text))
        except (SyntaxError, ValueError):
            trees[path] = (text, None)
    constants = _string_constants(tree for _, tree in trees.values() if tree is not None)
    for path, (text, tree) in trees.items():
        line = _reading_line(tree, own, constants) if tree is not None else None
        if line is None and "version" in text and (static := _STATIC_FILES.search(text)):
            line = text.count("\n", 0, static.start()) + 1
        if line is not None:
            return f"{path}:{line}"
    return None


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _string_constants(trees) -> dict[str, set[str]]:
    """Every module-level ``NAME = "text"`` of the files, by name (a name bound to anything else is unknown)."""
    values: dict[str, set[str]] = {}
    for tree in trees:
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, ast.AnnAssign) and node.value is not None else []
            for target in targets:
                if isinstance(target, ast.Name):
                    value = node.value
                    text = value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else None
                    values.setdefault(target.id, set()).add(text if text is not None else "\0unknown")
    return values


def _bindings(tree: ast.Module) -> tuple[set[str], dict[str, str]]:
    """The dotted names bound to a metadata module, and the local names bound to its functions."""
    modules: set[str] = set()
    functions: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in META_MODULES:
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                if f"{node.module}.{alias.name}" in META_MODULES:
                    modules.add(alias.asname or alias.name)
                elif node.module in META_MODULES:
                    functions[alias.asname or alias.name] = alias.name
    return modules, functions


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and (base := _dotted(node.value)):
        return f"{base}.{node.attr}"
    return None


def _function(node: ast.expr, modules: set[str], functions: dict[str, str]) -> str | None:
    dotted = _dotted(node)
    if dotted is None:
        return None
    head, _, rest = dotted.partition(".")
    if head in functions:
        return f"{functions[head]}.{rest}" if rest else functions[head]
    for module in modules:
        if dotted.startswith(module + "."):
            return dotted[len(module) + 1:]
    return None


def _reading_line(tree: ast.Module, own: str, constants: dict[str, set[str]]) -> int | None:
    modules, functions = _bindings(tree)
    if not modules and not functions:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute | ast.Name) and not isinstance(getattr(node, "ctx", None), ast.Store):
            if _function(node, modules, functions) in EVERY_DISTRIBUTION:
                return node.lineno
        if not isinstance(node, ast.Call):
            continue
        function = _function(node.func, modules, functions)
        if function in BY_DISTRIBUTION and not _names_another(_first_argument(node), own, constants):
            return node.lineno
    return None


def _first_argument(call: ast.Call) -> ast.expr | None:
    if call.args:
        return call.args[0]
    return next((k.value for k in call.keywords if k.arg in {"distribution_name", "dist", "name"}), None)


def _names_another(arg: ast.expr | None, own: str, constants: dict[str, set[str]]) -> bool:
    """Whether the argument surely names a distribution other than the own one."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        values = {arg.value}
    elif isinstance(arg, ast.Name | ast.Attribute):
        values = constants.get(arg.id if isinstance(arg, ast.Name) else arg.attr, {"\0unknown"})
    else:
        return False
    if "\0unknown" in values:
        return False
    return all(_normal(re.split(r"[^\w.-]", value.strip(), maxsplit=1)[0]) != own for value in values)
