"""Run every generated program's main() in one process and print a JSON of what each gave.

Usage: python runner.py PROGRAMS_JSON (the tree under test first on sys.path). PROGRAMS_JSON maps a program's
package to the public names of its main module to look up. A program's result is its main()'s trace (repr), what it
printed, the exception it raised (type and message), and which of those names its main module has.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import sys


def run_one(package: str, api: list[str]) -> dict:
    printed = io.StringIO()
    result: dict = {}
    try:
        with contextlib.redirect_stdout(printed):
            module = importlib.import_module(f"{package}.main")
            result["out"] = repr(module.main())
        result["api"] = [name for name in api if hasattr(module, name)]
    except BaseException as exc:  # noqa: BLE001 - the exception is the observable result
        result["exc"] = f"{type(exc).__name__}: {exc}"
    result["printed"] = printed.getvalue()
    return result


def main() -> None:
    with open(sys.argv[1]) as f:
        programs = json.load(f)
    print(json.dumps({package: run_one(package, api) for package, api in programs.items()}, sort_keys=True))


if __name__ == "__main__":
    main()
