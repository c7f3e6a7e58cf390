"""A pickle in the tests' data names the classes it holds (``pkg.compat\\nLegacyPoint``): a module only such a
pickle names is test support, kept with what it imports while a test that loads the pickle stays; the pickle of
a test that leaves keeps nothing, one no test names keeps its modules while the tests stay; a class of a kept module a pickle names keeps its name under ``[symbols]``."""

from __future__ import annotations

import subprocess
import sys

from tests.mapping.registrykit import write_project

from slimfork.api import shrink

FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": """
        import pickle

        from pkg.shapes import area


        def load_file(path):
            with open(path, "rb") as f:
                return pickle.load(f)


        def size(r):
            return area(r)
        """,
    "pkg/shapes.py": "def area(r):\n    return 3 * r * r\n\n\nclass Circle:\n    def __init__(self, r):\n"
                     "        self.r = r\n",
    "pkg/geometry.py": "class Point:\n    def __init__(self, x, y):\n        self.x, self.y = x, y\n",
    "pkg/compat.py": "from pkg.geometry import Point\n\n\nclass LegacyPoint(Point):\n    pass\n",
    "pkg/extras.py": "def shout(s):\n    return s.upper()\n",
    "pkg/oldcompat.py": "class Thing:\n    pass\n",
    "pkg/loose.py": "class Loose:\n    pass\n",
    "pkg/prose.py": "VALUE = 1\n",
    "tests/data/notes.txt": "See pkg.prose for the values.\n",
    "tests/test_core.py": """
        import os

        from pkg import core

        HERE = os.path.dirname(__file__)


        def test_legacy_pickle():
            p = core.load_file(os.path.join(HERE, "data", "legacy.pkl"))
            assert (p.x, p.y) == (1, 2)


        def test_circle():
            assert core.load_file(os.path.join(HERE, "data", "circle.pickle")).r == 2
        """,
    "tests/test_old.py": """
        import os

        from pkg import core
        from pkg.extras import shout


        def test_old():
            assert core.load_file(os.path.join(os.path.dirname(__file__), "data", "old.pkl")) and shout("a")
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.core"]
tests = ["tests"]

[symbols]
"""
PICKLE = """
import pickle, sys
from pkg.compat import LegacyPoint
from pkg.oldcompat import Thing
from pkg.shapes import Circle
from pkg.loose import Loose
for name, value, protocol in (("legacy.pkl", LegacyPoint(1, 2), 4), ("old.pkl", Thing(), 2),
                              ("circle.pickle", Circle(2), 0), ("loose.pkl", Loose(), 3)):
    with open("tests/data/" + name, "wb") as f:
        pickle.dump(value, f, protocol=protocol)
"""


def test_modules_a_tests_pickle_names_are_test_support(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    subprocess.run([sys.executable, "-c", PICKLE], cwd=root, check=True)
    fork = tmp_path / "fork"
    result = shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert (fork / "pkg/compat.py").is_file() and (fork / "pkg/geometry.py").is_file()
    assert not (fork / "tests/test_old.py").exists()  # it uses removed code: its pickle keeps nothing
    assert not (fork / "pkg/oldcompat.py").exists() and not (fork / "pkg/extras.py").exists()
    assert "class Circle" in (fork / "pkg/shapes.py").read_text()
    assert (fork / "pkg/loose.py").is_file()  # a pickle no test names: kept while the tests stay
    assert not (fork / "pkg/prose.py").exists()  # a text file no test names is prose
    kept = {k.path: k.detail for k in result.analysis.stages.plan.kept}
    assert "legacy.pkl" in kept["pkg/compat.py"]
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_pickle_globals_in_every_protocol():
    import pickle
    from collections import Counter, OrderedDict

    from slimfork.graph.data_files import pickle_globals

    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        data = pickle.dumps(OrderedDict(a=1), protocol=protocol) + pickle.dumps(Counter("x"), protocol=protocol)
        assert {"collections:OrderedDict", "collections:Counter"} <= set(pickle_globals(data)), protocol
    assert pickle_globals(b"not a pickle") == []
