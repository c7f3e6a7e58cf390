"""Builders of native code: CMake files name the sources they compile (``add_library``, ``nanobind_add_module``,
``file(GLOB ...)``)."""

from __future__ import annotations

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
