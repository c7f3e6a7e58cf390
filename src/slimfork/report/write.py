"""Write report.json, report.md, removed.md and kept.md into the report folder (beside the fork, not in it)."""

from __future__ import annotations

from collections.abc import Sequence
import json
from pathlib import Path

from slimfork.fsutil import write_atomic
from slimfork.report.document import report_data
from slimfork.report.markdown import kept_markdown, removed_markdown, summary_markdown
from slimfork.report.stats import tree_stats, walk_files


def shrink_stats(analysis, out: Path | None = None):
    """Before: the source's files. After: the fork as written (folded files counted as they are now), or, for a
    dry run, the plan's kept files."""
    index, plan, tree = analysis.index, analysis.plan, analysis.tree
    known = {rel: s.lines for rel, s in index.files.items()}
    all_files = set(r.path for r in plan.removals) | set(k.path for k in plan.kept)
    all_files |= {r.path for r in (analysis.stages.test_removals if analysis.stages else ())}  # the tests stage: not in plan
    before = tree_stats(tree.root, sorted(all_files), known)
    if out is not None and out.is_dir():
        after = tree_stats(out, [rel for rel in walk_files(out) if rel != "pyproject.toml" or tree.kind != "wheel"])
    else:
        after = tree_stats(tree.root, sorted(k.path for k in plan.kept), known)
    return before, after


def write_reports(analysis, out: Path | None, report_dir: Path | None, sections: Sequence[tuple[str, str]] = (),
                  extra: dict | None = None) -> dict:
    before, after = shrink_stats(analysis, out)
    data = report_data(analysis, before, after, out=str(out) if out else None, extra=extra)
    if report_dir is not None:
        write_atomic(report_dir / "report.json", json.dumps(data, indent=1) + "\n")
        write_atomic(report_dir / "report.md", summary_markdown(data, list(sections)))
        write_atomic(report_dir / "removed.md", removed_markdown(data))
        write_atomic(report_dir / "kept.md", kept_markdown(data))
    return data
