"""Count the platform conditionals left in a tree's library code (tests excluded): ``if``/``elif``/``while``
tests, ternaries and asserts whose source names a platform (sys.platform, os.name, platform.system(), win32,
darwin, windows, ...). Used for the numbers in docs/corpus.md: python scripts/platform_conditionals.py TREE..."""

from __future__ import annotations

import ast
import re
import sys
import warnings
from pathlib import Path

PLATFORM = re.compile(r"sys\.platform|os\.name\b|platform\.system|\b_?platform\b|win32|darwin|cygwin|bsd|is_windows|"
                      r"is_win\b|WINDOWS|\bWIN\b|IS_WIN|is_conemu|is_macos|MACOS|is_linux|LINUX")
TESTS = re.compile(r"(^|/)(_?tests?|testing)(/|$)|(^|/)test_[^/]*\.py$|conftest\.py$")


def count(root: Path) -> tuple[int, int]:
    """(platform conditionals, Python lines) of the library code under ``root``."""
    found = lines = 0
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if TESTS.search(rel) or "/." in f"/{rel}":
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        lines += len(text.splitlines())
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(text)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
                if PLATFORM.search(ast.get_source_segment(text, node.test) or ""):
                    found += 1
    return found, lines


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        conditionals, python = count(Path(arg))
        print(f"{arg}: {conditionals} platform conditionals in {python:,} lines of library code")
