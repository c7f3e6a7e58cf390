"""Files and lines by language and by top-level folder (the tables of the seed reports)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from slimfork.index.build import python_files

LANGUAGES = {
    ".py": "Python", ".pyi": "Python", ".cu": "CUDA", ".cuh": "CUDA", ".c": "C", ".h": "C/C++ header",
    ".hpp": "C/C++ header", ".cpp": "C++", ".cc": "C++", ".cxx": "C++", ".hip": "HIP", ".metal": "Metal",
    ".s": "Assembly", ".S": "Assembly", ".json": "JSON", ".yaml": "YAML", ".yml": "YAML", ".toml": "TOML",
    ".md": "Markdown", ".rst": "reST", ".txt": "Text", ".sh": "Shell", ".jinja": "Jinja", ".j2": "Jinja",
    ".proto": "Protobuf", ".rs": "Rust", ".so": "Binary", ".cfg": "Config", ".ini": "Config", ".html": "HTML",
    ".js": "JavaScript", ".css": "CSS",
}
BINARY = {".so", ".dll", ".dylib", ".pyd", ".png", ".jpg", ".jpeg", ".gif", ".ico", ".pt", ".bin", ".whl",
          ".gz", ".zip", ".pkl", ".npy"}


def language(path: str) -> str:
    return LANGUAGES.get(os.path.splitext(path)[1], "Other")


def folder_of(path: str) -> str:
    parts = path.split("/")
    if len(parts) == 1:
        return "(top)"
    return "/".join(parts[:2]) + "/" if len(parts) > 2 else parts[0] + "/"


@dataclass
class Counts:
    files: int = 0
    lines: int = 0

    def add(self, lines: int) -> None:
        self.files += 1
        self.lines += lines


@dataclass
class TreeStats:
    total: Counts = field(default_factory=Counts)
    by_language: dict[str, Counts] = field(default_factory=dict)
    by_folder: dict[str, Counts] = field(default_factory=dict)

    def add(self, path: str, lines: int) -> None:
        self.total.add(lines)
        self.by_language.setdefault(language(path), Counts()).add(lines)
        self.by_folder.setdefault(folder_of(path), Counts()).add(lines)

    def to_dict(self) -> dict:
        as_dict = lambda c: {"files": c.files, "lines": c.lines}  # noqa: E731
        return {"files": self.total.files, "lines": self.total.lines,
                "by_language": {k: as_dict(v) for k, v in sorted(self.by_language.items())},
                "by_folder": {k: as_dict(v) for k, v in sorted(self.by_folder.items())}}


def count_lines(path: Path) -> int:
    if path.suffix in BINARY or path.is_symlink():
        return 0
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return 0
    if b"\0" in data[:8192]:
        return 0
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def tree_stats(root: Path, files: list[str], known_lines: dict[str, int] | None = None) -> TreeStats:
    """Count ``files`` (relative posix) under ``root``; ``known_lines`` saves re-reading indexed Python files."""
    known_lines = known_lines or {}
    stats = TreeStats()
    for rel in files:
        lines = known_lines.get(rel)
        if lines is None or (root / rel).is_symlink():  # a link's lines are its target's, counted there (as after)
            lines = count_lines(root / rel)
        stats.add(rel, lines)
    return stats


def walk_files(root: Path) -> list[str]:
    py, other = python_files(root)
    return sorted(py + other)
