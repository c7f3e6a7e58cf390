"""A test calling a private method symbol pruning removed (opentelemetry-api's
``instrument._check_name_unit_description(...)`` on an instance of a test subclass, a method only another
distribution calls) goes with it: the fork's class no longer has it. The other tests of the file stay."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink

FILES = {
    "src/lib/__init__.py": "",
    "src/lib/instrument.py": """class Instrument:
    def __init__(self, name):
        self.name = name

    @staticmethod
    def _check_name(name):
        return name.isidentifier()

    def describe(self):
        return "instrument " + self.name
""",
    "src/lib/api.py": "from lib.instrument import Instrument\n\n\ndef make(name):\n    return Instrument(name)\n",
    "tests/test_instrument.py": """from lib.api import make
from lib.instrument import Instrument


class Child(Instrument):
    pass


def test_describe():
    assert make("a").describe() == "instrument a"


def test_check():
    instrument = Child("b")
    assert instrument._check_name("b")
""",
    "slimfork.toml": 'source = "."\nroots = ["lib.api"]\ntests = ["tests"]\n[symbols]\n',
}


def test_a_test_calling_a_pruned_private_method_goes(tmp_path):
    proj, fork = tmp_path / "proj", tmp_path / "fork"
    for rel, text in FILES.items():
        (proj / rel).parent.mkdir(parents=True, exist_ok=True)
        (proj / rel).write_text(text)
    shrink(proj / "slimfork.toml", fork, verify=False)
    assert "_check_name" not in (fork / "src/lib/instrument.py").read_text()
    test = (fork / "tests/test_instrument.py").read_text()
    assert "def test_describe" in test and "def test_check" not in test
    report = (tmp_path / "fork.report/removed.md").read_text()
    assert "symbol pruning removed the method lib.instrument.Instrument._check_name" in report
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                         capture_output=True, text=True, env={"PYTHONPATH": str(fork / "src"), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr
