"""The Python unifdef (``pyunifdef``) against the real binary, byte for byte: exit status, stdout and stderr.

The comparisons need the ``unifdef`` binary (scripts/test.sh installs it when run as root) and skip without it;
the golden cases (test_kernel_golden.py, whose expected files the binary wrote) run on both engines anyway.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from slimfork.kernels import pyunifdef
from slimfork.kernels.unifdef import PYTHON_ENGINE, Engine, find_engine, fold_text
from tests.kernels.kernel_golden_cases import cases, facts_for, input_of

BINARY = shutil.which("unifdef")
needs_binary = pytest.mark.skipif(BINARY is None, reason="the unifdef binary is not installed "
                                  "(apt-get install unifdef); the Python engine cannot be compared with it")
FIXTURES = Path(__file__).parent / "fixtures"
SYMBOLS = ["A", "B", "N", "Z", "U", "V", "K", "FOO"]
ARGS = ["-DA=1", "-DB=0", "-DN=12080", "-DZ=A", "-UU", "-UV"]  # K and FOO stay unknown


def binary(args: list[str], data: bytes) -> tuple[int, bytes, bytes]:
    proc = subprocess.run([BINARY, *args, "-"], input=data, capture_output=True)
    return proc.returncode, proc.stdout, proc.stderr


def kernel_files() -> list[Path]:
    return sorted([input_of(c) for c in cases()] + [p for p in FIXTURES.rglob("*") if p.is_file()])


@needs_binary
@pytest.mark.parametrize("path", kernel_files(), ids=lambda p: str(p.relative_to(Path(__file__).parent)))
def test_kernel_fixtures_match_the_binary(path):
    facts = facts_for(path.parent)  # a golden case's own facts.toml, else golden/facts.toml
    data = path.read_bytes()
    assert pyunifdef.run([*facts.unifdef_args(), "-"], data) == binary(facts.unifdef_args(), data)
    assert fold_text(data, facts, PYTHON_ENGINE, path.name) == fold_text(data, facts, Engine(BINARY), path.name)


EDGE_CASES = [
    b"#include\"foo.h\"\n",  # the quote right after the keyword is not seen as one: unterminated string
    b"a // x",  # a // comment at the end of a file without a newline: "EOF in comment"
    b"#ifdef U\na\n#endif",  # the last directive has no newline: unifdef adds one
    b"#if K\na\n#elif defined(A)\nb\n#else\nc\n#endif\n",  # a true #elif becomes #else, the #else an #endif
    b"#if defined(U)\na\n#elif K\nb\n#endif\n",  # a false #if then an unknown #elif: the #elif becomes "#if  "
    b"#if 0\nit's\n#endif\n",  # an apostrophe in plain text: unterminated char literal
    b"#if K /* start\nend */\nfoo\n#endif\n",  # a comment across lines after a directive
    b"#if defined(A) && \\\n defined(U)\nq\n#endif\n",  # a continued directive
    b"#if K\r\na\r\n#elif A\r\nb\r\n#endif\r\n",  # CRLF, with an edited #elif
    b"#ifdef A\n#if K\n#endif\n#elif U\nz\n#endif\n",
    b"#if Z == 1 && N >= 12080 && N < 0x3000 && 010 == 8\nyes\n#endif\n",
    b"#if A +1\nx\n#endif\n#if FOO(A) || A\ny\n#endif\n#if U(1)\nz\n#endif\n",
    b"#if 99999999999999999999 > 1 || A\nbig\n#endif\n",
    b"x\0y\n#ifdef U\nz\n#endif\n",  # a NUL byte ends the line as C sees it
    b"#ifdef U\n" + b"x" * 5000 + b"\n#endif\n",  # a line longer than unifdef's 4096-byte buffer
    b"#ifdef U /*" + b" " * 4090 + b"*/\nx\n#endif\n",
    b"".join(b"#ifdef K\n" for _ in range(70)),  # too deep
    b"#else\n", b"#endif\n", b"#elif A\n", b"#ifdef A\n", b"",
]


@needs_binary
@pytest.mark.parametrize("data", EDGE_CASES)
def test_edge_cases_match_the_binary(data):
    assert pyunifdef.run([*ARGS, "-"], data) == binary(ARGS, data)


# -- generated files: nested conditionals with defined()/!/&&/||/comparisons, comments, continuations ----------
_atom = st.one_of(st.sampled_from(SYMBOLS).map(lambda s: f"defined({s})"),
                  st.sampled_from(SYMBOLS).map(lambda s: f"defined {s}"), st.sampled_from(SYMBOLS),
                  st.sampled_from(["0", "1", "2", "0x10", "010", "12080", "099"]))
_expr = st.recursive(_atom, lambda inner: st.one_of(
    inner.map(lambda e: f"!{e}"), inner.map(lambda e: f"({e})"),
    st.tuples(inner, st.sampled_from(["&&", "||", "==", "!=", "<", ">", "<=", ">=", "+"]), inner,
              st.sampled_from([" ", "", "  /* c */ "])).map(lambda t: f"{t[0]}{t[3]}{t[1]}{t[3]}{t[2]}"),
    st.tuples(st.sampled_from(SYMBOLS), inner).map(lambda t: f"{t[0]}({t[1]})")), max_leaves=5)
_tail = st.one_of(st.sampled_from(["", "", "", " // c", " /* c */", "  ", "/**/"]),
                  st.sampled_from([" /* two\n lines */", " \\\n", " junk"]))
_head = st.sampled_from(["#", "#", "  #", "# ", "/* x */#", "\t#  "])
_plain = st.one_of(st.just("code();"), st.sampled_from([
    "", "a(1 /* x */);", "s = \"#if A\";", "// #endif", "/* #else */", "c = '\\'';", "#define Q 1",
    "#include <a.h>", "#pragma once", "#", "#undef A", "x = 1 / 2;", "  int y; /* open", "close */", "a \\"]))


def _group(body):
    condition = st.one_of(st.tuples(st.just("if"), _expr),
                          st.tuples(st.sampled_from(["ifdef", "ifndef"]), st.sampled_from(SYMBOLS)))
    return st.tuples(_head, condition, _tail, body, st.lists(st.tuples(_expr, _tail, body), max_size=2),
                     st.one_of(st.none(), st.tuples(_tail, body)), _tail).map(_render_group)


def _render_group(parts) -> list[str]:
    head, (kind, cond), tail, body, elifs, other, end_tail = parts
    lines = [f"{head}{kind} {cond}{tail}", *body]
    for cond, tail, body in elifs:
        lines += [f"#elif {cond}{tail}", *body]
    if other is not None:
        lines += [f"#else{other[0]}", *other[1]]
    return lines + [f"#endif{end_tail}"]


_lines = st.recursive(st.lists(_plain, max_size=2),
                      lambda inner: st.lists(st.one_of(_plain.map(lambda p: [p]), _group(inner)), min_size=1,
                                             max_size=3).map(lambda groups: [x for g in groups for x in g]),
                      max_leaves=8)
_files = st.tuples(_lines, st.sampled_from(["\n", "\n", "\r\n"]), st.booleans()).map(
    lambda t: (t[1].join(t[0]) + (t[1] if t[2] else "")).encode())


@needs_binary
@settings(max_examples=int(os.environ.get("SLIMFORK_PYUNIFDEF_EXAMPLES", "300")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(_files)
def test_generated_files_match_the_binary(data):
    result = pyunifdef.run([*ARGS, "-"], data)
    event(f"exit status {result[0]}")  # pytest --hypothesis-show-statistics: the mix of folds and errors
    assert result == binary(ARGS, data)


def test_options_are_parsed_like_unifdef():
    assert pyunifdef.parse_args(["-DA", "-DB=C", "-DC=7", "-UD", "-"]) == {b"A": b"1", b"B": b"7", b"C": b"7",
                                                                         b"D": None}
    assert pyunifdef.run(["-DA-B", "-"], b"")[0] == 2  # a bad symbol: unifdef's usage message, exit 2
    with pytest.raises(ValueError):
        pyunifdef.run(["-k", "-"], b"")


def test_python_engine_folds_and_reports_itself(monkeypatch):
    monkeypatch.setenv("SLIMFORK_UNIFDEF", "python")
    engine = find_engine()
    assert engine is PYTHON_ENGINE and engine.name == "python" and "Python port" in engine.describe()
    facts = facts_for(next(c for c in cases() if c.name == "nested"))
    out, record = fold_text(b"#ifdef USE_ROCM\nrocm();\n#else\ncuda();\n#endif\n", facts, engine)
    assert out == b"cuda();\n" and record.status == "folded"


def test_no_binary_on_path_means_the_python_engine(monkeypatch, tmp_path):
    monkeypatch.delenv("SLIMFORK_UNIFDEF", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_engine() is PYTHON_ENGINE


@needs_binary
@pytest.mark.slow
def test_sglang_kernel_sources_match_the_binary():
    """Every C/CUDA source of the sglang 0.5.23 wheel, with the sglang profile's facts (downloads it; cached)."""
    from slimfork.kernels.includes import kernel_source_files
    from slimfork.kernels.unifdef import FOLDED_SUFFIXES
    from slimfork.source.fetch import fetch_pypi
    from tests.kernels.sglang_profile import NVIDIA

    src = fetch_pypi("sglang", "0.5.23")
    files = [f for f in kernel_source_files(src) if f.endswith(FOLDED_SUFFIXES)]
    assert len(files) > 300
    args = NVIDIA.unifdef_args()
    differ = [rel for rel in files if pyunifdef.run([*args, "-"], (src / rel).read_bytes())
              != binary(args, (src / rel).read_bytes())]
    assert differ == []
