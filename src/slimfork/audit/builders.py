"""Builders of native code: CMake files name the sources they compile (``add_library``, ``nanobind_add_module``,
``file(GLOB ...)``)."""

from __future__ import annotations

import fnmatch
import posixpath
import re
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
