"""The command line: a thin layer over ``slimfork.api``. Each subcommand lives in ``slimfork/commands/``.

Exit codes: 0 success; 1 the command ran and found what it gates on (a failing check, new audit findings);
2 bad input (spec, source, target, usage), printed without a traceback; 130 interrupted (Ctrl-C, SIGTERM; with
--json a JSON object saying so on stdout).
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import signal
import sys
import threading

from slimfork import __version__
from slimfork.commands import COMMANDS
from slimfork.errors import SlimforkError, closest
from slimfork.progress import interrupted_in, set_enabled


# words a newcomer tries for a command (other tools' names): the command that does it
SYNONYMS = {"explain": "why", "trace": "why", "fork": "shrink", "lint": "audit", "draft": "init", "compare": "diff"}


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse exits 2 too; keep its usage line
        self.print_usage(sys.stderr)
        unknown = re.match(r"argument COMMAND: invalid choice: '([^']*)'", message)
        if unknown:  # "invalid choice: 'explan' (choose from ...)" named no closest command and had no hint
            word = unknown.group(1)
            named = {**{c: c for c in COMMANDS}, **SYNONYMS}
            close = named.get(word) or named.get(closest(word, named) or "")
            hint = f"did you mean {close}?" if close else f"the commands: {', '.join(COMMANDS)} (slimfork --help)"
            sys.stderr.write(f"error: COMMAND: no command '{word}'\n  hint: {hint}\n")
        else:
            sys.stderr.write(f"error: {message}\n")
        raise SystemExit(2)


# what exit code 1 means, for the commands that gate on something (the others exit 0, 2 or 130)
GATES = {"audit": "--fail-on-new found a finding not in the baseline",
         "corpus": "a fork fails a test the original passes",
         "diff": "the two plans keep different modules",
         "installed": "the fork does not install, or a module the original imports fails in it"}


def exit_codes(command: str | None = None) -> str:
    """The exit codes ``--help`` ends with: the README's list, with what 1 means for ``command``."""
    one = (f"1 {GATES[command]}; " if command in GATES else "" if command else
           f"1 the command ran and found what it gates on ({', '.join(GATES)}: see their --help); ")
    return (f"exit codes: 0 success; {one}2 bad input (a spec error, a stale spec entry, a missing source or "
            "target, a usage error), printed as 'error: KEY: message' with a hint and no traceback; 130 "
            "interrupted (Ctrl-C, SIGTERM)")


def _plain(description: str | None) -> str | None:
    """A command's docstring as its --help text: without the reST usage line it opens with (the usage above
    says it, and fully) and without reST's double backquotes."""
    if not description:
        return description
    text = re.sub(r"^``[^`]*``:\s*", "", description.strip()).replace("``", "'")
    return text[:1].upper() + text[1:]


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="slimfork", description="Derive a small, verified fork of a large Python codebase.",
                     epilog=exit_codes())
    parser.add_argument("--version", action="version", version=f"slimfork {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMANDS:
        module = importlib.import_module(f"slimfork.commands.{name}")
        cmd = module.add_parser(sub)
        cmd.description, cmd.epilog = _plain(cmd.description), cmd.epilog or exit_codes(name)
        cmd.add_argument("--no-progress", action="store_true", help="do not draw progress bars")
        cmd.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = None
    previous = _sigterm_as_interrupt()
    try:  # Ctrl-C while the commands' modules load is an interruption too, not a traceback
        parser = build_parser()
        args = parser.parse_args(argv)
        set_enabled(not (args.no_progress or _wants_json(args)), notes=not _wants_json(args))
        return int(args.run(args) or 0)
    except SlimforkError as exc:
        sys.stderr.write(exc.render() + "\n")
        return exc.exit_code
    except KeyboardInterrupt:
        where = interrupted_in()
        sys.stderr.write("interrupted" + (f" while {where}" if where else "") + "\n")
        if args is not None and _wants_json(args):  # a caller parsing stdout gets an object, not nothing
            sys.stdout.write(json.dumps({"interrupted": True, "command": args.command, "while": where,
                                         "exit_code": 130}, indent=1) + "\n")
        return 130
    except BrokenPipeError:
        return 0
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _wants_json(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "json", False)) or getattr(args, "format", None) == "json"


def _sigterm_as_interrupt():
    """SIGTERM (``timeout``, a job scheduler, ``kill``) stops a command as Ctrl-C does, with its message and
    exit 130, in any phase (it killed the planning stage silently, exit 143); the previous handler, or None
    off the main thread."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def stop(signum, frame):
        raise KeyboardInterrupt

    return signal.signal(signal.SIGTERM, stop)
