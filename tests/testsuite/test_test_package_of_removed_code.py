"""A test package's ``__init__.py`` that imports removed code at module level stays where a test below it stays
(removing it would take them: a warning says so), but goes where none does: it kept importing a module the fork
removes, so the static fork's ``import tests.b`` failed (apache-libcloud 3.9.1's ``libcloud/test/backup/__init__.py``
importing ``libcloud.backup.base``, which the checked run had to put back)."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pkg/__init__.py": "",
    "pkg/a.py": "def a():\n    return 1\n",
    "pkg/b.py": "def b():\n    return 2\n",
    "tests/__init__.py": "",
    "tests/test_a.py": "from pkg.a import a\n\n\ndef test_a():\n    assert a() == 1\n",
    "tests/b/__init__.py": "from pkg.b import b\n\nEXPECTED = b()\n",
    "tests/b/test_b.py": "from pkg.b import b\n\n\ndef test_b():\n    assert b() == 2\n",
}
SPEC = 'source = "."\nroots = ["pkg.a"]\ntests = ["tests"]\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def test_a_test_package_init_of_removed_code_goes_when_no_test_below_it_stays(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    result = shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pkg/b.py").exists() and not (fork / "tests/b/test_b.py").exists()
    assert not (fork / "tests/b/__init__.py").exists()
    assert not any("tests/b/__init__.py" in w for w in result.analysis.plan.warnings)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]


def test_it_stays_with_a_warning_where_a_test_below_it_stays(tmp_path):
    files = {**FILES, "tests/b/test_kept.py": "from pkg.a import a\n\n\ndef test_kept():\n    assert a() == 1\n"}
    root = write_project(tmp_path, files, SPEC)
    fork = tmp_path / "fork"
    result = shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert (fork / "tests/b/__init__.py").exists() and (fork / "tests/b/test_kept.py").exists()
    assert any("tests/b/__init__.py" in w and "removing it would take every test below it" in w
               for w in result.analysis.plan.warnings)
