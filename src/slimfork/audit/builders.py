"""Builders of native code: CMake files name the sources they compile (``add_library``, ``nanobind_add_module``,
``file(GLOB ...)``), and a ``setup.py`` names the folders it compiles every source of (``all_files_in_dir(
"transformer_engine/pytorch/csrc", "cpp")``) or globs them (``glob("csrc/*.cu")``)."""

from __future__ import annotations

import ast
import fnmatch
import io
import posixpath
import re
import tokenize
from pathlib import Path

from slimfork.audit.links import SourceResolver

_CMAKE_COMMENT = re.compile(r"#\[\[.*?\]\]|#[^\n]*", re.S)
_PATTERN = re.compile(r"[\w${}./+-]*\*[\w*./+-]*\.(?:cuh|cu|cpp|cc|cxx|c|hpp|hh|h|hip|metal|mm|m|inl|inc)\b")
_SOURCE = re.compile(r"[\w${}./+-]+\.(?:cuh|cu|cpp|cc|cxx|c|hpp|hh|h|hip|metal|mm|m|inl|inc)\b")
_VAR_PREFIX = re.compile(r"^\$\{(?:CMAKE_CURRENT_SOURCE_DIR|CMAKE_CURRENT_LIST_DIR|PROJECT_SOURCE_DIR|"
                         r"CMAKE_SOURCE_DIR)\}/")


def is_cmake(path: str) -> bool:
    return posixpath.basename(path) == "CMakeLists.txt" or path.endswith(".cmake")


def cmake_sources(root: Path, other_files: list[str], native: list[str]) -> dict[str, str]:
    """Native sources a CMake file of the tree names or globs: path -> "built by CMakeLists.txt:81"."""
    resolver = SourceResolver(native)
    out: dict[str, str] = {}
    for rel in sorted(p for p in other_files if is_cmake(p)):
        try:
            text = _CMAKE_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), (root / rel).read_text(
                errors="replace"))
        except OSError:
            continue
        here = posixpath.dirname(rel)
        for m in _PATTERN.finditer(text):  # file(GLOB v csrc/*.cu), glob_files_nohip(v csrc/moe/*.cpp), ...
            pattern = _VAR_PREFIX.sub("", m.group(0))
            if "${" in pattern:
                continue
            line = text.count("\n", 0, m.start()) + 1
            bases = [here] + ([""] if rel.endswith(".cmake") and here else [])  # include()d: the includer's folder
            for full in (posixpath.normpath(posixpath.join(b, pattern)) for b in bases):
                for path in native:
                    if fnmatch.fnmatch(path, full):
                        out.setdefault(path, f"built by {rel}:{line} (glob {pattern})")
        for m in _SOURCE.finditer(text):
            name = _VAR_PREFIX.sub("", m.group(0))
            if "${" in name or "*" in name:
                continue
            line = text.count("\n", 0, m.start()) + 1
            for path in resolver.resolve(name, rel):
                out.setdefault(path, f"built by {rel}:{line}")
    return out


_EXTENSION_CALL = re.compile(r"\b\w*Extension\s*\(")
_NAME = re.compile(r"""^\s*(["'])([\w.]+)\1|\bname\s*=\s*(["'])([\w.]+)\3""")
_BUILT_SOURCE = re.compile(r"""(["'])([\w./+-]+\.(?:cu|cpp|cc|cxx|c|hip|mm))\1""")


def extension_names(root: Path, python_paths: list[str], native: list[str]) -> dict[str, str]:
    """The module a ``setup.py`` extension builds from each native source it lists (``CUDAExtension(
    name="flash_attn_2_cuda", sources=["csrc/flash_attn/flash_api.cpp", ...])``): path -> module name. A
    ``PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)`` source gets its module's name from here."""
    resolver = SourceResolver(native)
    out: dict[str, str] = {}
    for rel in sorted(p for p in python_paths if posixpath.basename(p) == "setup.py"):
        try:
            text = _without_comments((root / rel).read_text(errors="replace"))
        except OSError:
            continue
        unlisted = set()  # extensions whose sources are computed (sources=sources): the file's other literals
        for call in _EXTENSION_CALL.finditer(text):
            body = _call_text(text, call.end())
            name = _NAME.search(body)
            if name is None:
                continue
            listed = [path for source in _BUILT_SOURCE.finditer(body) for path in resolver.resolve(source.group(2), rel)]
            for path in listed:
                out.setdefault(path, name.group(2) or name.group(4))
            if not listed:
                unlisted.add(name.group(2) or name.group(4))
        if len(unlisted) == 1:
            for source in _BUILT_SOURCE.finditer(text):
                for path in resolver.resolve(source.group(2), rel):
                    out.setdefault(path, next(iter(unlisted)))
    return out


