"""Test data that only removed tests read: apache-libcloud's ``test/compute/fixtures/gce/*.json`` is read through a
fixtures helper, ``ComputeFileFixtures("gce").load("list_nodes.json")``, by ``test_gce.py`` alone. A path is built
from strings: a kept test can reach a data-only folder (one with no Python file below it) only by naming it, or by
listing the folders above it. A data file goes when a folder of its path is named by a removed test (a string equal
to it, or a path string through it) and appears nowhere in the text of the kept test files (conftests and helpers
included), and no kept test file at or above it lists directories. A file name alone never decides: a kept test
may build it (``"describe_%s.json"``). A data-only folder no test file of the original names (libcloud's
``fixtures/hostvirtual/``, whose tests the release no longer has) goes too where no kept library file names it
either (case and ``-``/``_`` aside: a test may build the path from a driver's name) and nothing lists it (a
conftest's collection hook lists every file below it). A data file outside a folder that names it (fontTools'
``include3.fea``: ``include(subdir/include2.fea);``) reads it as a test does: the folder stays. Unknown means keep."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from slimfork.fsutil import folders_above
from slimfork.testsuite.decide import TestDecisions
from slimfork.testsuite.scan import TestFile

_LISTING = re.compile(rb"(?<![\w.])(listdir|scandir|walk|glob|iglob)\(|\bos\.(listdir|scandir|walk)\("
                      rb"|\bglob\.i?glob\(|\.(iterdir|rglob|glob)\(|\bpytest_collect_(file|directory)\b")
# (a conftest's collection hook: pytest walks the folders below it and the hook may take any file as a test)


def data_of_removed_tests(root: Path, files: dict[str, TestFile], decisions: TestDecisions, data: list[str],
                          python_files: list[str], library: tuple[str, ...] = ()) -> dict[str, str]:
    """Data files of ``data`` (paths under the tests, not Python) that only removed tests name, or nothing kept
    names -> why they go. ``library``: the kept library files."""
    readers = _removed_readers(files, decisions)
    named_by_data = _DataMentions(root, data)
    unnamed = {f for f in _unnamed(root, files, data, python_files, library) if not named_by_data(f)}
    if not readers and not unnamed:
        return {}
    gone_files = decisions.removed_files()
    kept = {rel: _kept_text(root / rel, files[rel], decisions) for rel in files if rel not in gone_files}
    listing = [posixpath.dirname(rel) for rel, text in kept.items() if _LISTING.search(text)]
    code_folders = {f for rel in python_files for f in folders_above(rel)}
    mentioned: dict[str, bool] = {}
    out: dict[str, str] = {}
    for rel in data:
        if any(_at_or_below(rel, folder) for folder in listing):
            continue
        for folder in _data_folders(rel, code_folders):
            name = posixpath.basename(folder)
            if folder in unnamed:
                out[rel] = f"test data no test names: no test file of the original nor kept library file names its " \
                           f"folder '{name}'"
                break
            if name not in readers:
                continue
            if name not in mentioned:
                word = re.compile(rb"(?<![\w-])" + re.escape(name.encode()) + rb"(?![\w-])")
                mentioned[name] = any(word.search(text) for text in kept.values()) or named_by_data(folder)
            if not mentioned[name]:
                out[rel] = f"test data only removed tests read: {readers[name]} names its folder '{name}'"
                break
    return out


def _unnamed(root: Path, files: dict[str, TestFile], data: list[str], python_files: list[str],
             library: tuple[str, ...]) -> set[str]:
    """The data-only folders of ``data`` whose name no test file (all of the original's) and no kept library file
    holds as a word, case and ``-``/``_`` aside."""
    code_folders = {f for rel in python_files for f in folders_above(rel)}
    names = {f: _form(posixpath.basename(f).encode()) for rel in data for f in _data_folders(rel, code_folders)}
    if not names:
        return set()
    text = _form(b"\n".join((root / rel).read_bytes() for rel in sorted(files) + sorted(library)))
    found = {name for name in set(names.values()) if re.search(rb"(?<![\w])" + re.escape(name) + rb"(?![\w])", text)}
    return {f for f, name in names.items() if name and name not in found}


class _DataMentions:
    """Whether a data file outside ``folder`` holds its name as a word (case and ``-``/``_`` aside): an include, a
    manifest or an index that a kept test's data file may follow. The files are read once, when first asked."""

    def __init__(self, root: Path, data: list[str]):
        self.root, self.data = root, data
        self.texts: dict[str, bytes] | None = None

    def __call__(self, folder: str) -> bool:
        if self.texts is None:
            self.texts = {rel: _form(_read(self.root / rel)) for rel in self.data}
        name = _form(posixpath.basename(folder).encode())
        word = re.compile(rb"(?<![\w])" + re.escape(name) + rb"(?![\w])")
        return any(word.search(text) for rel, text in self.texts.items() if not _at_or_below(rel, folder))


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


def _form(text: bytes) -> bytes:
    return text.lower().replace(b"-", b"_")


def _kept_text(path: Path, tf: TestFile, decisions: TestDecisions) -> bytes:
    """The file's text without the lines of the units the stage cuts from it."""
    lines = path.read_bytes().splitlines(keepends=True)
    for qualname in {q for p, q in decisions.removed_units() if p == tf.path}:
        unit = tf.units.get(qualname)
        if unit is not None and unit.kind != "module":
            lines[unit.line - 1:unit.end] = [b""] * len(lines[unit.line - 1:unit.end])
    return b"".join(lines)


def _removed_readers(files: dict[str, TestFile], decisions: TestDecisions) -> dict[str, str]:
    """Each folder name the removed tests name (a string, or a segment of a path string) -> the first of them."""
    gone_files = decisions.removed_files()
    gone_units = decisions.removed_units()
    out: dict[str, str] = {}
    for path, tf in sorted(files.items()):
        for qualname, unit in tf.units.items():
            if path not in gone_files and (path, qualname) not in gone_units:
                continue
            where = path if path in gone_files else f"{path}::{qualname}"
            for text in sorted(unit.strings):
                for part in text.split("/"):
                    if part and part not in (".", "..") and not part.isspace():
                        out.setdefault(part, where)
    return out


def _data_folders(rel: str, code_folders: set[str]) -> list[str]:
    """The folders of ``rel``'s path that hold no Python file at any depth, deepest first."""
    folders = [f for f in folders_above(rel) if f not in code_folders]
    return sorted(folders, key=len, reverse=True)


def _at_or_below(rel: str, folder: str) -> bool:
    return not folder or rel.startswith(folder + "/")
