"""``slimfork why SPEC TARGET``: the chain from a root that keeps TARGET, or why it is removed."""

from __future__ import annotations

from slimfork.commands._output import console, print_json


def add_parser(sub):
    p = sub.add_parser("why", help="explain why a module, file or module:symbol is kept or removed",
                       description=__doc__)
    p.add_argument("spec", metavar="SPEC", help="keep spec, or a folder 'slimfork audit' ran on (its default roots)")
    p.add_argument("target", metavar="TARGET", help="a module (pkg.mod), a file (pkg/mod.py) or pkg.mod:name")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")
    return p


def run(args) -> int:
    from pathlib import Path

    from slimfork.api import why

    if Path(args.spec).is_dir():  # a folder the audit ran on, without a spec: the audit's roots and graph
        from slimfork.audit.run import folder_why

        data = folder_why(Path(args.spec), args.target)
        if args.json:
            print_json(data)
            return 0
        out = console()
        out.print(f"{args.target}: {'reached' if data['kept'] else 'not reached'}")
        for i, step in enumerate(data["chain"]):
            out.print(f"{'  ' * i}{step['module']}  {step['reason']}")
        if not data["chain"]:
            out.print(data["reason"])
        return 0
    answer = why(args.spec, args.target)
    if args.json:
        print_json(answer.to_dict())
        return 0
    out = console()
    # the decision's kind and confidence, as report.json has them, and its reason where the chain does not say
    # it (a symbol kept by its own use, `uses exec()`, read only its module's chain)
    decided = ", ".join(x for x in (answer.kind, f"confidence {answer.confidence}"
                                    if answer.confidence is not None else "") if x)
    out.print(f"{args.target}: {'kept' if answer.kept else 'removed'}"
              + (f" ({decided})" if decided else ""))
    if not answer.chain or answer.reason != answer.chain[-1]["reason"]:  # the header said "removed (KIND)" already
        out.print(answer.reason.removeprefix(f"removed ({answer.kind}): ") if not answer.kept else answer.reason)
    for i, step in enumerate(answer.chain):
        out.print(f"{'  ' * i}{step['module']}  {step['reason']}")
    return 0
