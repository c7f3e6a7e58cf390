"""The command line: a thin layer over ``slimfork.api``. Each subcommand lives in ``slimfork/commands/``.

Exit codes: 0 success; 1 the command ran and found what it gates on (a failing check, new audit findings);
2 bad input (spec, source, target, usage), printed without a traceback; 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from slimfork import __version__
from slimfork.commands import COMMANDS
from slimfork.errors import SlimforkError
from slimfork.progress import set_enabled


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse exits 2 too; keep its usage line
        self.print_usage(sys.stderr)
        sys.stderr.write(f"error: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="slimfork", description="Derive a small, verified fork of a large Python codebase.")
    parser.add_argument("--version", action="version", version=f"slimfork {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMANDS:
        module = importlib.import_module(f"slimfork.commands.{name}")
        cmd = module.add_parser(sub)
        cmd.add_argument("--no-progress", action="store_true", help="do not draw progress bars")
        cmd.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:  # Ctrl-C while the commands' modules load is an interruption too, not a traceback
        parser = build_parser()
        args = parser.parse_args(argv)
        set_enabled(not (args.no_progress or getattr(args, "json", False)))
        return int(args.run(args) or 0)
    except SlimforkError as exc:
        sys.stderr.write(exc.render() + "\n")
        return exc.exit_code
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
