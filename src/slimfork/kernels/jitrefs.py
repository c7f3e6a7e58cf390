"""Kernel source files a Python module names: ``load_jit(..., cuda_files=[...], cpp_files=[...])`` calls and
other string literals that end in a kernel suffix (read-only, stdlib ``ast``).

A stand-in for the audit's kernel table (slimfork.audit.kernels) until that exists. Paths that are built at
run time become glob patterns (``f"deepseek_v4/c{ratio}_v2.cuh"`` -> ``deepseek_v4/c*_v2.cuh``), module
constants are looked up, and a file name the analysis cannot see at all is reported as ``unresolved`` so the
caller keeps every kernel source it might be (unknown means keep).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

KERNEL_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".cpp", ".c", ".cc", ".hip", ".s", ".S", ".inc", ".inl")


_MAY_NAME_KERNEL = re.compile(r"\.(?:%s)['\"]" % "|".join(s.lstrip(".") for s in KERNEL_SUFFIXES))


@dataclass(frozen=True)
class JitCall:
    """One ``load_jit`` call: file names relative to the JIT csrc folder (or absolute), as patterns."""

    line: int
    name: str | None
    cuda_files: tuple[str, ...] = ()
    cpp_files: tuple[str, ...] = ()
    include_paths: tuple[str, ...] = ()  # literal extra_include_paths
    cuda_cflags: tuple[str, ...] = ()  # literal extra_cuda_cflags
    dependencies: tuple[str, ...] = ()  # extra_dependencies (cutlass, flashinfer, ...)
    wrappers: tuple[tuple[str, str], ...] = ()  # literal cuda_wrappers
    unresolved: tuple[str, ...] = ()  # source text of file arguments that could not be read


@dataclass
class PythonKernelRefs:
    jit_calls: list[JitCall] = field(default_factory=list)
    literals: list[str] = field(default_factory=list)  # other strings ending in a kernel suffix (patterns)
    dynamic_suffixes: list[str] = field(default_factory=list)  # e.g. name + ".s": any file of that kind nearby


def python_kernel_refs(text: str) -> PythonKernelRefs:
    """Read one Python module's source text; a syntax error gives empty results (the index reports it)."""
    refs = PythonKernelRefs()
    if "load_jit" not in text and not _MAY_NAME_KERNEL.search(text):
        return refs  # no call and no string literal ending in a kernel suffix: nothing to parse for
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return refs
    constants = _module_constants(tree)
    in_calls: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _callee(node) == "load_jit":
            refs.jit_calls.append(_jit_call(node, constants))
            in_calls.update(id(n) for n in ast.walk(node))
    for node in ast.walk(tree):
        if id(node) in in_calls or not isinstance(node, (ast.Constant, ast.JoinedStr)):
            continue
        pattern = _pattern(node, constants)
        if pattern is None or not pattern.endswith(KERNEL_SUFFIXES):
            continue
        if pattern.startswith(".") and "/" not in pattern and pattern.count(".") == 1:
            refs.dynamic_suffixes.append(pattern)  # ".s" as in name + ".s"
        elif isinstance(node, ast.Constant) or pattern.strip("*/") != "":
            refs.literals.append(pattern)
    return refs


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _module_constants(tree: ast.Module) -> dict[str, str]:
    found: dict[str, str] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            if isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                found[stmt.targets[0].id] = stmt.value.value
    return found


def _pattern(node: ast.AST, constants: dict[str, str]) -> str | None:
    """A glob pattern for a string expression: constants as they are, anything computed as '*'."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.JoinedStr):
        parts = [v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "*" for v in node.values]
        return "".join(parts)
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        return _pattern(node.args[0], constants)  # _cuda_source("x.cuh") and the like
    if isinstance(node, ast.IfExp):  # "a.cuh" if sm90 else "b.cuh": both, as one alternation
        body, orelse = _pattern(node.body, constants), _pattern(node.orelse, constants)
        return None if body is None or orelse is None else body + "|" + orelse
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Div)):
        left, right = _pattern(node.left, constants), _pattern(node.right, constants)
        if right is None or "|" in right or (left and "|" in left):
            return None
        joiner = "/" if isinstance(node.op, ast.Div) else ""
        return ("*" if left is None else left) + joiner + right
    return None


def _strings(node: ast.AST | None, constants: dict[str, str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(patterns, unresolved source texts) of a list argument."""
    if node is None:
        return (), ()
    if not isinstance(node, (ast.List, ast.Tuple)):
        return (), (ast.unparse(node),)
    patterns, unresolved = [], []
    for item in node.elts:
        pattern = _pattern(item, constants)
        if pattern and pattern.strip("*/"):
            patterns.extend(pattern.split("|"))
        else:
            unresolved.append(ast.unparse(item))
    return tuple(patterns), tuple(unresolved)


def _jit_call(call: ast.Call, constants: dict[str, str]) -> JitCall:
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    cuda, bad_cuda = _strings(kw.get("cuda_files"), constants)
    cpp, bad_cpp = _strings(kw.get("cpp_files"), constants)
    includes, _ = _strings(kw.get("extra_include_paths"), constants)
    cflags, _ = _strings(kw.get("extra_cuda_cflags"), constants)
    deps, _ = _strings(kw.get("extra_dependencies"), constants)
    wrappers: list[tuple[str, str]] = []
    node = kw.get("cuda_wrappers")
    if isinstance(node, (ast.List, ast.Tuple)):
        for item in node.elts:
            if isinstance(item, ast.Tuple) and all(isinstance(e, ast.Constant) for e in item.elts):
                pair = tuple(e.value for e in item.elts if isinstance(e, ast.Constant))
                wrappers.append(pair)  # type: ignore[arg-type]
    first = call.args[0] if call.args else None
    name = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
    return JitCall(line=call.lineno, name=name, cuda_files=cuda, cpp_files=cpp, include_paths=includes,
                   cuda_cflags=cflags, dependencies=deps, wrappers=tuple(wrappers),
                   unresolved=bad_cuda + bad_cpp)
