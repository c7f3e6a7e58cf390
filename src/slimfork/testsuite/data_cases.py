"""Test cases in data files that name a removed registry key: fixture files made of blank-line-separated cases
with ``key: value`` header lines (sqlglot's ``# dialect: bigquery`` above a pair of statements). A case whose
header names a key the fork no longer has tests a removed entry: it leaves the file, the other cases stay. The
checks decide as for every edit: a test that needed the case fails and the edit is restored."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from slimfork.mapping.spec import key_form

HEADER = re.compile(r"^[ \t]*(?:#|--|//|;)?[ \t]*[A-Za-z_][\w-]*[ \t]*:[ \t]*(.*?)[ \t]*$")
BLOCK_SPLIT = re.compile(r"(\n[ \t]*\n)")
MAX_BYTES = 4_000_000


@dataclass(frozen=True)
class DataCut:
    path: str
    content: bytes
    cases: int  # cases removed
    lines: int  # lines removed
    keys: tuple[str, ...]  # the removed keys they named


def cut_data_cases(root: Path, paths: list[str], removed_keys: dict[str, str]) -> list[DataCut]:
    """For each text file in ``paths``: the file without the cases whose header names a key of ``removed_keys``
    (key_form -> why), when it has any."""
    out = []
    for rel in sorted(paths):
        try:
            data = (root / rel).read_bytes()
            text = data.decode("utf-8") if len(data) <= MAX_BYTES and b"\0" not in data else None
        except (OSError, UnicodeDecodeError):
            continue
        if text is None:
            continue
        cut = _cut(rel, text, removed_keys)
        if cut is not None:
            out.append(cut)
    return out


def _cut(rel: str, text: str, removed_keys: dict[str, str]) -> DataCut | None:
    parts = BLOCK_SPLIT.split(text)  # block, separator, block, ...
    if len(parts) < 3:
        return None  # one block: not a file of cases
    if sum(1 for i in range(0, len(parts), 2) if HEADER.match(parts[i].lstrip("\n").split("\n", 1)[0])) < 2:
        return None  # not cases with header lines
    keep, cases, lines, keys = [], 0, 0, set()
    for i in range(0, len(parts), 2):
        block, sep = parts[i], parts[i + 1] if i + 1 < len(parts) else ""
        new, named = _without_removed(block, removed_keys)
        keys |= named
        if new is None:
            cases += 1
            lines += block.count("\n") + 1 + max(sep.count("\n") - 1, 0)
            continue
        keep += [new, sep]
    if not keys:
        return None
    new_text = "".join(keep)
    if not new_text.strip():
        return None  # every case names a removed key: the file's test is the registry's, keep it as it is
    if text.endswith("\n") and not new_text.endswith("\n"):
        new_text += "\n"
    return DataCut(rel, new_text.encode("utf-8"), cases, lines, tuple(sorted(keys)))


def _without_removed(block: str, removed_keys: dict[str, str]) -> tuple[str | None, set[str]]:
    """The block without the removed keys its leading header lines name: None when a header names only removed
    keys (the case goes), the header line rewritten when it lists kept keys too (``# dialect: hive, spark``)."""
    lines = block.split("\n")
    named: set[str] = set()
    for n, line in enumerate(lines):
        if not line.strip():
            continue
        match = HEADER.match(line)
        if match is None:
            break  # the headers end where the case's body starts
        tokens = [t.strip().strip("\"'`") for t in match.group(1).split(",")]
        if not all(t and " " not in t for t in tokens):
            continue
        gone = [t for t in tokens if key_form(t) in removed_keys]
        if not gone:
            continue
        named |= set(gone)
        if all(t in gone or "=" in t for t in tokens):  # only removed keys, and options (`bigquery,a=b`)
            return None, named
        kept = ", ".join(t for t in tokens if t not in gone)
        lines[n] = line[:match.start(1)] + kept + line[match.end(1):]
    return "\n".join(lines), named
