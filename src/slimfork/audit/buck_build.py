"""Native sources a Buck or Bazel build file names (``BUCK``, ``TARGETS``, ``BUILD``, ``BUILD.bazel``): a rule lists
its sources as strings relative to the build file's folder (``srcs = ["w2a16_gemm.cu", "torch_op.cpp"]``), as
``glob(["*.cu"])`` patterns, or as labels of files (``"//pkg/kernels:helper.cu"``, ``":helper.cu"``). The audit read
CMake, make, meson and shell builds, never these: a Buck-built source was "no ... build file ... names it" (70).
Strings are read wherever they stand in the file (an ``exclude`` list too: over-keeping, never under)."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from slimfork.audit.build_file_strings import build_file_strings
from slimfork.globs import glob_body

BUILD_FILES = ("BUCK", "TARGETS", "BUILD", "BUILD.bazel")
_STRING_OR_COMMENT = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|#.*')


def buck_sources(root: Path, other_files: list[str], native: list[str]) -> dict[str, str]:
    """path -> "built by DIR/BUCK:LINE" for each native source a Buck or Bazel build file's string names."""
    exists = set(native)
    out: dict[str, str] = {}
    files = sorted(p for p in other_files if posixpath.basename(p) in BUILD_FILES)
    for rel, number, value in build_file_strings(root, files, _STRING_OR_COMMENT):
        for path in _named(posixpath.dirname(rel), value, exists):
            out.setdefault(path, f"built by {rel}:{number}")
    return out


def _named(here: str, value: str, exists: set[str]) -> list[str]:
    """The sources a string of a build file in ``here`` names: a path, a glob pattern or a file label."""
    if value.startswith(("//", ":")) or ":" in value and not value.startswith("@"):
        folder, _, name = value.lstrip("/").rpartition(":")
        if value.startswith(":"):
            folder = here
        elif folder and here != folder and not here.endswith("/" + folder) and not folder.endswith("/" + here) \
                and here:
            return []  # a label of another folder: that folder's build file builds it
        value = name
    if value.startswith("@") or not value:
        return []  # an external repository's label
    path = posixpath.normpath(posixpath.join(here, value))
    if "*" in value:
        pattern = re.compile(glob_body(path, classes=True))
        return sorted(p for p in exists if pattern.fullmatch(p))
    return [path] if path in exists else []


_LABEL = re.compile(r"""["']//([\w./+-]+):([\w.+-]+)["']""")


def labelled_folders(root: Path, python_paths: list[str], native: list[str], other_files: list[str]
                     ) -> dict[str, str]:
    """Folders of native sources a Buck or Bazel label in a Python file names (``torch.ops.load_library(
    "//pytorch/tb/ops/kernels:gemm_lib")``: the tree may sit below the repository the label's path starts from, so
    the label's folder ends with the tree's) whose build file is outside the tree: a target there may build any of
    their sources. Folder -> where the label is."""
    folders = {posixpath.dirname(p) for p in native}
    with_build = {posixpath.dirname(p) for p in other_files if posixpath.basename(p) in BUILD_FILES}
    out: dict[str, str] = {}
    for rel in python_paths:
        try:
            text = (root / rel).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if "//" not in text:
            continue
        for match in _LABEL.finditer(text):
            label = match.group(1).rstrip("/")
            for folder in folders - with_build:
                if folder and (label == folder or label.endswith("/" + folder)):
                    line = text.count("\n", 0, match.start()) + 1
                    out.setdefault(folder, f"{rel}:{line} '//{label}:{match.group(2)}'")
    return out
