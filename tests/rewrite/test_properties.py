"""Property tests: for random programs guarded by platform checks and random fact values, the folded program
behaves exactly like the original run with the facts patched in (same trace of side effects, same result or
same exception), for several run-time inputs."""

from __future__ import annotations

import os
import sys
import tempfile
import types
from pathlib import Path

import hypothesmith
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from slimfork.facts import parse_facts
from slimfork.rewrite import fold_tree

PLAT = '''import os


def is_a():
    return A


def is_b():
    return B


def get_bool_env_var(name, default="false"):
    return os.getenv(name, default).lower() in ("true", "1")
'''

HEADER = '''from pkg.plat import get_bool_env_var, is_a, is_b

_a = is_a()
_b = is_b()
_c = get_bool_env_var("USE_C") and _a
TRACE = []


def log(value):
    TRACE.append(value)
    return value


def run(x):
    v = 0
'''

LEAVES = st.sampled_from(["_a", "_b", "_c", "is_a()", "is_b()", "x", "x > 1", "log(0)", "log(1)", "True",
                          "False", "not _a", 'get_bool_env_var("USE_C")'])


def _combine(children):
    return st.one_of(
        st.builds(lambda a: f"not {a}", children),
        st.builds(lambda a, b: f"({a} and {b})", children, children),
        st.builds(lambda a, b: f"({a} or {b})", children, children),
        st.builds(lambda a, b, c: f"({a} if {b} else {c})", children, children, children),
    )


CONDITIONS = st.recursive(LEAVES, _combine, max_leaves=5)


def _statements(depth: int):
    simple = st.one_of(
        st.integers(0, 99).map(lambda n: [f"log({n})"]),
        CONDITIONS.map(lambda c: [f"v = {c}", "log(v)"]),
        CONDITIONS.map(lambda c: [f"log([i for i in range(2) if {c}])"]),
        CONDITIONS.map(lambda c: [f"if {c}:", "    return log('early')"]),
        CONDITIONS.map(lambda c: [f"assert {c} or x < 5, 'checked'"]),
        CONDITIONS.map(lambda c: ["while " + c + ":", "    log('loop')", "    break"]),
    )
    if depth == 0:
        return simple
    body = st.lists(_statements(depth - 1), min_size=1, max_size=3).map(lambda parts: sum(parts, []))
    branch = st.tuples(CONDITIONS, body, st.lists(st.tuples(CONDITIONS, body), max_size=2),
                       st.one_of(st.none(), body))

    def render(parts):
        test, first, elifs, orelse = parts
        lines = [f"if {test}:"] + ["    " + line for line in first]
        for cond, block in elifs:
            lines += [f"elif {cond}:"] + ["    " + line for line in block]
        if orelse is not None:
            lines += ["else:"] + ["    " + line for line in orelse]
        return lines

    return st.one_of(simple, branch.map(render))


PROGRAMS = st.lists(_statements(2), min_size=1, max_size=4).map(
    lambda parts: HEADER + "".join(f"    {line}\n" for line in sum(parts, [])) + "    return log('end')\n")


def _execute(source: str, a: bool, b: bool, c: bool, x: int):
    plat = types.ModuleType("pkg.plat")
    exec(compile(PLAT, "plat.py", "exec"), plat.__dict__)
    plat.A, plat.B = a, b
    pkg = types.ModuleType("pkg")
    pkg.plat = plat
    saved = {k: sys.modules.get(k) for k in ("pkg", "pkg.plat")}
    old_env = os.environ.get("USE_C")
    sys.modules["pkg"], sys.modules["pkg.plat"] = pkg, plat
    os.environ["USE_C"] = "1" if c else "0"
    try:
        namespace: dict = {"__name__": "pkg.mod"}
        exec(compile(source, "mod.py", "exec"), namespace)
        try:
            result = ("ok", namespace["run"](x))
        except Exception as exc:  # noqa: BLE001 - the exception is the observable result
            result = ("raised", type(exc).__name__, str(exc))
        return result, list(namespace["TRACE"])
    finally:
        for key, value in saved.items():
            if value is None:
                sys.modules.pop(key, None)
            else:
                sys.modules[key] = value
        if old_env is None:
            os.environ.pop("USE_C", None)
        else:
            os.environ["USE_C"] = old_env


def _fold(source: str, facts_raw: dict) -> tuple[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "pkg").mkdir()
        (root / "pkg" / "__init__.py").write_text("")
        (root / "pkg" / "plat.py").write_text(PLAT)
        (root / "pkg" / "mod.py").write_bytes(source.encode())
        modules = {"pkg/__init__.py": "pkg", "pkg/plat.py": "pkg.plat", "pkg/mod.py": "pkg.mod"}
        report = fold_tree(root, modules, parse_facts(facts_raw), jobs=1)
        return (root / "pkg" / "mod.py").read_bytes().decode(), report


@settings(max_examples=30, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(PROGRAMS, st.booleans(), st.booleans(), st.booleans())
def test_folded_program_behaves_like_original(source, a, b, c):
    facts = {"functions": {"pkg.plat.is_a": a, "pkg.plat.is_b": b}, "env": {"USE_C": c},
             "env_bool_functions": ["pkg.plat.get_bool_env_var"]}
    folded, report = _fold(source, facts)
    mod = next(f for f in report.files if f.path == "pkg/mod.py")
    assert mod.failure is None, (mod.failure, source)
    for x in (0, 1, 2, 7):
        assert _execute(folded, a, b, c, x) == _execute(source, a, b, c, x), (source, folded)


@settings(max_examples=15, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(hypothesmith.from_grammar(auto_target=False))
def test_arbitrary_code_is_left_valid(source):
    """On arbitrary valid Python (hypothesmith) folding never crashes and never writes a broken file."""
    facts = {"functions": {"pkg.plat.is_a": False}}
    source = "from pkg.plat import is_a\n\nif is_a():\n    pass\n" + source
    folded, report = _fold(source, facts)
    mod = next(f for f in report.files if f.path == "pkg/mod.py") if report.files else None
    if mod is None or not mod.changed:
        assert folded == source
    else:
        compile(folded, "mod.py", "exec")