def _call_text(text: str, start: int) -> str:
    """The arguments of the call whose ``(`` ends at ``start``: up to its balancing ``)``."""
    depth = 1
    for i in range(start, min(len(text), start + 20000)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return text[start:i]
    return text[start:start + 20000]


def _without_comments(text: str) -> str:
    """Python source with its comments blanked (a commented-out ``CUDAExtension(`` builds nothing)."""
    lines = text.splitlines(keepends=True)
    try:
        comments = [t for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError):
        return text
    for token in reversed(comments):
        row, col = token.start
        line = lines[row - 1]
        lines[row - 1] = line[:col] + " " * (token.end[1] - col) + line[token.end[1]:]
    return "".join(lines)


_NATIVE_SOURCE = (".cu", ".cpp", ".cc", ".cxx", ".c", ".hip", ".mm")


def setup_folder_sources(root: Path, python_paths: list[str], native: list[str]) -> dict[str, str]:
    """Native sources a ``setup.py`` compiles by its folder or a glob: path -> "built by setup.py:221 (...)". A
    string of the script that is a folder path of the tree (relative to the script's folder, with a "/", holding
    sources and no Python files) keeps
    every source below it: a build helper walks it (Transformer Engine's ``setup_pytorch_extension(
    "transformer_engine/pytorch/csrc", ...)`` compiles ``all_files_in_dir(path, "cpp")``). Include folders
    (``include_dirs=[...]``, a name with ``include``) are not compiled and keep nothing; headers stay by the
    sources that include them."""
    sources = [p for p in native if p.endswith(_NATIVE_SOURCE)]
    folders: dict[str, list[str]] = {}
    for path in sources:
        parts = path.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folders.setdefault("/".join(parts[:i]), []).append(path)
    python_folders = {"/".join(p.split("/")[:i]) for p in python_paths for i in range(1, p.count("/") + 1)}
    out: dict[str, str] = {}
    for rel in sorted(p for p in python_paths if posixpath.basename(p) == "setup.py"):
        try:
            tree = ast.parse((root / rel).read_bytes())
        except (OSError, SyntaxError, ValueError):
            continue
        here = posixpath.dirname(rel)
        for text, line in _build_strings(tree):
            full = posixpath.normpath(posixpath.join(here, text.rstrip("/")))
            if full.startswith("..") or full == "." or "/" not in text.strip("./") or full in python_folders:
                continue
            if "*" in text:  # glob("csrc/**/*.cu")
                if text.endswith(_NATIVE_SOURCE):
                    for path in sources:
                        if fnmatch.fnmatch(path, full) or fnmatch.fnmatch(path, full.replace("**/", "")):
                            out.setdefault(path, f"built by {rel}:{line} (glob {text})")
                continue
            for path in folders.get(full, ()):
                out.setdefault(path, f"built by {rel}:{line} (every source below the folder '{text}')")
    return out


_NOT_COMPILED = ("include", "package", "exclude")  # include_dirs=, packages=, package_data=, exclude=


def _build_strings(tree: ast.Module) -> list[tuple[str, int]]:
    """The whole-path strings of a build script, not those of include folders or of a path joined from parts."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        named: str | None = None
        value: ast.AST | None = None
        if isinstance(node, ast.keyword) and node.arg:
            named, value = node.arg, node.value
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            named = " ".join(ast.unparse(t) for t in targets)
            value = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "append", "extend", "insert") and "include" in ast.unparse(node.func.value).lower():
            skip.update(id(n) for a in node.args for n in ast.walk(a))
        elif isinstance(node, ast.BinOp) or isinstance(node, ast.Call) and ast.unparse(node.func).endswith("join"):
            parts = [node.left, node.right] if isinstance(node, ast.BinOp) else node.args
            if len(parts) > 1:  # a part of a path ("csrc" in root / "csrc" / "src"), not a whole one
                skip.update(id(a) for a in parts if isinstance(a, ast.Constant))
        if named is not None and value is not None and any(w in named.lower() for w in _NOT_COMPILED):
            skip.update(id(n) for n in ast.walk(value))
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("find_packages"):
            skip.update(id(n) for n in ast.walk(node))
    return [(n.value, n.lineno) for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in skip and 0 < len(n.value) <= 200 and re.fullmatch(r"[\w.*/+-]+", n.value)]
