"""The prefix a ``pkgutil.iter_modules(pkg.plugins.__path__, "pkg.plugins.")`` scan gives the names it lists names
the modules below the package (the module graph's scan finds them), not the package's own names: geopy 2.5.0's test
helper ``test/geocoders/__init__.py`` scans its geocoders so, and the string kept every name of
``geopy/geocoders/__init__.py``, which imports all 30 geocoders, in a one-geocoder slice."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pkg/__init__.py": "",
    "pkg/plugins/__init__.py": "from pkg.plugins.alpha import Alpha\nfrom pkg.plugins.beta import Beta\n",
    "pkg/plugins/alpha.py": "class Alpha:\n    name = 'alpha'\n",
    "pkg/plugins/beta.py": "class Beta:\n    name = 'beta'\n",
    "tests/__init__.py": "import importlib\nimport pkgutil\n\nimport pkg.plugins\n\nPLUGINS = [\n"
                         "    importlib.import_module(name)\n"
                         "    for _, name, _ in pkgutil.iter_modules(pkg.plugins.__path__, prefix='pkg.plugins.')\n]\n",
    "tests/test_alpha.py": "from pkg.plugins.alpha import Alpha\nfrom tests import PLUGINS\n\n\n"
                           "def test_alpha():\n    assert Alpha.name == 'alpha' and PLUGINS\n",
}
SPEC = ('source = "."\nroots = ["pkg.plugins.alpha:Alpha"]\ntests = ["tests"]\n[symbols]\npublic_api = "roots"\n'
        'package_api = false\n')


def test_a_scan_prefix_keeps_no_name_of_the_package(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pkg/plugins/beta.py").exists()
    assert "Beta" not in (fork / "pkg/plugins/__init__.py").read_text()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]


def test_the_same_string_elsewhere_still_names_the_package(tmp_path):
    files = {**FILES, "tests/__init__.py": FILES["tests/__init__.py"]
             + "PACKAGE = importlib.import_module('pkg.plugins.'[:-1])\n"}
    root = write_project(tmp_path, files, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert "Beta" in (fork / "pkg/plugins/__init__.py").read_text()
