"""A test in a test-support module is no support: geopy 2.5.0's ``test/geocoders/__init__.py`` (the package of every
geocoder test, kept whole as their support) holds ``test_all_geocoders_are_exported_from_package``, which reads
``set(dir(geopy.geocoders))``: every name of the package and the 30 geocoders stayed for it. Now what only that test
uses is pruned, and the tests stage cuts the test (it lists the package's names, some of which the fork removes);
the support's own module-level code still holds what it uses."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "sup"\nversion = "1.0"\n\n[tool.pytest.ini_options]\n'
                      'python_files = ["test_*.py", "__init__.py"]\n',
    "sup/__init__.py": "",
    "sup/geo/__init__.py": "from .a import A\nfrom .b import B\n",
    "sup/geo/a.py": "class A:\n    pass\n",
    "sup/geo/b.py": "class B:\n    pass\n",
    "tests/__init__.py": "",
    "tests/geo/__init__.py": "import sup.geo\nfrom sup.geo.a import A\n\nKNOWN = [A]\n\n\n"
                             "def test_exported():\n    assert {'A', 'B'} <= set(dir(sup.geo))\n",
    "tests/geo/test_a.py": "from sup.geo.a import A\nfrom tests.geo import KNOWN\n\n\ndef test_a():\n"
                           "    assert KNOWN == [A]\n",
}
SPEC = 'source = "."\nroots = ["sup.geo.a:A"]\ntests = ["tests"]\n\n[symbols]\npublic_api = "roots"\n' \
       'package_api = false\n'


def test_a_test_in_a_support_module_holds_nothing(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    result = shrink(root / "slimfork.toml", out=tmp_path / "fork", jobs=1, verify=False)
    fork = result.out
    assert not (fork / "sup/geo/b.py").exists() and "B" not in (fork / "sup/geo/__init__.py").read_text()
    support = (fork / "tests/geo/__init__.py").read_text()
    assert "def test_exported" not in support and "KNOWN = [A]" in support
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=fork,
                         capture_output=True, text=True, env={"PYTHONPATH": str(fork), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr
