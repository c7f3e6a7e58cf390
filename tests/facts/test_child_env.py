"""A `[facts.env]` fact holds in the fork's own process; code that hands a child process another value of the
variable (`dict(os.environ, X=v)`, `{**os.environ, "X": v}`, `env = os.environ.copy(); env["X"] = v`,
`env={"X": v}`) makes it false in the child, whose folded code reads the fact's value: a warning. A test that
sets the variable through `mock.patch.dict(os.environ, ...)`, `monkeypatch.setitem(os.environ, ...)` or
`os.environ["X"] = v` fakes the fact, as `monkeypatch.setenv` does: it goes with the fold (session 30's
adversarial round, M1 and M2)."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pkg/__init__.py": "",
    "pkg/mode.py": """
        import os


        def mode():
            return "fast" if os.environ.get("PKG_MODE", "slow") == "fast" else "slow"
        """,
    "pkg/spawn.py": """
        import os
        import subprocess
        import sys


        def run(m):
            subprocess.run([sys.executable, "-m", "pkg.mode"], env=dict(os.environ, PKG_MODE=m))
            subprocess.run([sys.executable], env={**os.environ, "PKG_MODE": m})
            env = os.environ.copy()
            env["PKG_MODE"] = m
            env2 = dict(os.environ)
            env2.update(PKG_MODE=m)
            subprocess.run([sys.executable], env={"PKG_MODE": m, "OTHER": "1"})
            return {**os.environ, "UNRELATED": "1"}
        """,
    "pkg/app.py": "from pkg.mode import mode\nfrom pkg.spawn import run\n",
    "tests/test_mode.py": """
        import os
        from unittest import mock

        from pkg.mode import mode


        def test_fast():
            with mock.patch.dict(os.environ, {"PKG_MODE": "fast"}):
                assert mode() == "fast"


        @mock.patch.dict("os.environ", PKG_MODE="slow")
        def test_slow_decorated():
            assert mode() == "slow"


        def test_slow_item(monkeypatch):
            monkeypatch.setitem(os.environ, "PKG_MODE", "slow")
            assert mode() == "slow"


        def test_slow_store():
            os.environ["PKG_MODE"] = "slow"
            assert mode() == "slow"
        """,
}
SPEC = 'source = "."\npackages = ["pkg"]\nroots = ["pkg.app"]\ntests = ["tests"]\n\n[facts.env]\nPKG_MODE = "fast"\n'


def test_a_child_process_given_another_value_is_a_warning(tmp_path):
    analysis = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml", jobs=1)
    lines = sorted(int(w.split("pkg/spawn.py:")[1].split()[0]) for w in analysis.plan.warnings if "pkg/spawn.py:" in w)
    assert lines == [7, 8, 10, 12, 13]
    assert not any("UNRELATED" in w or "OTHER" in w for w in analysis.plan.warnings)


def test_a_test_that_sets_the_variable_otherwise_fakes_the_fact(tmp_path):
    analysis = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml", jobs=1)
    gone = {r["test"]: (r["category"], r["reason"]) for r in analysis.stages.data["tests"]["removed"]}
    assert set(gone) == {"test_slow_decorated", "test_slow_item", "test_slow_store"}
    assert gone["test_slow_item"][0] == "fakes a folded fact"
    assert "patches env:PKG_MODE to 'slow'" in gone["test_slow_item"][1]
