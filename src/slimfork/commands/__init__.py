"""Subcommands, one module each: ``add_parser(subparsers) -> parser`` and ``run(args) -> exit code``."""

COMMANDS = [
    "shrink",
    "plan",
    "diff",
    "why",
    "weigh",
    "stats",
    "audit",
    "corpus",
    "init",
    "installed",
]
