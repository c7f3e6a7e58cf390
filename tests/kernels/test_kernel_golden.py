"""Golden tests in the unifdef style: input, expected output and expected report per case folder."""

from __future__ import annotations

import json
import re

import pytest

from tests.kernels.kernel_golden_cases import cases, expected_of, facts_for, input_of, run
from slimfork.kernels.unifdef import fold_text

_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b")


@pytest.mark.parametrize("case", cases(), ids=lambda p: p.name)
def test_golden_output_and_report(case, unifdef_engine):
    out, report = run(case, unifdef_engine)
    assert out == expected_of(case).read_bytes()
    assert report == json.loads((case / "expected_report.json").read_text())


@pytest.mark.parametrize("case", cases(), ids=lambda p: p.name)
def test_second_run_changes_nothing(case, unifdef_engine):
    expected = expected_of(case).read_bytes()
    again, record = fold_text(expected, facts_for(case), unifdef_engine)
    assert again == expected
    assert record.status in ("unchanged", "malformed", "redefines-fact")


@pytest.mark.parametrize("case", cases(), ids=lambda p: p.name)
def test_only_directives_change(case):
    """Every output line that is not a conditional directive is an input line, in the same order."""
    old = input_of(case).read_bytes().splitlines(keepends=True)
    new = expected_of(case).read_bytes().splitlines(keepends=True)
    position = 0
    for line in new:
        if _DIRECTIVE.match(line):
            continue
        position = old.index(line, position) + 1


def test_golden_set_covers_the_required_shapes():
    names = {c.name for c in cases()}
    assert {"nested", "elif", "defined_or_and", "unknown_macros", "comments", "malformed"} <= names
