"""Native sources a ``meson.build`` names: meson-python builds (and the projects its tests build) list each
source as a string relative to the ``meson.build`` that names it (``py.extension_module('ext', 'ext.c')``,
``files('lib.c')``, ``library('x', 'src/lib.c')``). meson-python 0.22.1's test-package sources and their headers were
33 kernel findings (30 to 70): the audit read CMake, make and shell builds, never meson's."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from slimfork.audit.build_file_strings import build_file_strings

_STRING_OR_COMMENT = re.compile(r"'((?:[^'\\\n]|\\.)*)'|#.*")  # meson's strings are single-quoted


def meson_sources(root: Path, other_files: list[str], native: list[str]) -> dict[str, str]:
    """path -> "built by DIR/meson.build:LINE" for each native source a ``meson.build`` string names."""
    exists = set(native)
    out: dict[str, str] = {}
    files = sorted(p for p in other_files if posixpath.basename(p) == "meson.build")
    for rel, number, value in build_file_strings(root, files, _STRING_OR_COMMENT):
        path = posixpath.normpath(posixpath.join(posixpath.dirname(rel), value))
        if path in exists:
            out.setdefault(path, f"built by {rel}:{number}")
    return out
