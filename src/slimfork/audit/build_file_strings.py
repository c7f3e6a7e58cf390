"""The quoted strings of build files that name sources relative to their own folder (``meson.build``, Buck and
Bazel's ``BUCK``/``BUILD``), line by line, a comment ending the line."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path


def build_file_strings(root: Path, rels: Iterable[str], pattern: re.Pattern) -> Iterator[tuple[str, int, str]]:
    """(build file, line number, string) for each string ``pattern`` matches (a group per quote; a match with no
    group, a comment, ends the line)."""
    for rel in rels:
        try:
            text = (root / rel).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for match in pattern.finditer(line):
                value = next((group for group in match.groups() if group is not None), None)
                if value is None:
                    break
                yield rel, number, value
