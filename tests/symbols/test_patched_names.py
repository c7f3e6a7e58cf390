"""A name a test patches is a use: symbol pruning keeps it. ``mock.patch("apkg.service.time")`` after ``import time``
became unused in service.py, or an autouse fixture patching the private ``_fetch_legacy`` nothing kept calls, would
otherwise fail, and the fixture's failure takes every test of its file, the tests of kept code included
(/work/scratch/s30/adv's ``a`` and ``a2``: the fork had no tests)."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink

FILES = {
    "src/apkg/__init__.py": "",
    "src/apkg/api.py": "from apkg.service import Engine, get\n\n\ndef lookup(k):\n    return get(k)\n\n\n"
                       "def start():\n    return Engine().run()\n",
    "src/apkg/service.py": """import time

_CACHE = {}
_RETRY_DELAY = 0.5


def _fetch_legacy(key):
    time.sleep(_RETRY_DELAY)
    return "legacy-" + key


def _unused(key):
    return key


def get(key):
    if key not in _CACHE:
        _CACHE[key] = key.upper()
    return _CACHE[key]


class Engine:
    def _warm(self):
        time.sleep(1)

    def _cold(self):
        return 0

    def run(self):
        return 1
""",
    "tests/test_api.py": """from unittest import mock

import pytest

from apkg import service
from apkg.api import lookup, start


@pytest.fixture(autouse=True)
def _no_network():
    with mock.patch("apkg.service._fetch_legacy", return_value="x"):
        with mock.patch("apkg.service.time.sleep"):
            yield


def test_lookup():
    assert lookup("a") == "A"


def test_delay(monkeypatch):
    monkeypatch.setattr(service, "_RETRY_DELAY", 0)
    assert lookup("c") == "C"


def test_engine():
    with mock.patch.object(service.Engine, "_warm") as warm:
        assert start() == 1
    assert not warm.called
""",
    "slimfork.toml": 'source = "."\nroots = ["apkg.api"]\ntests = ["tests"]\n[symbols]\n',
}


def test_names_tests_patch_stay_and_so_do_the_tests(tmp_path):
    proj, fork = tmp_path / "proj", tmp_path / "fork"
    for rel, text in FILES.items():
        (proj / rel).parent.mkdir(parents=True, exist_ok=True)
        (proj / rel).write_text(text)
    shrink(proj / "slimfork.toml", fork, verify=False)
    service = (fork / "src/apkg/service.py").read_text()
    for kept in ("import time", "def _fetch_legacy", "_RETRY_DELAY = ", "def _warm"):
        assert kept in service
    assert "def _unused" not in service and "def _cold" not in service  # what nothing names still goes
    assert (fork / "tests/test_api.py").read_text() == FILES["tests/test_api.py"]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                         capture_output=True, text=True, env={"PYTHONPATH": str(fork / "src"), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "3 passed" in run.stdout, run.stdout + run.stderr
