"""A `[facts.env]` fact is a claim about the process's environment; kept code that sets or removes the variable
itself (`os.environ["X"] = ...`, `setdefault`, `update`, `pop`, `del`, `os.putenv`, `monkeypatch.setenv` outside the
tests' folders and modules named as test code) can make it false at run time, after the fold took every read for the fact's value: a warning names the
variable and the place. Writes in the tests, and writes of other variables, are no warning."""

from __future__ import annotations

from tests.mapping.registrykit import write_project

from slimfork.api import analyse

FILES = {
    "pkg/__init__.py": "",
    "pkg/paths.py": """
        import os
        from os import environ


        def enable_debug():
            os.environ["PLAT_DEBUG"] = "1"


        def debug_enabled():
            return os.getenv("PLAT_DEBUG", "0") == "1"


        def defaults():
            os.environ.setdefault("PLAT_MODE", "fast")
            environ.update({"PLAT_COLOR": "1", "OTHER": "x"})
            os.environ.update(PLAT_LEVEL="3")
            os.putenv("PLAT_TRACE", "1")
            del os.environ["PLAT_GONE"]
            os.environ["UNRELATED"] = "1"


        def mode():
            return (os.environ.get("PLAT_MODE"), os.environ.get("PLAT_COLOR"), os.environ.get("PLAT_LEVEL"),
                    os.environ.get("PLAT_TRACE"), os.environ.get("PLAT_GONE"), os.getenv("PLAT_ONLY_IN_TESTS"),
                    os.getenv("PLAT_QUIET"))
        """,
    "pkg/testing/__init__.py": "",
    "pkg/testing/fixtures.py": """
        import os


        def debug_on():
            os.environ["PLAT_DEBUG"] = "1"
        """,
    "pkg/hooks.py": """
        def debug_on(monkeypatch):
            monkeypatch.setenv("PLAT_QUIET", "1")
        """,
    "pkg/app.py": """
        from pkg.paths import debug_enabled, defaults, enable_debug, mode
        from pkg.hooks import debug_on
        from pkg.testing.fixtures import debug_on as debug_fixture
        """,
    "tests/test_paths.py": """
        import os


        def test_debug():
            os.environ["PLAT_ONLY_IN_TESTS"] = "1"
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.app"]
tests = ["tests"]

[facts.env]
PLAT_DEBUG = false
PLAT_MODE = "slow"
PLAT_COLOR = false
PLAT_LEVEL = "1"
PLAT_TRACE = false
PLAT_GONE = "x"
PLAT_QUIET = false
PLAT_ONLY_IN_TESTS = false
"""


def test_kept_code_that_sets_a_fixed_variable_is_a_warning(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    warnings = [w for w in analyse(root / "slimfork.toml", jobs=1).plan.warnings if "environment variable" in w]
    text = "\n".join(warnings)
    for var, line in (("PLAT_DEBUG", 6), ("PLAT_MODE", 14), ("PLAT_COLOR", 15), ("PLAT_LEVEL", 16),
                      ("PLAT_TRACE", 17), ("PLAT_GONE", 18)):
        assert f"facts.env.{var}" in text and f"pkg/paths.py:{line}" in text, (var, text)
    assert "pkg/hooks.py:2" in text  # monkeypatch outside the tests: kept code
    assert "pkg/testing/" not in text  # a module named as test code is test code
    assert "UNRELATED" not in text and "OTHER" not in text and "PLAT_ONLY_IN_TESTS" not in text
    assert len(warnings) == 7
