"""A driver table keyed by named constants, ``DRIVERS = {Provider.EC2: ("pkg.drivers.ec2", "EC2Driver")}`` (a cloud
library's providers): a ``mapping`` registry cuts it as it cuts string keys, ``keep`` matching the key as written
(``Provider.EC2``) or its module, and a test reading a removed key's constant (``get_driver(Provider.AZURE)``) is a
test of a removed entry. Before, the table was refused ("an entry that is not 'string': value")."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pkg/__init__.py": "",
    "pkg/types.py": 'class Provider:\n    EC2 = "ec2"\n    AZURE = "azure"\n',
    "pkg/providers.py": '''
        from pkg.types import Provider

        DRIVERS = {
            Provider.EC2: ("pkg.drivers.ec2", "EC2Driver"),
            Provider.AZURE: ("pkg.drivers.azure", "AzureDriver"),
        }


        def get_driver(provider):
            module, name = DRIVERS[provider]
            return getattr(__import__(module, fromlist=[name]), name)
        ''',
    "pkg/drivers/__init__.py": "",
    "pkg/drivers/ec2.py": 'class EC2Driver:\n    name = "ec2"\n',
    "pkg/drivers/azure.py": 'class AzureDriver:\n    name = "azure"\n',
    "tests/test_ec2.py": '''
        from pkg.providers import get_driver
        from pkg.types import Provider


        def test_ec2():
            assert get_driver(Provider.EC2).name == "ec2"
        ''',
    "tests/test_azure.py": '''
        import unittest

        from pkg.providers import get_driver
        from pkg.types import Provider


        class AzureTests(unittest.TestCase):
            def setUp(self):
                self.driver = get_driver(Provider.AZURE)

            def test_name(self):
                assert self.driver.name == "azure"
        ''',
}

SPEC = '''source = "."
roots = ["pkg.providers:get_driver"]
tests = ["tests"]
[symbols]
public_api = "roots"
[[registries]]
package = "pkg.providers"
kind = "mapping"
variable = "DRIVERS"
keep = ["Provider.EC2"]
reason = "EC2 only"
'''


def test_a_table_keyed_by_constants_is_cut_and_the_tests_of_removed_keys_go(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert (fork / "pkg/drivers/ec2.py").exists() and not (fork / "pkg/drivers/azure.py").exists()
    assert "Provider.AZURE" not in (fork / "pkg/providers.py").read_text()
    assert (fork / "tests/test_ec2.py").exists() and not (fork / "tests/test_azure.py").exists()
    report = (tmp_path / "fork.report" / "report.md").read_text()
    assert "pkg.types.Provider.AZURE, an enum member of a removed registry entry" in report
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]


def test_keep_may_name_the_module_of_a_constant_key(tmp_path):
    root = write_project(tmp_path, FILES, SPEC.replace('keep = ["Provider.EC2"]', 'keep = ["pkg.drivers.azure"]'))
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert (fork / "pkg/drivers/azure.py").exists() and not (fork / "pkg/drivers/ec2.py").exists()
    assert (fork / "tests/test_azure.py").exists() and not (fork / "tests/test_ec2.py").exists()
