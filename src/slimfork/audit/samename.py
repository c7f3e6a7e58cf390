"""Finding kind "same-name": modules with one name in several folders (``moe_dispatch`` x3, ``kv_cache`` x4),
consolidation candidates, each copy with its similarity to the others and whether anything uses it. Copies
that are different code under one name (three implementations of one idea) are reported too, at 30."""

from __future__ import annotations

import os
import posixpath
from difflib import SequenceMatcher

from slimfork.audit.duplicates import normalized_lines
from slimfork.audit.model import Finding
from slimfork.audit.unused import in_test_folder, is_test_file

# names every package has several of: not evidence of copies
GENERIC = {"__init__", "__main__", "conftest", "setup", "utils", "util", "config", "configs", "base", "common",
           "types", "constants", "helpers", "registry", "version", "_version", "main", "cli", "ops", "interface",
           "layers", "models", "model", "kernels", "kernel", "test", "tests", "benchmark", "bench", "naive",
           "configuration", "modeling", "README"}
MAX_COPIES = 6  # more copies of one name is a naming convention, not duplication


def same_name_findings(root: str, paths: list[str], reached: set[str], test_only: set[str]) -> list[Finding]:
    by_name: dict[str, list[str]] = {}
    for path in paths:
        stem = posixpath.basename(path).removesuffix(".py")
        if stem in GENERIC or is_test_file(path) or in_test_folder(path):
            continue
        by_name.setdefault(stem, []).append(path)
    out: list[Finding] = []
    for stem, copies in sorted(by_name.items()):
        if not 2 <= len(copies) <= MAX_COPIES:
            continue
        lines = {p: _lines(root, p) for p in copies}
        best: dict[str, float] = {}
        for i, a in enumerate(copies):
            for b in copies[i + 1:]:
                if not lines[a] or not lines[b]:
                    continue
                ratio = SequenceMatcher(None, lines[a], lines[b], autojunk=False).ratio()
                best[a], best[b] = max(best.get(a, 0), ratio), max(best.get(b, 0), ratio)
        status = {p: "used" if p in reached and p not in test_only else "tests only" if p in test_only
                  else "unused" for p in copies}
        used = [p for p in copies if status[p] == "used"]
        rows = [{"path": p, "status": status[p], "lines": len(lines[p]), "most_similar": round(best.get(p, 0) * 100)}
                for p in copies]
        keep = max(used, key=lambda p: len(lines[p])) if used else None
        copies_text = ", ".join(f"{p} ({status[p]}, {round(best.get(p, 0) * 100)}%)" for p in copies)
        similar = max(best.values(), default=0) >= 0.5
        advice = f"keep {keep}" if len(used) == 1 else \
            (f"{len(used)} copies are used: merge into one" if similar else
             f"{len(used)} copies are used, different code under one name: consolidate or rename") if used \
            else "no copy is used"
        out.append(Finding("same-name", f"{stem}:" + "|".join(copies),
                           f"{len(copies)} modules named {stem} ({round(max(best.values(), default=0) * 100)}% most alike)",
                           f"{copies_text}; {advice}", 50 if len(used) <= 1 and max(best.values(), default=0) >= 0.5
                           else 30, copies[0], None,
                           {"copies": rows, "keep": keep}))
    return out


def _lines(root: str, path: str) -> list[int]:
    try:
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as fh:
            return normalized_lines(fh.read())[1]
    except OSError:
        return []
