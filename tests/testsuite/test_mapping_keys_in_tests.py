"""A test passing a key a ``mapping`` registry's cut removed goes, as a subclass registry's does: as a string
(``Connection(transport="disk")``, in a class's setup) or as a URL's scheme (``Connection("mems://host")``).
kombu 5.7.0 sliced to its Redis and AMQP transports kept 31 tests of ``filesystem`` and ``amqps``, which failed
in the fork with ``KeyError: 'No such transport'``."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pkg/__init__.py": "",
    "pkg/transport/__init__.py": """
        import importlib

        ALIASES = {
            "memory": "pkg.transport.mem:Transport",
            "mems": "pkg.transport.mem:SecureTransport",
            "disk": "pkg.transport.disk:Transport",
        }


        def resolve(name):
            module, _, attr = ALIASES[name].partition(":")
            return getattr(importlib.import_module(module), attr)
    """,
    "pkg/transport/mem.py": "class Transport:\n    name = 'memory'\n\n\nclass SecureTransport(Transport):\n    pass\n",
    "pkg/transport/disk.py": "class Transport:\n    name = 'disk'\n",
    "pkg/connection.py": """
        from pkg.transport import resolve


        class Connection:
            def __init__(self, url="memory://", transport=None):
                self.transport = resolve(transport or url.partition("://")[0])
    """,
    "tests/__init__.py": "",
    "tests/test_connection.py": """
        from pkg.connection import Connection


        def test_memory():
            assert Connection().transport.name == "memory"


        def test_secure():
            assert Connection("mems://broker.example.com:5671/vhost-with-a-long-name").transport.name == "memory"


        class TestDisk:
            def setup_method(self):
                self.c = Connection(transport="disk")

            def test_name(self):
                assert self.c.transport.name == "disk"
    """,
}
SPEC = """source = "."
roots = ["pkg.connection"]
tests = ["tests"]

[[registries]]
package = "pkg.transport"
kind = "mapping"
variable = "ALIASES"
keep = ["memory"]
"""


def test_tests_passing_a_removed_key_or_url_scheme_go(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pkg/transport/disk.py").exists()
    text = (fork / "tests/test_connection.py").read_text()
    assert "def test_memory" in text and "test_secure" not in text and "TestDisk" not in text, text
    report = (tmp_path / "fork.report/report.md").read_text()
    assert "uses 'disk', a key of pkg.transport.ALIASES the spec does not keep" in report
    assert "uses 'mems', a key of pkg.transport.ALIASES the spec does not keep" in report
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]
