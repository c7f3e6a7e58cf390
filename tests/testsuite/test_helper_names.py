"""A helper module of the tests (holidays' ``tests/common.py``: its base class checks ``issubclass(cls.test_class,
IslamicHolidays)``) that uses a name of a kept module no kept code uses: the name stays, as the modules such a
helper needs stay (``test_kept_test_needs.py``). Before, symbol pruning removed the name, the helper left the
tests, and every test file importing it went with it: a US-only holidays fork lost its US tests (session 43)."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "1.0"\n',
    "pkg/__init__.py": "",
    "pkg/core.py": "class Base:\n    pass\n\n\nclass Special(Base):\n    pass\n\n\ndef make():\n    return Base()\n",
    "tests/__init__.py": "",
    "tests/common.py": "from pkg.core import Special\n\n\ndef special(obj):\n    return isinstance(obj, Special)\n",
    "tests/test_core.py": "from pkg.core import make\nfrom tests.common import special\n\n\n"
                          "def test_make():\n    assert not special(make())\n",
}
SPEC = 'source = "."\nroots = ["pkg.core:make"]\ntests = ["tests"]\n\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def test_a_name_a_test_helper_uses_stays_with_the_tests(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    result = shrink(root / "slimfork.toml", tmp_path / "fork", jobs=1, verify=False)
    assert "class Special" in (result.out / "pkg/core.py").read_text()
    assert (result.out / "tests/test_core.py").is_file()
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=result.out,
                         capture_output=True, text=True)
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout[-2000:]
