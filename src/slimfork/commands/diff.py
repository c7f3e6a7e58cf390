"""``slimfork diff A B [--json]``: the modules one plan keeps and the other removes, with both reasons.

A and B are keep specs (the same profile with only ``source`` changed, or two profiles), planned statically
as ``slimfork plan`` does (no verification run), or the report.json of an earlier shrink (the file, its report
folder, or the fork beside it). A spec's stale entries (what matches nothing in its source) are listed, not
fatal. Exit 0 when both keep the same modules, 1 when they differ."""

from __future__ import annotations

from slimfork.commands._output import print_json, positive_int


def add_parser(sub):
    p = sub.add_parser("diff", help="compare the kept modules of two specs (or a spec and an earlier report)",
                       description=__doc__)
    p.add_argument("a", metavar="A", help="keep spec, or an earlier shrink's report.json, report folder or fork")
    p.add_argument("b", metavar="B", help="keep spec, or an earlier shrink's report.json, report folder or fork")
    p.add_argument("--jobs", type=positive_int, help="worker processes (default: one per core)")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")
    return p


def run(args) -> int:
    from slimfork.api import kept_diff

    data = kept_diff(args.a, args.b, jobs=args.jobs)
    if args.json:
        print_json(data)
    else:
        from slimfork.report.kept_diff import diff_text

        print(diff_text(data))
    return 1 if data["kept_only_in_a"] or data["kept_only_in_b"] else 0
