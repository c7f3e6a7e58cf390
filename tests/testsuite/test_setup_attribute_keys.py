"""A setup method that only stores a removed registry key's URL on ``self`` (kombu 5.7.0's
``test_connection_utils.setup_method``: ``self.pg_url = 'sqla+postgresql://...'`` beside the URLs of kept transports)
took its whole class: the tests reading that attribute go now, and the setup and the other tests stay. A setup that
calls removed code with the key (``Connection(transport="disk")``) still takes its class."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project
from tests.testsuite.test_mapping_keys_in_tests import FILES, SPEC

URLS = """

class TestUrls:
    def setup_method(self):
        self.url = "memory://host"
        self.disk_url = "disk://host/path"

    def test_memory(self):
        assert Connection(self.url).transport.name == "memory"

    def check_disk(self):
        return Connection(self.disk_url).transport.name

    def test_disk(self):
        assert self.check_disk() == "disk"
"""


def test_only_the_tests_reading_the_attribute_go(tmp_path):
    files = {**FILES, "tests/test_urls.py": "from pkg.connection import Connection\n" + URLS}
    result = shrink(write_project(tmp_path, files, SPEC) / "slimfork.toml", tmp_path / "fork", jobs=1, verify=False)
    text = (result.out / "tests/test_urls.py").read_text()
    assert "def test_memory" in text and "self.disk_url = " in text
    assert "def test_disk" not in text and "def check_disk" not in text
    assert "class TestDisk" not in (result.out / "tests/test_connection.py").read_text()
    why = [r.reason for r in result.analysis.stages.test_removals if r.symbol == "TestUrls.check_disk"]
    assert why and "self.disk_url, set by TestUrls.setup_method" in why[0]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_urls.py"],
                         cwd=result.out, capture_output=True, text=True, env={"PYTHONPATH": str(result.out),
                                                                              "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr
