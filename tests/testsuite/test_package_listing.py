"""A test that lists a package's modules (``pkgutil.iter_modules(pkg.__path__)``, ``os.listdir`` of the folder of
``pkg.__file__``, ``resources.files("pkg").iterdir()``) and asserts on what it finds goes when the fork removes a
module of that package; a test listing a package the fork keeps whole stays. Before, ``test_listed`` stayed and
failed (session 32, adversarial ``tst9``)."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "p9"\nversion = "1.0"\n',
    "p9/__init__.py": "",
    "p9/core.py": "def double(x):\n    return 2 * x\n",
    "p9/gone.py": "def half(x):\n    return x / 2\n",
    "p9/sub/__init__.py": "",
    "p9/sub/kept.py": "from p9.core import double\n",
    "tests/test_core.py": """
        import importlib.resources
        import os
        import pkgutil

        import p9
        import p9.sub
        from p9.core import double
        from p9.sub import kept


        def test_double():
            assert double(2) == 4 and kept.double(1) == 2


        def test_listed():
            assert sorted(m.name for m in pkgutil.iter_modules(p9.__path__)) == ["core", "gone", "sub"]


        def test_files():
            assert "gone.py" in os.listdir(os.path.dirname(p9.__file__))


        def test_resources():
            assert "gone.py" in [p.name for p in importlib.resources.files("p9").iterdir()]


        def test_sub_listed():
            assert [m.name for m in pkgutil.iter_modules(p9.sub.__path__)] == ["kept"]
    """,
}
SPEC = 'source = "."\nroots = ["p9.sub.kept"]\ntests = ["tests"]\n\n[symbols]\n'


def test_a_test_listing_a_package_goes_when_a_module_of_it_does(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "p9/gone.py").exists()
    tests = (fork / "tests/test_core.py").read_text()
    for gone in ("test_listed", "test_files", "test_resources"):
        assert f"def {gone}" not in tests, gone
    assert "def test_double" in tests and "def test_sub_listed" in tests
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "2 passed" in done.stdout, done.stdout[-2000:]
