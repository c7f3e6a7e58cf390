"""Before/after projection (the seed's section 1): what acting on the findings at or above a confidence would
leave, in Python files, lines, kernels, scripts and tests."""

from __future__ import annotations

from slimfork.audit.unused import is_test_file

MIN_CONFIDENCE = 50


def projection(result, lines: dict[str, int], runnable: frozenset[str], kernels: int | None) -> dict:
    removed: set[str] = set()
    dead_kernels = 0
    symbol_lines: dict[str, int] = {}  # file -> lines of its unused symbols
    for f in result.findings:
        if f.confidence < MIN_CONFIDENCE:
            continue
        if f.kind == "unused-file":
            removed.update(f.details.get("files") or [f.path])
            removed.update(f.details.get("tests", []))
        elif f.kind == "orphaned-test":
            removed.add(f.path)
        elif f.kind == "unused-symbol":
            symbol_lines[f.path] = symbol_lines.get(f.path, 0) + f.details.get("lines", 0)
        elif f.kind == "unused-kernel" and not f.subject.startswith(("source:", "kernels-of:")):
            dead_kernels += 1
    files = list(lines)

    def row(keep) -> dict:
        kept = [p for p in files if keep(p)]
        return {"python_files": len(kept), "lines": sum(lines[p] for p in kept),
                "scripts": sum(1 for p in kept if p in runnable), "tests": sum(1 for p in kept if is_test_file(p))}

    before, after = row(lambda p: True), row(lambda p: p not in removed)
    after["lines"] -= sum(n for p, n in symbol_lines.items() if p not in removed)
    if kernels is not None:
        before["kernels"], after["kernels"] = kernels, kernels - dead_kernels
    return {"min_confidence": MIN_CONFIDENCE, "before": before, "after": after}


def projection_rows(stats: dict) -> list[tuple[str, int, int, str]]:
    p = stats.get("projection")
    if not p:
        return []
    out = []
    for key in ("python_files", "lines", "kernels", "scripts", "tests"):
        if key in p["before"]:
            b, a = p["before"][key], p["after"][key]
            out.append((key.replace("_", " "), b, a, f"{round(100 * (a - b) / b)}%" if b else "-"))
    return out
