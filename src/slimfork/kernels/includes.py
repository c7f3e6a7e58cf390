"""The include graph of kernel sources, and which of them nothing kept reaches.

Built once from the tree (``#include "…"``/``<…>`` in C/CUDA, ``.include "…"`` in assembly), then queried:
``include_closure`` walks from the files kept Python code names and says why each file is reached;
``removable_kernel_sources`` turns the rest into removals with a reason. Run it on the folded tree, so a
header included only under ``#ifdef USE_ROCM`` is no longer reached. Resolution follows the compiler (the
including file's folder for quotes, then the include folders); an include that no folder resolves but whose
name matches files of the tree keeps every match; ``#include MACRO`` keeps the whole folder of the file.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from slimfork.decisions import Removal, RemovalKind
from slimfork.kernels.jitrefs import (
    KERNEL_SUFFIXES,
    PythonKernelRefs,
    python_kernel_refs,
)

_C_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*(?:"([^"\n]+)"|<([^>\n]+)>|(\S+))', re.M)
_ASM_INCLUDE = re.compile(r'^[ \t]*\.include[ \t]+"([^"\n]+)"', re.M)
_SKIP_DIRS = {".git", "__pycache__", ".hg", ".svn"}


def kernel_source_files(root: Path, under: str = "") -> list[str]:
    """Every kernel source (C/CUDA/HIP/assembly, by suffix) below ``root/under``, as sorted posix paths."""
    root = Path(root)
    base = root / under if under else root
    found = []
    for path in base.rglob("*"):
        if path.suffix in KERNEL_SUFFIXES and path.is_file() and not _SKIP_DIRS & set(path.parts):
            found.append(path.relative_to(root).as_posix())
    return sorted(found)


@dataclass(frozen=True)
class IncludeEdge:
    source: str
    line: int
    spelled: str  # as written: "x.h", <x.h>, or a macro
    targets: tuple[str, ...]  # files of the tree it may name (empty: outside the tree)
    how: str  # "relative", "include path", "by name", "computed", "outside"


@dataclass
class IncludeGraph:
    files: set[str]
    edges: dict[str, list[IncludeEdge]] = field(default_factory=dict)


@dataclass
class IncludeClosure:
    """Files reached from the entries, each with why (the first way found, breadth first)."""

    reached: dict[str, str] = field(default_factory=dict)
    uncertain: list[str] = field(default_factory=list)

    def why(self, path: str) -> str | None:
        return self.reached.get(path)


def build_include_graph(root: Path, files: Iterable[str] | None = None,
                        include_dirs: Sequence[str] = ()) -> IncludeGraph:
    root = Path(root)
    all_files = set(files if files is not None else kernel_source_files(root))
    by_name: dict[str, list[str]] = defaultdict(list)
    for path in all_files:
        by_name[posixpath.basename(path)].append(path)
    graph = IncludeGraph(files=all_files)
    for path in sorted(all_files):
        text = (root / path).read_bytes().decode("latin-1")
        graph.edges[path] = [_edge(path, text, m, all_files, by_name, include_dirs) for m in _matches(path, text)]
    return graph


def _matches(path: str, text: str):
    return (_ASM_INCLUDE if path.endswith((".s", ".S")) else _C_INCLUDE).finditer(text)


def _edge(source: str, text: str, match: re.Match, files: set[str], by_name: dict[str, list[str]],
          include_dirs: Sequence[str]) -> IncludeEdge:
    line = text.count("\n", 0, match.start()) + 1
    groups = match.groups()
    quoted, angled = groups[0], groups[1] if len(groups) > 1 else None
    if quoted is None and angled is None:  # #include MACRO: any file of this folder might be meant
        folder = posixpath.dirname(source)
        near = tuple(sorted(f for f in files if f.startswith(folder + "/") or not folder))
        return IncludeEdge(source, line, groups[2], near, "computed")
    name = quoted or angled
    assert name is not None  # (an empty quoted name fails here, as it failed in posixpath.join)
    candidates = ([posixpath.dirname(source)] if quoted is not None or source.endswith((".s", ".S")) else [])
    for base, how in [(c, "relative") for c in candidates] + [(d, "include path") for d in include_dirs]:
        target = posixpath.normpath(posixpath.join(base, name))
        if target in files:
            return IncludeEdge(source, line, name, (target,), how)
    suffix = posixpath.normpath(name)
    named = tuple(sorted(f for f in by_name.get(posixpath.basename(suffix), [])
                         if f == suffix or f.endswith("/" + suffix.lstrip("./"))))
    if named:
        return IncludeEdge(source, line, name, named, "by name")
    return IncludeEdge(source, line, name, (), "outside")


def include_closure(root: Path, entry_files: Iterable[str] | dict[str, str], include_dirs: Sequence[str] = (),
                    graph: IncludeGraph | None = None) -> IncludeClosure:
    """Every kernel source reached from ``entry_files`` (a list, or path -> why it is an entry)."""
    graph = graph or build_include_graph(root, include_dirs=include_dirs)
    entries = entry_files if isinstance(entry_files, dict) else {f: "named by kept Python code" for f in entry_files}
    closure = IncludeClosure()
    queue: deque[str] = deque()
    for path, why in entries.items():
        if path in graph.files and path not in closure.reached:
            closure.reached[path] = why
            queue.append(path)
    while queue:
        source = queue.popleft()
        for edge in graph.edges.get(source, []):
            if edge.how == "computed":
                closure.uncertain.append(f"{source}:{edge.line}: #include {edge.spelled} is computed; "
                                         "every file of its folder is kept")
            for target in edge.targets:
                if target not in closure.reached:
                    closure.reached[target] = f"included by {source}:{edge.line} ({edge.how})"
                    queue.append(target)
    return closure


def removable_kernel_sources(all_files: Iterable[str], closure: IncludeClosure, root: Path | None = None,
                             group: str = "kernels") -> list[Removal]:
    """Kernel sources the closure does not reach, each a Removal of kind "kernel" with its reason."""
    removals = []
    for path in sorted(set(all_files) - set(closure.reached)):
        lines = (root / path).read_bytes().count(b"\n") if root is not None else 0
        removals.append(Removal(RemovalKind.KERNEL, path, "kernel source no kept Python code names and no kept kernel "
                                "source includes", lines=lines, group=group))
    return removals


def resolve_python_refs(py_path: str, refs: PythonKernelRefs, files: Iterable[str],
                        csrc_dirs: Sequence[str] = ()) -> tuple[dict[str, str], list[str]]:
    """Tree paths the references of the Python file ``py_path`` may name (path -> why), and what stays unknown.

    ``load_jit`` names resolve against ``csrc_dirs`` (the JIT loader's source folders) and the module's folder;
    other literals against the module's folder, then by file name anywhere in the tree.
    """
    files = sorted(files)
    here = posixpath.dirname(py_path)
    found: dict[str, str] = {}
    uncertain: list[str] = []

    def add(matches: list[str], why: str) -> bool:
        for m in matches:
            found.setdefault(m, why)
        return bool(matches)

    for call in refs.jit_calls:
        why = f"load_jit({call.name!r}) in {py_path}:{call.line}"
        for pattern in (*call.cuda_files, *call.cpp_files):
            bases = [*csrc_dirs, here]
            if not any(add(_glob(files, posixpath.join(b, pattern)), why) for b in bases):
                if not add(_by_name(files, pattern), why + " (matched by file name)"):
                    uncertain.append(f"{why}: no file of the tree matches {pattern!r}")
        for text in call.unresolved:
            uncertain.append(f"{why}: the file argument {text} is computed at run time")
    for pattern in refs.literals:
        why = f"named in {py_path}"
        if not add(_glob(files, posixpath.join(here, pattern)), why):
            add(_by_name(files, pattern), why + " (matched by file name)")
    for suffix in refs.dynamic_suffixes:
        add([f for f in files if f.startswith(here + "/") and f.endswith(suffix)],
            f"{py_path} builds '*{suffix}' file names at run time")
    return found, uncertain


def _glob(files: list[str], pattern: str) -> list[str]:
    pattern = posixpath.normpath(pattern)
    if "*" not in pattern:
        return [pattern] if pattern in set(files) else []
    return [f for f in files if fnmatch.fnmatchcase(f, pattern)]


def _by_name(files: list[str], pattern: str) -> list[str]:
    name = posixpath.basename(pattern)
    return [f for f in files if fnmatch.fnmatchcase(posixpath.basename(f), name)] if name else []


@dataclass
class KernelPlan:
    """Which kernel sources the fork keeps (with why) and which it removes."""

    closure: IncludeClosure
    removals: list[Removal]
    uncertain: list[str]


def plan_kernel_sources(root: Path, kept_python: Iterable[str], csrc_dirs: Sequence[str] = (),
                        include_dirs: Sequence[str] = (), files: Iterable[str] | None = None,
                        python_root: Path | None = None) -> KernelPlan:
    """Join the kept Python modules' kernel references with the include graph of the (folded) tree.

    A ``load_jit`` file argument computed at run time is unknown: then every kernel source under the
    ``csrc_dirs`` stays (unknown means keep), and the report says why. Python files are read from
    ``python_root`` (default ``root``).
    """
    root = Path(root)
    files = sorted(files if files is not None else kernel_source_files(root))
    entries: dict[str, str] = {}
    uncertain: list[str] = []
    for py in sorted(kept_python):
        refs = python_kernel_refs(Path(python_root or root, py).read_bytes().decode("utf-8", "replace"))
        found, unknown = resolve_python_refs(py, refs, files, csrc_dirs)
        for path, why in found.items():
            entries.setdefault(path, why)
        uncertain += unknown
    if any("computed at run time" in u for u in uncertain):
        for path in files:
            if any(path.startswith(d.rstrip("/") + "/") for d in csrc_dirs):
                entries.setdefault(path, "kept: a load_jit file argument is computed at run time")
    graph = build_include_graph(root, files, include_dirs)
    closure = include_closure(root, entries, include_dirs, graph)
    uncertain += closure.uncertain
    return KernelPlan(closure, removable_kernel_sources(files, closure, root), uncertain)
