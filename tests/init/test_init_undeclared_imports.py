"""parameterized 0.9.0's test module imports ``mock``, which nothing in the project declares: the accepted draft's
checked run built its venv and then could not import the test (0 of 1 tests, "No module named 'mock'"). The draft
names such a module in a note beside ``[verify]`` (not a requirement: a distribution's name may differ)."""

from __future__ import annotations

import json
import textwrap

from slimfork.cli import main

FILES = {
    "pkg/__init__.py": "X = 1\n",
    "pkg/test.py": """
        import os
        import mock
        import yaml
        import rpds
        import zope.testing
        import wsgiadapter
        import helpers
        from pkg import X
        try:
            import nose
        except ImportError:
            nose = None

        def test_x():
            assert X == 1
        """,
    "pkg/helpers.py": "",
    "pkg/data/builds_this.py": "import emod\n",  # no test module: test data
    "pyproject.toml": """
        [project]
        name = "pkg"
        version = "1.0"
        dependencies = ["PyYAML", "rpds-py", "zope.testing", "requests-wsgi-adapter"]
        """,
}


def test_a_module_the_tests_import_that_nothing_provides_is_named(tmp_path, capsys):
    for rel, text in FILES.items():
        (tmp_path / "p" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "p" / rel).write_text(textwrap.dedent(text).lstrip())
    assert main(["init", str(tmp_path / "p"), "--json"]) == 0
    notes = json.loads(capsys.readouterr().out)["verify"]["notes"]
    undeclared = [n for n in notes if n.startswith("the tests import")]
    assert undeclared == ["the tests import mock (pkg/test.py:2), which no line here provides: add its distribution "
                          "if the tests need it (the name may differ: yaml is PyYAML's)"], notes
