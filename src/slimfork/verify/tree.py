"""A snapshot of a tree under test (the original or a fork): its Python files, their hashes and modules.

Summaries come from ``slimfork.index`` and are shared by content hash across trees, so a fork that differs from
the original in a few files costs a few parses; reading and hashing sglang's 4.7k files takes well under a second.
The trees opened last stay held, so the checks of one batch, and the next batch, parse only what changed.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

from slimfork.index.build import build_index, is_held, python_files, summarize_all, summary_by_hash
from slimfork.index.parse import content_hash
from slimfork.index.summary import ModuleSummary


# The summaries of the trees opened last, held: summaries are held only as long as a tree holds them, and each
# check of a batch opens the same tree (sglang: 40-70 s to summarise a folded fork's 1.5k changed files again)
_HOLD = 2
_SUMMARISING = threading.Lock()
_HELD: list[dict[str, ModuleSummary]] = []


@dataclass(frozen=True)
class TreeLayout:
    """Where the importable packages are, relative to a tree's root: the same for the original and forks."""

    python_root: str = ""  # "" or e.g. "src" (posix, relative)
    packages: tuple[str, ...] = ()  # the analysed top-level packages (empty: every top-level name)

    def module_of(self, rel: str) -> str | None:
        """Dotted module name of a .py file (relative posix path), or None if it is outside the packages."""
        prefix = self.python_root.strip("/") + "/" if self.python_root.strip("/") else ""
        if not rel.startswith(prefix) or not rel.endswith(".py"):
            return None
        parts = rel[len(prefix):-3].split("/")
        if parts[-1] == "__init__":
            parts.pop()
        if not parts or not all(p.isidentifier() for p in parts):
            return None
        if self.packages and parts[0] not in self.packages:
            return None
        return ".".join(parts)

    def internal(self, module: str) -> bool:
        return module.split(".")[0] in self.packages


@dataclass
class Tree:
    root: Path
    layout: TreeLayout
    shas: dict[str, str]  # relative posix path of every .py file -> content hash
    modules: dict[str, str] = field(default_factory=dict)  # dotted module -> file
    namespaces: set[str] = field(default_factory=set)  # dotted names of folders that are packages
    summaries: dict[str, ModuleSummary] = field(default_factory=dict, repr=False, compare=False)  # by content hash:
    # held here, so the process keeps them exactly as long as the tree (they do not travel with a pickled tree)

    def __getstate__(self):
        return {**self.__dict__, "summaries": {}}

    @property
    def python_root(self) -> Path:
        return self.root / self.layout.python_root if self.layout.python_root else self.root

    def is_extension(self, module: str) -> bool:
        return module in self.modules and self.modules[module] not in self.shas

    def summary(self, rel: str) -> ModuleSummary:
        sha = self.shas[rel]
        return self.summaries.get(sha) or summary_by_hash(sha)

    def is_module(self, name: str) -> bool:
        return name in self.modules or name in self.namespaces

    def is_package(self, name: str) -> bool:
        return name in self.namespaces or self.modules.get(name, "").endswith("/__init__.py")

    def changed_from(self, other: Tree) -> list[str]:
        """Files whose content differs from ``other`` (or that ``other`` does not have)."""
        return [rel for rel, sha in self.shas.items() if other.shas.get(rel) != sha]


def open_tree(root: Path, layout: TreeLayout, original: bool = False, jobs: int | None = None) -> Tree:
    """Read and hash every .py file of ``root``; summarise the ones not seen before (cached by content)."""
    root = Path(root).resolve()
    py, other = python_files(root)
    shas, todo = {}, {}
    for rel in py:
        with open(os.path.join(root, rel), "rb") as fh:
            data = fh.read()
        sha = content_hash(data)
        shas[rel] = sha
        todo[sha] = data
    # The original is stable: its disk-cached index is the fastest start, unless this process holds every summary
    # (the analysis's index leaves out the files the spec drops: the index parses only those, and caches them)
    with _SUMMARISING:  # the baselines open the original in threads at once: the second finds it summarised
        index = build_index(root, jobs=jobs) if original and not all(is_held(sha) for sha in todo) else None
        tree = Tree(root, layout, shas, summaries=summarize_all(todo, jobs))
        del index
        _HELD.insert(0, tree.summaries)  # the next tree of a run (a batch, the next check) shares most of them
        del _HELD[_HOLD:]
    prefixes: set[str] = set()
    for rel in py:
        module = layout.module_of(rel)
        if module is not None:
            tree.modules[module] = rel
            parts = module.split(".")
            prefixes.update(".".join(parts[:i]) for i in range(1, len(parts)))
    for rel in other:  # compiled extension modules: importable, never summarised
        if rel.endswith((".so", ".pyd")):
            folder, _, name = rel.rpartition("/")
            module = layout.module_of(f"{folder}/{name.split('.')[0]}.py" if folder else f"{name.split('.')[0]}.py")
            if module is not None:
                tree.modules.setdefault(module, rel)
    tree.namespaces = {name for name in prefixes if name not in tree.modules}
    return tree
