"""Scripts left behind when a copy moved: an unreached script whose text another file of the same name holds,
where the project's documents or command files run the other copy by its path (``python scripts/llff2nerf.py``
in the readme) and name this one nowhere (torch-ngp kept ``llff2nerf.py`` beside ``scripts/llff2nerf.py``). The
copy the documents run is the one users run; the other is a stale copy."""

from __future__ import annotations

import posixpath
import re
from dataclasses import replace
from pathlib import Path

from slimfork.audit.model import Finding
from slimfork.audit.toolrun import command_files

_DOC_SUFFIXES = (".md", ".rst", ".txt", ".ipynb")
_MAX_BYTES = 1 << 20
STALE = 60


def _text(root: Path, rel: str) -> str | None:
    try:
        if (root / rel).stat().st_size > _MAX_BYTES:
            return None
        return (root / rel).read_text(errors="replace")
    except OSError:
        return None


def _code(root: Path, rel: str) -> list[str] | None:
    text = _text(root, rel)
    return None if text is None else [line.rstrip() for line in text.splitlines() if line.strip()]


def _mention(path: str) -> re.Pattern:
    """``path`` written as a path of its own (``python llff2nerf.py``, ``./llff2nerf.py``), not as the tail of a
    longer one (``scripts/llff2nerf.py``), or as a module run with ``-m``."""
    module = re.escape(path[:-3].replace("/", "."))
    return re.compile(rf"(?<![\w./-])(?:\./)?{re.escape(path)}(?![\w-])|-m\s+{module}(?![\w.])")


def stale_script_copies(root: Path, python_paths: list[str], other_files: list[str],
                        scripts: set[str]) -> dict[str, str]:
    """Of ``scripts`` (unreached files a user may run), the stale copies: path -> why."""
    by_name: dict[str, list[str]] = {}
    for path in python_paths:
        by_name.setdefault(posixpath.basename(path), []).append(path)
    pairs = {path: [p for p in by_name[posixpath.basename(path)] if p != path] for path in sorted(scripts)}
    pairs = {path: others for path, others in pairs.items() if others and not path.endswith("/__init__.py")}
    if not pairs:
        return {}
    docs = sorted(set(command_files(root)) | {p for p in other_files if p.endswith(_DOC_SUFFIXES)
                                              or posixpath.basename(p).lower().startswith("readme")})
    texts = {rel: text for rel in docs if (text := _text(root, rel))}
    out: dict[str, str] = {}
    for path, others in pairs.items():
        own = _mention(path)
        if any(own.search(text) for text in texts.values()):
            continue
        lines = _code(root, path)
        for other in others:
            if lines is None or _code(root, other) != lines:
                continue
            named = next(((rel, text[:m.start()].count("\n") + 1) for rel, text in texts.items()
                          if (m := _mention(other).search(text))), None)
            if named:
                out[path] = (f"a copy of {other}, which {named[0]}:{named[1]} runs by its path; nothing names this "
                             "copy: a stale copy left behind")
                break
    return out


def with_stale_copies(findings: list[Finding], stale: dict[str, str]) -> list[Finding]:
    """A script's own finding (30, "it is a script" and nothing else) raised to 60 where it is a stale copy."""
    return [replace(f, confidence=STALE, reason=f"{stale[f.subject]}; {f.reason}")
            if f.kind == "unused-file" and f.subject in stale and f.reason.startswith("it is a script")
            and ";" not in f.reason else f for f in findings]
