"""``slimfork audit [PATH | --spec SPEC]``: report dead code in place, with a baseline gate for CI.

Exit codes: 0 no finding to gate on; 1 ``--fail-on-new`` and findings not in the baseline; 2 bad input.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from slimfork.audit.baseline import mark_new, read_baseline, write_baseline
from slimfork.audit.kernels import table_json
from slimfork.audit.model import KINDS
from slimfork.audit.report import FORMATS, render
from slimfork.audit.run import AuditOptions, run_audit
from slimfork.errors import SlimforkError
from slimfork.fsutil import write_atomic


def add_parser(subparsers):
    p = subparsers.add_parser("audit", help="report unused files, duplicates, unused kernels, orphaned tests",
                              description="Audit a codebase in place: files nothing reaches (unused-file), "
                                          "private functions nothing names (unused-symbol), near-duplicate "
                                          "modules (duplicate), GPU kernels with no launch site (unused-kernel), "
                                          "orphaned tests, eager package imports, same-named modules to "
                                          "consolidate (same-name). Each finding has a reason and a confidence, "
                                          "and the table ends with a before/after projection.")
    p.add_argument("path", nargs="?", metavar="PATH", help="source folder (default: the current folder, or the spec's source)")
    p.add_argument("--spec", help="a keep spec: its source, packages and roots are used")
    p.add_argument("--format", choices=FORMATS, default="table", help="output format (default: table)")
    p.add_argument("--json", action="store_true", help="same as --format json")
    p.add_argument("--output", "-o", metavar="FILE", help="write the report to this file instead of standard output")
    p.add_argument("--only", action="append", choices=sorted(KINDS), help="run only this kind (repeatable)")
    p.add_argument("--min-confidence", type=int, default=0, help="hide findings below this confidence (0-100; default 0: show all)")
    p.add_argument("--min-similarity", type=float, default=80.0, help="duplicates: minimum similarity in %% (default 80)")
    p.add_argument("--python", help="eager imports: interpreter of a verification environment to measure with")
    p.add_argument("--kernel-table", metavar="FILE", help="also write the whole kernel table (definitions and uses) as JSON")
    p.add_argument("--baseline", metavar="FILE", help="baseline file: recorded when missing (or with --update-baseline), "
                                      "else findings not in it are marked new")
    p.add_argument("--update-baseline", action="store_true", help="rewrite the baseline with today's findings")
    p.add_argument("--fail-on-new", action="store_true", help="exit 1 if a finding is not in the baseline")
    return p


def _tree_and_roots(args):
    from slimfork.source.layout import open_tree

    if args.spec:
        from slimfork.source.fetch import resolve_source
        from slimfork.spec.load import load_spec

        if args.path:
            raise SlimforkError("give a PATH or --spec, not both", key="path",
                                hint="the spec's 'source' names the folder to audit")
        spec = load_spec(args.spec)
        root = resolve_source(spec.source, spec.base_dir, spec.dist)
        tree = open_tree(root, spec.python_root, spec.packages or None, kind="folder")
        tests = spec.sections.get("tests")
        return tree, spec.roots, spec.registries, (tests.globs if tests is not None else None)
    root = Path(args.path or ".").resolve()
    if not root.is_dir():
        raise SlimforkError(f"not a folder: {root}", key="path", hint="give the folder that holds the code")
    from slimfork.audit.layout import audit_tree

    return audit_tree(root), None, (), None


def run(args) -> int:
    if not 0 <= args.min_similarity <= 100:
        raise SlimforkError("--min-similarity is a percentage", key="--min-similarity", hint="for example 85")
    tree, roots, registries, tests = _tree_and_roots(args)
    options = AuditOptions(kinds=set(args.only or KINDS), min_similarity=args.min_similarity / 100,
                           python=args.python)
    result, table = run_audit(tree, roots, registries, options, tests=tests)
    result.findings = [f for f in result.findings if f.confidence >= args.min_confidence]
    if args.baseline:
        baseline = Path(args.baseline)
        if args.update_baseline or not baseline.exists():
            write_baseline(baseline, result)
            sys.stderr.write(f"recorded {len(result.findings)} findings in the baseline {baseline}\n")
            mark_new(result, {f.fingerprint for f in result.findings})
        else:
            mark_new(result, read_baseline(baseline))
    if args.kernel_table and table is not None:
        write_atomic(Path(args.kernel_table), json.dumps(table_json(table), indent=1) + "\n")
    fmt = "json" if args.json else args.format
    text = render(result, fmt, new_only=args.fail_on_new and result.new is not None)
    if args.output:
        write_atomic(Path(args.output), text)
    else:
        sys.stdout.write(text)
    if args.fail_on_new:
        new = [f for f in result.findings if result.is_new(f)]
        if new:
            sys.stderr.write(f"{len(new)} new findings not in the baseline\n")
            return 1
    return 0
