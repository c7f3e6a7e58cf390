"""Python files code loads by a path template: ``os.path.join(".", "prompts", prompt_type, f"{data_name}.py")``
(SeerAttention's ``eval/reasoning_tasks/eval.py``, which then runs the file it names) names every ``.py`` file
``prompts/*/*.py`` matches, beside the loading file (a script runs in its folder) or from the tree's root; and
``importlib.import_module(f"{args.benchmark}.constants")`` every ``constants.py`` (a hole may hold dots)."""

from __future__ import annotations

import ast
import posixpath
import re
from pathlib import Path

from slimfork.globs import glob_body
from slimfork.spec.model import Root

_JOINS = {"os.path.join", "path.join", "osp.join", "join", "Path", "pathlib.Path", "PurePath"}
_PREFILTER = re.compile(r"\}[\w.-]*\.py[\"']|import_module\(f")  # a file name ending with a hole and .py


def path_template_loads(root: Path, python_paths: list[str]) -> dict[str, list[tuple[str, int, str]]]:
    """Python file -> (loading file, line, pattern) for each path template naming it. A template needs a constant
    folder part (``f"{name}.py"`` alone names nothing here); parts it cannot compute match any one folder, and
    a template starting with one matches below any folder."""
    out: dict[str, list[tuple[str, int, str]]] = {}
    for rel in python_paths:
        try:
            text = (root / rel).read_text(errors="replace")
        except OSError:
            continue
        if not _PREFILTER.search(text):
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            pattern = _template(node)
            if pattern is None:
                continue
            for path in _matches(pattern, rel, python_paths):
                out.setdefault(path, []).append((rel, getattr(node, "lineno", 0), pattern))
    return out


def _template(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("import_module") and node.args \
            and isinstance(node.args[0], ast.JoinedStr):  # import_module(f"{benchmark}.constants"): a hole may
        names = ["**" if p == "*" else p for p in _text(node.args[0]).split(".")]  # hold several name parts;
        return "/".join(names) + ".py" if names[0] == "**" and any("*" not in p for p in names) else None
        # a constant prefix is the module graph's (membership checks narrow it)
    parts: list[ast.expr]
    if isinstance(node, ast.Call) and ast.unparse(node.func) in _JOINS and node.args and not node.keywords:
        parts = list(node.args)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        parts = _divided(node)
    elif isinstance(node, ast.JoinedStr):
        parts = [node]
    else:
        return None
    last = parts[-1]
    if not isinstance(last, ast.JoinedStr) or not last.values or not _constant_text(last.values[-1]).endswith(".py") \
            or not any(isinstance(v, ast.FormattedValue) for v in last.values):
        return None
    folders = [p for part in parts for p in _text(part).split("/") if p not in ("", ".")]
    if len(folders) < 2 or not any("*" not in p for p in folders[:-1]):
        return None  # no constant folder: nothing to go by
    return "/".join(folders)


def _divided(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        return _divided(node.left) + _divided(node.right)
    return [node]


def _constant_text(node: ast.AST) -> str:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""


def _text(node: ast.AST) -> str:
    """A path part: a string constant as written, an f-string with ``*`` for each hole, anything else ``*``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_constant_text(v).replace("*", "") if isinstance(v, ast.Constant) else "*"
                       for v in node.values)
    return "*"


def _matches(pattern: str, loader: str, python_paths: list[str]) -> list[str]:
    lead = 0
    parts = pattern.split("/")
    while parts[lead] == "*":
        lead += 1
    if lead:  # os.path.join(base, "prompts", f"{n}.py"): below any folder
        full = [posixpath.join("**", *parts[lead:])]
    else:
        here = posixpath.dirname(loader)
        full = [posixpath.join(here, pattern), pattern] if here else [pattern]
    return [p for p in python_paths if p != loader and any(re.fullmatch(glob_body(f, classes=True), p) for f in full)]


def path_load_roots(graph, loads: dict[str, list[tuple[str, int, str]]]) -> list[Root]:
    """Unknown means keep: the files a reached file's path template names are roots."""
    reached = {info.path for name in graph.reached if (info := graph.mm.modules.get(name)) and info.path}
    out = []
    for path, sites in sorted(loads.items()):
        module = graph.mm.module_of(path)
        site = next((s for s in sites if s[0] in reached), None)
        if module and site and path not in reached:
            out.append(Root("module", module, text=f"{module} (loaded by path at {site[0]}:{site[1]}, {site[2]})"))
    return out


def script_loads(loads: dict[str, list[tuple[str, int, str]]], scripts: set[str], reached: set[str]) -> dict[str, str]:
    """Unreached files only unreached scripts' path templates name: path -> why (run by hand, like the script)."""
    return {path: f"{site[0]}:{site[1]} loads it by path ({site[2]}), a script that may be run by hand"
            for path, sites in sorted(loads.items()) if path not in reached
            for site in [next((s for s in sites if s[0] in scripts), None)] if site}
