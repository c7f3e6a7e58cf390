"""docs/pitfalls.md is the list the code cites: every "pitfall N" in src/ and tests/ is an entry there, every entry
names at least one test (or says it is not guarded yet), and every test it names exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.conftest import ROOT

DOC = (ROOT / "docs" / "pitfalls.md").read_text()
ENTRY = re.compile(r"^### (\d+)\. ", re.M)
NUMBERS = r"\d+(?:\s*-\s*\d+)?(?:\s*(?:,|and)\s*\d+(?:\s*-\s*\d+)?)*"
CITATION = re.compile(r"\bpitfalls?(?:\.md)?\s*\(?\s*(" + NUMBERS + ")", re.I)
TEST_NAME = re.compile(r"\btest_pitfall_(\d+)(?:_and_(\d+))?")
NAMED_TEST = re.compile(r"`(tests/[\w/]+\.py)::(\w+)(?:\[([\w.-]+)\])?`")


def _numbers(text: str) -> set[int]:
    out: set[int] = set()
    for part in re.split(r"\s*(?:,|and)\s*", text.strip()):
        low, _, high = part.partition("-")
        out.update(range(int(low), int(high or low) + 1))
    return out


def cited_numbers() -> dict[int, str]:
    """Every pitfall number cited in src/ and tests/ (text files), with one place that cites it."""
    out: dict[int, str] = {}
    for top in ("src", "tests"):
        for path in sorted((ROOT / top).rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            rel = path.relative_to(ROOT).as_posix()
            for match in CITATION.finditer(text):
                for n in _numbers(match.group(1)):
                    out.setdefault(n, rel)
            for match in TEST_NAME.finditer(text):
                for n in filter(None, match.groups()):
                    out.setdefault(int(n), rel)
    for case in (ROOT / "tests" / "rewrite" / "fixtures").glob("p[0-9][0-9]_*"):
        out.setdefault(int(case.name[1:3]), case.relative_to(ROOT).as_posix())
    return out


def entries() -> dict[int, str]:
    parts = ENTRY.split(DOC)
    return {int(parts[i]): parts[i + 1] for i in range(1, len(parts), 2)}


def test_the_entries_are_numbered_one_to_n():
    numbers = list(entries())
    assert numbers == list(range(1, len(numbers) + 1))


def test_every_cited_pitfall_is_an_entry():
    cited, listed = cited_numbers(), set(entries())
    assert len(cited) >= 30  # the scan finds the citations (src/ and the pitfall tests cite most of them)
    missing = {n: where for n, where in cited.items() if n not in listed}
    assert not missing, f"cited but not in docs/pitfalls.md: {missing}"


def test_every_entry_names_a_test_or_says_it_is_not_guarded():
    for number, body in entries().items():
        assert NAMED_TEST.search(body) or "not guarded yet" in body.lower(), number


def _defines(path: Path, name: str) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = list(tree.body) + [n for c in tree.body if isinstance(c, ast.ClassDef) for n in c.body]
    return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name for n in nodes)


def test_every_named_test_exists():
    named = NAMED_TEST.findall(DOC)
    assert len(named) >= 34
    for rel, name, param in named:
        path = ROOT / rel
        assert path.is_file(), rel
        assert _defines(path, name), f"{rel}::{name}"
        if param:  # a parameter: a fixture folder beside the test file, or a string the file names
            assert (path.parent / "fixtures" / param).is_dir() or f'"{param}"' in path.read_text(), \
                f"{rel}::{name}[{param}]"
