"""The symbol stage in report.md and report.json."""

from __future__ import annotations


def symbols_markdown(stage) -> str:
    pruned = stage.pruned
    defs = [p for p in pruned if p.kind not in ("import", "method", "all")]
    private = [p for p in pruned if p.kind == "method" and "public" not in p.reason]
    public = [p for p in pruned if p.kind == "method" and "public" in p.reason]
    lines = [f"{len(defs)} definitions ({_lines(defs):,} lines), {len(private)} private methods "
             f"({_lines(private):,} lines), {len(public)} public methods ({_lines(public):,} lines) and "
             f"{sum(len(p.names) for p in pruned if p.kind == 'import')} imported names pruned in "
             f"{len({p.path for p in pruned})} files; {len(stage.modules_removed)} modules left the fork because "
             f"only pruned code imported them; {stage.rounds} rounds in {stage.seconds:.1f} s.", ""]
    for reg in stage.registries:
        lines.append(f"- registry `{reg['module']}.{reg['variable']}`: kept {', '.join(reg['kept'])}; removed "
                     f"{len(reg['removed'])} keys ({', '.join(reg['removed'][:20])}"
                     f"{' ...' if len(reg['removed']) > 20 else ''})" + (f": {reg['reason']}" if reg['reason'] else ""))
    public = public_kept(stage)
    if public:
        lines += ["", f"Public API kept ({len(public)} names, whatever uses them; `[symbols] drop` lets one go):", ""]
        lines += [f"- `{m}:{name}`: {why}" for (m, name), why in public[:100]]
        lines += [f"- ... {len(public) - 100} more (report.json: `symbols.public_kept`)"] if len(public) > 100 else []
    if stage.protected:
        lines += ["", "Imports kept for their effects (pruning them would have removed these modules):", ""]
        lines += [f"- `{m}`: {why}" for m, why in sorted(stage.protected.items())[:100]]
    if stage.failures:
        lines += ["", "Files left as they were (a check failed on the pruned version):", ""]
        lines += [f"- {f}" for f in stage.failures[:100]]
    lines += ["", "| file | removed |", "|---|---|"]
    by_path: dict[str, list[str]] = {}
    for p in pruned:
        by_path.setdefault(p.path, []).extend(p.names)
    lines += [f"| `{path}` | {', '.join(names[:30])}{' ...' if len(names) > 30 else ''} |"
              for path, names in sorted(by_path.items())[:500]]
    return "\n".join(lines)


def public_kept(stage) -> list[tuple[tuple[str, str], str]]:
    """The names the last round kept first as public API (graph/public_api.py), with why."""
    first = stage.reach.first_use if stage.reach is not None else {}
    return sorted((key, why) for key, why in first.items() if why.startswith("public API: "))


def _lines(pruned) -> int:
    return sum(p.end - p.line + 1 for p in pruned)


def symbols_data(stage) -> dict:
    return {
        "rounds": stage.rounds, "seconds": stage.seconds, "timings": stage.timings,
        "pruned": [{"module": p.module, "path": p.path, "names": list(p.names), "kind": p.kind, "line": p.line,
                    "end": p.end, "reason": p.reason} for p in stage.pruned],
        "modules_removed": [r.path for r in stage.modules_removed],
        "registries": stage.registries,
        "protected": dict(sorted(stage.protected.items())),
        "failures": stage.failures,
        "public_kept": [{"module": m, "name": n, "why": why} for (m, n), why in public_kept(stage)],
    }
