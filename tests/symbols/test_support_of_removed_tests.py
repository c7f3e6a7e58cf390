"""A test helper that only tests of removed code import holds nothing: geopy 2.5.0's ``test/geocoders/pelias.py``
(``BaseTestPelias``, imported by ``geocodeearth.py`` alone) was test support, kept whole with what it imports, so the
``Pelias`` geocoder stayed though nothing kept uses it and the test importing the helper went (it tests the removed
``GeocodeEarth``). A test file the stages remove no longer makes the helpers it imports support, and they go with
what only they use."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "sup"\nversion = "1.0"\n',
    "sup/__init__.py": "",
    "sup/geo/__init__.py": "from .a import A\nfrom .b import B\nfrom .c import C\n",
    "sup/geo/a.py": "class A:\n    x = 1\n",
    "sup/geo/b.py": "class B:\n    x = 2\n",
    "sup/geo/c.py": "from .b import B\n\n\nclass C(B):\n    pass\n",
    "tests/__init__.py": "",
    "tests/helper_b.py": "from sup.geo import B\n\n\nclass BaseB:\n    make = B\n",
    "tests/test_a.py": "from sup.geo import A\n\n\ndef test_a():\n    assert A.x == 1\n",
    "tests/test_c.py": "from sup.geo import C\nfrom tests.helper_b import BaseB\n\n\nclass TestC(BaseB):\n"
                       "    def test_c(self):\n        assert issubclass(C, self.make)\n",
}
SPEC = 'source = "."\nroots = ["sup.geo.a:A"]\ntests = ["tests"]\n\n[symbols]\npublic_api = "roots"\n' \
       'package_api = false\n'


def test_a_helper_only_removed_tests_import_goes_with_what_it_uses(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = shrink(root / "slimfork.toml", out=tmp_path / "fork", jobs=1, verify=False).out
    assert not (fork / "tests/test_c.py").exists()
    assert not (fork / "sup/geo/b.py").exists() and not (fork / "tests/helper_b.py").exists()
    assert (fork / "sup/geo/__init__.py").read_text() == "from .a import A\n"
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=fork,
                         capture_output=True, text=True, env={"PYTHONPATH": str(fork), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr
