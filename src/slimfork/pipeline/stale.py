"""Stale spec entries (issue #31): every entry that matches nothing in the source, from every kind, each kind's
check beside its parser. A profile moved to a new release names what the release renamed or removed; each such
entry is an error (exit 2, before any batch is written) with the closest name of its kind, unless the spec's
``allow_stale`` or ``--allow-stale`` makes it a warning (the entry is then ignored).

Two passes: before the graph (roots, drop/keep/tests globs, scanned registries, [symbols] names: a stale root
cannot be planned from), and after the planning stages (registry keys, which the cuts find; facts, which the fold matches)."""

from __future__ import annotations

import fnmatch
import re
from dataclasses import replace
from pathlib import Path

from slimfork.errors import Stale, StaleError, closest
from slimfork.graph.edges import stale_scan_registries
from slimfork.graph.modules import ModuleMap
from slimfork.graph.roots import stale_roots
from slimfork.index import Index
from slimfork.plan.build import stale_globs
from slimfork.prune.spec import stale_symbols
from slimfork.plan.stages import Stages
from slimfork.source import SourceTree
from slimfork.source.entry_drops import entry_drops, unmatched
from slimfork.spec import Spec


def stale_before(spec: Spec, tree: SourceTree, index: Index, mm: ModuleMap) -> list[Stale]:
    """Roots, globs, scanned registries and [symbols] names that match nothing in the original source."""
    symbols = spec.sections.get("symbols")
    return (stale_roots(spec.roots, tree, index, mm)
            + stale_globs(spec, list(index.files) + index.other_files,
                          [m for m in mm.modules if mm.is_internal(m)], mm.top_names)
            + stale_entry_drops(spec, tree)
            + stale_scan_registries(mm, spec.registries)
            + (stale_symbols(symbols, index, mm) if symbols is not None else []))


def stale_entry_drops(spec: Spec, tree: SourceTree) -> list[Stale]:
    """A ``drop`` of a console script or entry point (``script:NAME``) that the distribution does not declare."""
    out = []
    dist = tree.dist
    for drop in unmatched(entry_drops(spec.drop), tree.dropped_entries):
        names = list(dist.scripts if dist else {}) if drop.group == "console_scripts" else \
            [f"{g}:{n}" for g, entries in (dist.entry_points if dist else {}).items() for n in entries]
        what = "console script" if drop.group == "console_scripts" else "entry point"
        out.append(Stale(f"drop[{drop.index}]", "glob", f"'{spec.drop[drop.index]}' matches no {what} the "
                         "distribution declares", closest(drop.name, names) if names else None,
                         f"{what}s: {', '.join(sorted(names)[:10])}" if names else f"the source declares no {what}"))
    return out


def stale_after(stages: Stages, root: Path, paths: list[str]) -> tuple[list[Stale], list[str]]:
    """Registry keys no cut found, and facts whose name exists nowhere in the source; and, as warnings, the
    registry keys the cuts did not find that the source still names (``paths``: its Python files under ``root``)
    as a string or a class: in code the fork removes, which the cuts do not read."""
    keys = list(stages.stale) + list(stages.symbols.stale if stages.symbols is not None else [])
    named = _named_in_source(root, paths, [e.name for e in keys])
    out = [e for e in keys if e.name not in named]
    warnings = [f"{e.key}: {e.message} in the code the fork keeps; {named[e.name]} names it (code the fork "
                "removes, or a registration the cut cannot read)" for e in keys if e.name in named]
    report = stages.fold_report
    if report is None:
        return out, warnings
    for fact in report.typos:
        why = report.unmatched_why.get(fact.key)
        message = report.unmatched_message(fact)
        out.append(Stale(fact.key, "fact", message, getattr(why, "suggestion", None),
                         "check the qualified name against the source, or remove the fact"))
    return out, warnings


def _named_in_source(root: Path, paths: list[str], patterns: list[str]) -> dict[str, str]:
    """pattern -> the first 'path:line' whose text names a key it matches as a string ("fa3", 'fa3') or a class
    (class DeepseekV3ForCausalLM). A regex ('re:') is never looked for."""
    found: dict[str, str] = {}
    wanted = {p: _key_regex(p) for p in dict.fromkeys(patterns) if p and not p.startswith("re:")}
    for rel in paths if wanted else []:
        try:
            text = (root / rel).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for pattern, regex in list(wanted.items()):
            match = regex.search(text)
            if match:
                found[pattern] = f"{rel}:{text.count(chr(10), 0, match.start()) + 1}"
                del wanted[pattern]
        if not wanted:
            break
    return found


def _key_regex(pattern: str) -> re.Pattern:
    """A key ``pattern`` matches, quoted or after ``class``: as written, or as a glob within one string."""
    glob = fnmatch.translate(pattern).removeprefix("(?s:").removesuffix(")\\Z").replace(".*", "[^\"'\\n]*")
    return re.compile(r"""(?:["']|\bclass\s+)(?:""" + re.escape(pattern) + "|" + glob + r""")(?:["'(:])""")


def settle(entries: list[Stale], allow: bool) -> list[str]:
    """Stop with every entry (exit 2) unless ``allow``; then each one is a warning."""
    if entries and not allow:
        raise StaleError(entries)
    return [f"stale: {e.render('warning').removeprefix('warning: ')}".replace("\n  hint:", "; hint:")
            for e in entries]


def without_stale(spec: Spec, entries: list[Stale]) -> Spec:
    """The spec less the entries that cannot be planned from (allowed stale roots and scanned registries whose
    package is gone or whose every pattern matches nothing: the scan then keeps every module, as without one)."""
    keys = {e.key for e in entries}
    roots = [r for i, r in enumerate(spec.roots) if f"roots[{i}]" not in keys]
    if not roots:
        raise StaleError([e for e in entries if e.kind == "root"])  # nothing left to keep
    registries = [r for r in spec.registries if f"{r.key}.package" not in keys
                  and not all(f"{r.key}.keep[{j}]" in keys for j in range(len(r.keep)))]
    return replace(spec, roots=roots, registries=registries)
