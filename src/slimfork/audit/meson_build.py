"""Native sources a ``meson.build`` names: meson-python builds (and the projects its tests build) list each
source as a string relative to the ``meson.build`` that names it (``py.extension_module('ext', 'ext.c')``,
``files('lib.c')``, ``library('x', 'src/lib.c')``). meson-python 0.22.1's test-package sources and their headers were
33 kernel findings (30 to 70): the audit read CMake, make and shell builds, never meson's."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

_STRING_OR_COMMENT = re.compile(r"'((?:[^'\\\n]|\\.)*)'|#.*")  # meson's strings are single-quoted


def meson_sources(root: Path, other_files: list[str], native: list[str]) -> dict[str, str]:
    """path -> "built by DIR/meson.build:LINE" for each native source a ``meson.build`` string names."""
    exists = set(native)
    out: dict[str, str] = {}
    for rel in sorted(p for p in other_files if posixpath.basename(p) == "meson.build"):
        try:
            text = (root / rel).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        here = posixpath.dirname(rel)
        for number, line in enumerate(text.splitlines(), 1):
            for match in _STRING_OR_COMMENT.finditer(line):
                if match.group(1) is None:  # a comment: the rest of the line
                    break
                path = posixpath.normpath(posixpath.join(here, match.group(1)))
                if path in exists:
                    out.setdefault(path, f"built by {rel}:{number}")
    return out
