"""A test that assigns a module's name itself (``config.DEBUG = True``, ``zpkg.config.DEBUG = True``) fakes a
``[facts.names]`` fact as ``monkeypatch.setattr`` does: it goes with the fold; one restoring the fact's value
(``config.DEBUG = False``) fakes nothing (session 30's adversarial round, Z1: the fork's test failed)."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "zpkg"\nversion = "1.0"\n',
    "src/zpkg/__init__.py": "",
    "src/zpkg/config.py": "DEBUG = False\n",
    "src/zpkg/api.py": "from zpkg import config\n\n\ndef level():\n    return 'debug' if config.DEBUG else 'info'\n",
    "tests/test_api.py": """
        import zpkg.config
        from zpkg import api, config


        def test_info():
            config.DEBUG = False
            assert api.level() == "info"


        def test_debug_assign():
            config.DEBUG = True
            assert api.level() == "debug"


        def test_debug_dotted():
            zpkg.config.DEBUG = True
            assert api.level() == "debug"
        """,
}
SPEC = 'source = "."\npackages = ["zpkg"]\nroots = ["zpkg.api"]\ntests = ["tests"]\n\n[facts.names]\n"zpkg.config.DEBUG" = false\n'


def test_a_test_assigning_a_fixed_name_fakes_the_fact(tmp_path):
    analysis = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml", jobs=1)
    gone = {r["test"]: (r["category"], r["reason"]) for r in analysis.stages.data["tests"]["removed"]}
    assert set(gone) == {"test_debug_assign", "test_debug_dotted"}
    assert gone["test_debug_assign"] == ("fakes a folded fact", "patches zpkg.config.DEBUG to True; the fork fixes "
                                         "it to False (tests/test_api.py:11)")
