"""Command line: `mlserve run MODEL PROMPT` or `mlserve serve`."""

import argparse

from mlserve import Engine
from mlserve.models.registry import ModelRegistry


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="mlserve")
    sub = parser.add_subparsers(dest="cmd", required=True)
    run = sub.add_parser("run")
    run.add_argument("model")
    run.add_argument("prompt")
    sub.add_parser("serve")
    sub.add_parser("models")
    args = parser.parse_args(argv)
    if args.cmd == "models":
        print(" ".join(sorted(ModelRegistry().names())))
        return 0
    if args.cmd == "serve":
        from mlserve.server.http import serve  # lazy import: only `serve` needs the server

        return serve()
    engine = Engine(ModelRegistry().get(args.model))
    print(engine.generate(args.prompt))
    return 0
