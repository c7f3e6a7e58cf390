"""A `[facts.names]` fact (`"pkg.config.LEGACY" = false`) is a claim about every read of that name; kept code outside
the tests that assigns it (`config.LEGACY = True` in an `enable()`, `setattr(config, "LEGACY", v)`, `global LEGACY`
in the module itself) makes it false once it has run, after the fold took every read for the fact's value. Before,
the fork answered "new" where the original answered "legacy", with exit 0 and no word (session 39, every
`[symbols]` mode): now a warning names the fact and the place, as for `[facts.env]` (`facts/env_writes.py`)."""

from __future__ import annotations

from tests.mapping.registrykit import write_project

from slimfork.api import analyse

FILES = {
    "pkg/__init__.py": "",
    "pkg/config.py": """
        LEGACY = False
        QUIET = False


        def force_legacy():
            global LEGACY
            LEGACY = True
        """,
    "pkg/api.py": """
        import pkg.config as cfg
        from . import config


        def enable():
            config.LEGACY = True


        def enable_too():
            setattr(cfg, "LEGACY", True)


        def unrelated(obj):
            obj.LEGACY = True
            config.OTHER = 1


        def run():
            if config.LEGACY:
                return "legacy"
            return "new"
        """,
    "pkg/app.py": """
        from pkg.api import enable, enable_too, run, unrelated
        from pkg.config import force_legacy
        """,
    "tests/test_api.py": """
        from pkg import config


        def test_legacy():
            config.QUIET = True
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.app"]
tests = ["tests"]

[facts.names]
"pkg.config.LEGACY" = false
"pkg.config.QUIET" = false
"""


def test_kept_code_that_assigns_a_fixed_name_is_a_warning(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    warnings = [w for w in analyse(root / "slimfork.toml", jobs=1).plan.warnings if "a name the fact fixes" in w]
    text = "\n".join(warnings)
    assert "pkg/api.py:6" in text and "pkg/api.py:10" in text, text  # config.LEGACY = ..., setattr(cfg, ...)
    assert "pkg/config.py:7" in text, text  # global LEGACY in the module itself
    assert "QUIET" not in text  # assigned by a test only: the test goes with the fold
    assert "pkg/api.py:14" not in text  # obj.LEGACY: another object
    assert len(warnings) == 3, text
