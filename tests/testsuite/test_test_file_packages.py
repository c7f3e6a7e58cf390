"""A test file inside a package (sniffio 1.3.1's ``sniffio/_tests/test_sniffio.py``, selected alone as the spec's
``tests``) is imported by pytest through its package: the package's ``__init__.py``, which nothing imports, was
planned away as unreachable, and the checked run's pytest check put it back (a batch bisected for it)."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "sniff/__init__.py": "from sniff._impl import current\n",
    "sniff/_impl.py": "def current():\n    return 'asyncio'\n",
    "sniff/_tests/__init__.py": "",
    "sniff/_tests/test_sniff.py": "from .. import current\n\n\ndef test_current():\n    assert current()\n",
}


def test_the_package_of_a_kept_test_file_stays(tmp_path):
    root = write_project(tmp_path, FILES, 'source = "."\nroots = ["sniff"]\ntests = ["sniff/_tests/test_sniff.py"]\n')
    fork = tmp_path / "fork"
    result = shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert (fork / "sniff/_tests/__init__.py").is_file()
    kept = {k["path"]: k for k in result.data["kept"]}
    assert "sniff/_tests/test_sniff.py, which pytest imports through it" in kept["sniff/_tests/__init__.py"]["reason"]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "sniff/_tests"], cwd=fork,
                         capture_output=True, text=True)
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr
