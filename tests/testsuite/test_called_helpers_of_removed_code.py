"""A test whose own body names only kept code but whose helper runs a removed module that the test names as its
subject tests that module: it goes with it, and the module stays out (session 38: anyconfig's
``tests/cli/test_base.py::BaseTestCase.test_runs_for_datasets`` -> ``self.run_main`` -> ``self._run_main``, which
runs ``anyconfig.cli.main``, kept all of ``anyconfig.cli`` as test support; plumbum's
``TestParamikoMachine._connect`` kept ``paramiko_machine``; cookiecutter's ``cli_runner`` fixture, which returns a
function running ``cookiecutter.__main__.main``, kept the CLI). A helper that prepares the input of kept code with a
removed module the test does not name (asn1crypto's ``_load_cert`` calls ``pem.unarmor``) is still setup: that module
stays as test support (tests/testsuite/test_support_after_symbols.py)."""

from __future__ import annotations

import json
import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "chr"\nversion = "1.0"\n',
    "chr/__init__.py": "",
    "chr/core.py": "def load(text):\n    return text.strip().upper()\n",
    "chr/armor.py": "def unarmor(text):\n    return text.strip('-')\n",
    "chr/cli.py": "import sys\n\nfrom chr.core import load\n\n\ndef main(args):\n    print(load(args[0]))\n"
                  "    sys.exit(0)\n",
    "chr/console.py": "from chr.cli import main\n\n\ndef run(*args):\n    main(list(args))\n",
    "chr/fancy_machine.py": "from chr.core import load\n\n\nclass FancyMachine:\n    def run(self, text):\n"
                            "        return load(text)\n",
    "tests/__init__.py": "",
    "tests/cli/__init__.py": "",
    "tests/cli/test_base.py": """
        import unittest

        import chr.cli as TT
        from chr import core


        class BaseTestCase(unittest.TestCase):
            def _run_main(self, text):
                with self.assertRaises(SystemExit):
                    TT.main([text])
                return core.load(text)

            def run_main(self, text):
                return self._run_main(text)

            def test_runs(self):
                self.assertEqual(self.run_main(" a "), "A")
    """,
    "tests/test_remote.py": """
        from chr.core import load
        from chr.fancy_machine import FancyMachine


        class TestFancyMachine:
            def _connect(self):
                return FancyMachine()

            def test_tunnel(self):
                assert self._connect().run(" b ") == load("b")
    """,
    "tests/test_console.py": """
        import pytest

        from chr.console import run
        from chr.core import load


        @pytest.fixture
        def console_runner():
            def runner(*args):
                with pytest.raises(SystemExit):
                    run(*args)
                return load(args[0])

            return runner


        def test_console(console_runner):
            assert console_runner(" c ") == "C"
    """,
    "tests/test_core.py": """
        from chr import armor, core


        class TestLoad:
            def _load(self, text):
                return core.load(armor.unarmor(text))

            def test_load(self):
                assert self._load("--d--") == "D"

            def test_plain(self):
                assert core.load(" e ") == "E"
    """,
}
SPEC = ('source = "."\nroots = ["chr.core:load"]\ntests = ["tests"]\n\n[symbols]\npublic_api = "roots"\n'
        'package_api = false\n')


def test_helpers_running_the_removed_module_a_test_names_take_the_test(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    for gone in ("chr/cli.py", "chr/console.py", "chr/fancy_machine.py", "tests/cli/test_base.py",
                 "tests/test_remote.py", "tests/test_console.py"):
        assert not (fork / gone).exists(), gone
    assert (fork / "chr/armor.py").is_file()  # setup of the tests of kept code: it stays as test support
    assert "def test_load" in (fork / "tests/test_core.py").read_text()
    report = json.loads((tmp_path / "fork.report/report.json").read_text())
    why = {k["module"]: k["reason"] for k in report["kept"] if isinstance(k, dict) and k.get("kind") == "test-support"}
    assert set(why) == {"chr.armor"}, why
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "2 passed" in done.stdout, done.stdout[-2000:]
