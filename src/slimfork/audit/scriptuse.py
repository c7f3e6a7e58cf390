"""Scripts: files a user may run by hand (a ``__main__`` block, a ``#!`` line, or code at the top level: a
loop, a call of ``print`` or of one of its own public functions), and the files nothing reaches from the roots but such a
script imports (``bench/conv/conv_ops.py`` for ``conv_bench.py``; ``from benchmark import ...`` beside the
script, its folder being first on ``sys.path`` when it runs). Unknown means keep: they are reported at a low
confidence, not as dead."""

from __future__ import annotations

import ast
import posixpath
from collections import deque
from pathlib import Path

from slimfork.graph import ModuleGraph
from slimfork.graph.modules import resolve_import


def runs_at_top_level(source: str, module_code: bool = True) -> bool:
    """Whether a module is a script that runs code when executed: a ``#!...python`` line, or at its top level
    a ``for``/``while`` loop that calls something (in ``if``/``try``/``with`` blocks too, ``except`` handlers
    aside), or a call of ``print`` or of a public function the module defines (in ``try``/``with`` blocks too:
    a library's ``if`` may print a warning at import) or a launch of a kernel it defines (``kernel[grid](x)``),
    or an ``assert`` that calls a method of an object it
    builds or such a function (DeepSpeed's ``validate_gds.py``: ``assert GDSBuilder().load(True)``; a library's
    ``assert hasattr(torch, "x")`` is no script). Also a module that reads ``sys.argv`` at its top level, and
    one that defines no function or class and calls something in a statement of its own (ThunderKittens'
    ``visualize.py``: ``np.loadtxt(...)``, ``plt.savefig(...)``), a log call of a call's result included."""
    if source.startswith("#!") and "python" in source.split("\n", 1)[0]:
        return True
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    own = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
           and not n.name.startswith("_")}
    if any(_runs(node, own, calls=True) for node in tree.body):
        return True
    if not module_code:  # a package's __init__: its calls at import are the package's set-up
        return False
    top = [n for node in tree.body if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
           for n in ast.walk(node)]
    if any(isinstance(n, ast.Attribute) and n.attr == "argv" and isinstance(n.value, ast.Name) and n.value.id == "sys"
           for n in top):
        return True  # TESTNAME = sys.argv[1] at the top level: a command line
    defines = any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) for n in tree.body)
    return not defines and any(isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)
                               and (not _set_up_call(n.value) or _logs_a_result(n.value)) for n in tree.body)


def _logs_a_result(call: ast.Call) -> bool:
    """``logger.info(response.json())``: a log call of what a call returns (LightX2V's ``scripts/server/
    check_status.py``, a request and its logged answer), not a set-up call; ``warnings.warn`` stays set-up."""
    func = call.func
    while isinstance(func, ast.Attribute):
        func = func.value
    return isinstance(func, ast.Name) and func.id != "warnings" and any(
        isinstance(n, ast.Call) for arg in [*call.args, *(k.value for k in call.keywords)] for n in ast.walk(arg))


def _set_up_call(call: ast.Call) -> bool:
    """``warnings.warn(...)`` (a deprecated shim), ``logging.basicConfig(...)``: module set-up, not work."""
    func = call.func
    while isinstance(func, ast.Attribute):
        func = func.value
    return isinstance(func, ast.Name) and func.id in ("warnings", "logging", "logger", "log")


def _runs(node: ast.stmt, own: set[str], calls: bool) -> bool:
    if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
        return any(isinstance(n, ast.Call) for n in ast.walk(node))
    if isinstance(node, (ast.If, ast.Try, ast.With, ast.AsyncWith)):
        calls = calls and not isinstance(node, ast.If)
        return any(_runs(child, own, calls) for child in node.body + getattr(node, "orelse", [])
                   + getattr(node, "finalbody", []))
    if calls and isinstance(node, ast.Assert):  # assert GDSBuilder().load(True): a check that builds and runs
        return any(isinstance(n, ast.Call) and (isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Call)
                                                or isinstance(n.func, ast.Name) and n.func.id in own)
                   for n in ast.walk(node.test))
    if calls and isinstance(node, (ast.Expr, ast.Assign, ast.AnnAssign)) and node.value is not None:
        return any(isinstance(n, ast.Call) and (isinstance(n.func, ast.Name) and (n.func.id == "print"
                   or n.func.id in own) or _launches_own(n.func, own)) for n in ast.walk(node.value))
    return False


def _launches_own(func: ast.expr, own: set[str]) -> bool:
    """``kernel[grid](x, y)``: a launch of a Triton kernel the module defines (kernl's ``experimental/misc/
    transpose.py``, which builds tensors, launches its kernel and asserts the result at its top level)."""
    return isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name) and func.value.id in own


def top_level_scripts(root: Path, paths: list[str]) -> set[str]:
    out = set()
    for path in paths:
        try:
            if runs_at_top_level((root / path).read_text(errors="replace"),
                                 module_code=posixpath.basename(path) != "__init__.py"):
                out.add(path)
        except OSError:
            continue
    return out


def script_support(graph: ModuleGraph, index, scripts: set[str], reached: set[str]) -> dict[str, str]:
    """Unreached files the unreached ``scripts`` import (transitively): path -> the script that does."""
    mm = graph.mm
    present = set(index.files)
    out: dict[str, str] = {}
    queue = deque((p, p) for p in sorted(scripts) if p not in reached)
    seen = {p for p, _s in queue}
    while queue:
        path, script = queue.popleft()
        module = mm.module_of(path)
        targets = [mm.modules[e.target].path for e in graph.edges.get(module or "", ())
                   if e.kind != "parent" and e.target in mm.modules]
        targets += beside_imports(path, index.files[path].imports if path in index.files else (), present)
        if module is None and path in index.files:  # a file name that is no module name: 06-overlap-gemm.py
            targets += [mm.modules[t].path for imp in index.files[path].imports if not imp.level
                        for t in resolve_import(mm, "", imp).targets if t in mm.modules]
        targets += [mm.modules[t].path for t in _relocated(graph, module)]
        for target in targets:
            if target and target not in reached and target not in seen:
                seen.add(target)
                out[target] = script
                queue.append((target, script))
    return out


def _relocated(graph: ModuleGraph, module: str | None) -> list[str]:
    """Imports of ``module`` missing from the tree whose tail is a module of the tree
    (``pkg.bench.common.utils`` for ``bench/common/utils.py``, a folder the build installs in the package)."""
    mm, out = graph.mm, []
    for m in graph.missing:
        if m.module != module:
            continue
        parts = m.target.split(".")
        for i in range(1, len(parts) - 1):
            tail = ".".join(parts[i:])
            if tail in mm.modules and mm.modules[tail].path:
                out.append(tail)
                break
    return out


def beside_imports(path: str, imports, present: set[str]) -> list[str]:
    """Absolute imports a script resolves from its own folder (``from benchmark import x`` -> benchmark.py), else
    from the nearest folder above it, where it is run from (``from fftconv.baselines.tk_fftconv import x`` in
    ``tests/python/fftconv/implementations.py``)."""
    parts = posixpath.dirname(path).split("/") if posixpath.dirname(path) else []
    folders = ["/".join(parts[:i]) for i in range(len(parts), -1, -1)]
    out = []
    for imp in imports:
        if imp.level or not imp.module:
            continue
        for folder in folders:
            base = posixpath.join(folder, *imp.module.split("."))
            found = next((c for c in (base + ".py", base + "/__init__.py") if c in present), None)
            if found:
                out.append(found)
                break
    return out
