"""``pkg.testing`` is what a library ships for its users' tests (``typer.testing.CliRunner``, ``click.testing``):
typer 0.29.2's ``typer/testing.py``, which only its tests import, was "reached only from tests" at 50, to go with
179 tests. It is a public module of the library (40); a ``testing`` folder deeper down stays a helper."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "kit"\nversion = "1"\n',
    "kit/__init__.py": "from kit.core import run\n",
    "kit/core.py": "def run():\n    return 1\n",
    "kit/testing.py": "from kit.core import run\n\nclass Runner:\n    def go(self):\n        return run()\n",
    "kit/sub/__init__.py": "",
    "kit/sub/testing.py": "def helper():\n    return 2\n",
    "tests/test_cli.py": "from kit.testing import Runner\nfrom kit.sub.testing import helper\n\n"
                         "def test_go():\n    assert Runner().go() == 1 and helper() == 2\n",
}


def test_the_packages_testing_module_is_public(tmp_path):
    root = write_project(tmp_path, FILES, "")
    found = {f.path: (f.confidence, f.reason) for f in run_audit(open_tree(root))[0].findings
             if f.kind == "unused-file"}
    assert found["kit/testing.py"][0] == 40 and "public module" in found["kit/testing.py"][1], found
    assert "public module" not in found.get("kit/sub/testing.py", (0, ""))[1], found
