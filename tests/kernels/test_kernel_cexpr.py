"""The reducer of partly known #if expressions: exact cases, and equivalence under every assignment."""

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slimfork.kernels.cexpr import reduce_directive
from slimfork.kernels.spec import PreprocessorFacts

FACTS = PreprocessorFacts(defined={"ONE": "1", "TWO": "2", "ALIAS": "TWO"}, undefined=("ROCM", "MUSA"))


@pytest.mark.parametrize("line, expected", [
    ("#if A || defined(ROCM)\n", "#if A\n"),
    ("#if !defined ROCM && A > 3 && B\n", "#if A > 3 && B\n"),
    ("#  elif (A || ROCM) && B  // note\r\n", "#  elif (A) && B  // note\r\n"),
    ("#if TWO == 2 && A\n", "#if A\n"),
    ("#if ALIAS >= 2 && A\n", "#if A\n"),
    ("#if __has_builtin(x) && !MUSA\n", "#if __has_builtin(x)\n"),
    ("#if defined(ROCM)\n", None),  # decided as a whole: unifdef's job
    ("#if A && B\n", None),  # nothing known
    ("#if A + 1 || ROCM\n", None),  # arithmetic: not understood, left alone
    ("#if A || ROCM \\\n", None),  # continued line
    ("#if A || ROCM /* open comment\n", None),
    ("#ifdef ROCM\n", None),
    ("#if 1 && A && !ROCM\n", "#if 1 && A\n"),  # constant terms are not facts: left as written
])
def test_reduce(line, expected):
    assert reduce_directive(line, FACTS) == expected


# -- equivalence: the reduced expression has the same value as the original for every value of the unknowns

UNKNOWN = ["A", "B", "C"]
atoms = st.sampled_from(["defined(A)", "defined B", "C", "A > 1", "defined(ROCM)", "MUSA", "ONE", "!defined(TWO)",
                         "TWO >= 2", "defined ROCM"])


def _expr(children):
    return st.one_of(
        st.builds(lambda a, b: f"{a} && {b}", children, children),
        st.builds(lambda a, b: f"{a} || {b}", children, children),
        st.builds(lambda a: f"!({a})", children),
        st.builds(lambda a: f"({a})", children),
    )


expressions = st.recursive(atoms, _expr, max_leaves=8)


def _py_value(expr: str, env: dict[str, int]) -> int:
    macros = {"ONE": 1, "TWO": 2, "ROCM": None, "MUSA": None, **env}
    text = re.sub(r"defined\s*\(\s*(\w+)\s*\)|defined\s+(\w+)",
                  lambda m: str(int(macros.get(m.group(1) or m.group(2)) is not None)), expr)
    text = re.sub(r"[A-Za-z_]\w*", lambda m: str(macros.get(m.group(0)) or 0), text)
    text = text.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
    return int(bool(eval(text)))  # noqa: S307 - test-built arithmetic only


@settings(max_examples=300, deadline=None, database=None)
@given(expressions)
def test_reduction_preserves_the_value(expr):
    reduced = reduce_directive(f"#if {expr}\n", FACTS)
    if reduced is None:
        return
    new = reduced[len("#if "):-1]
    for values in itertools.product([None, 0, 2], repeat=len(UNKNOWN)):
        env = dict(zip(UNKNOWN, values))
        assert _py_value(new, env) == _py_value(expr, env), (expr, new, env)
