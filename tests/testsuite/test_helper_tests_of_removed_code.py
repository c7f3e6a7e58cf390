"""A test of a test helper whose data comes from removed code keeps nothing: fontTools 4.68.0 sliced to
``pyftsubset`` kept ``fontTools.ufoLib`` as test support for ``Tests/pens/utils.py``, whose module level reads
``CUBIC_GLYPHS = GlyphSet(...)`` and whose ``TestDummyGlyph.test_equal`` compares ``DummyGlyph`` copies of
``CUBIC_GLYPHS["a"]``: a test of the file's own helper, which counted as a test of kept code (the helper draws with
the kept ``pointPen``). A test whose own body uses no library module, only names of its file, one of them bound at
module level from a module the fork removes, tests no kept code: what the file needs at import no longer stays for
it. A test that calls kept code itself still keeps what it needs (``test_kept_test_needs.py``)."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

UTILS = """
    import unittest

    from hlp.core import Pen
    from hlp.reader import GlyphSet

    GLYPHS = GlyphSet("cubic")


    class DummyGlyph:
        def __init__(self, glyph):
            self.outline = Pen().draw(glyph)


    class TestDummyGlyph(unittest.TestCase):
        def test_equal(self):
            self.assertEqual(DummyGlyph(GLYPHS["a"]).outline, ["a"])
"""

FILES = {
    "pyproject.toml": '[project]\nname = "hlp"\nversion = "1.0"\n\n[tool.pytest.ini_options]\n'
                      'python_files = ["test_*.py", "utils.py"]\n',
    "hlp/__init__.py": "",
    "hlp/core.py": "class Pen:\n    def draw(self, glyph):\n        return [glyph]\n",
    "hlp/reader.py": "class GlyphSet:\n    def __init__(self, path):\n        self.path = path\n\n"
                     "    def __getitem__(self, name):\n        return name\n",
    "tests/__init__.py": "",
    "tests/utils.py": UTILS,
    "tests/test_pen.py": "from hlp.core import Pen\n\n\ndef test_draw():\n    assert Pen().draw(1) == [1]\n",
}
SPEC = 'source = "."\nroots = ["hlp.core"]\ntests = ["tests"]\n'


def test_a_test_of_a_helper_built_on_removed_code_keeps_nothing(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = shrink(root / "slimfork.toml", out=tmp_path / "fork", jobs=1, verify=False).out
    assert not (fork / "hlp/reader.py").exists()
    assert not (fork / "tests/utils.py").exists()
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=fork,
                         capture_output=True, text=True, env={"PYTHONPATH": str(fork), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr
