"""Under ``--doctest-modules`` a kept library module's docstring examples are tests: one that reads a name a module
the spec drops (imported, or read through what an earlier example bound) failed in the fork (pybtex 0.26.1 without its latex backend: 11
doctests in kept docstrings). Such an example is cut from the docstring, with the later examples reading what it
bound; the prose and the other examples stay, and a doctest left without examples is meant to be gone."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from slimfork.testsuite.check import planned_checks
from tests.mapping.registrykit import write_project

TEXT = '''"""Text tools.

>>> shout("a")
'A!'
>>> from dcut.legacy import whisper
>>> w = whisper("C")
>>> w
'c'
>>> shout("x") + "y"
'X!y'
"""


def shout(text):
    """Shout.

    >>> from dcut import legacy
    >>> legacy.whisper(shout("q"))
    'q!'
    """
    return text.upper() + "!"


__test__ = {"plain": """
>>> shout("z")
'Z!'
""", "quiet": """
>>> import dcut.legacy
>>> dcut.legacy.whisper("Q")
'q'
"""}
'''
FILES = {
    "pyproject.toml": '[project]\nname = "dcut"\nversion = "1.0"\n\n'
                      '[tool.pytest.ini_options]\naddopts = "--doctest-modules"\ntestpaths = ["dcut", "tests"]\n',
    "dcut/__init__.py": "",
    "dcut/text.py": TEXT,
    "dcut/legacy.py": "def whisper(text):\n    return text.lower()\n",
    "tests/test_text.py": "from dcut.text import shout\n\n\ndef test_shout():\n    assert shout('a') == 'A!'\n",
}
SPEC = 'source = "."\nroots = ["dcut.text:shout"]\ntests = ["tests"]\ndrop = ["dcut/legacy.py"]\n\n[symbols]\n' \
       'public_api = "roots"\npackage_api = false\n'


def _pytest(tree):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=tree,
                          capture_output=True, text=True, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"})


def test_examples_using_pruned_names_leave_the_kept_docstrings(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    result = shrink(root / "slimfork.toml", tmp_path / "fork", jobs=1, verify=False)
    text = (result.out / "dcut/text.py").read_text()
    assert not (result.out / "dcut/legacy.py").exists() and "whisper" not in text and "legacy" not in text
    assert '>>> shout("a")' in text and '>>> shout("x") + "y"' in text and '>>> shout("z")' in text
    assert "Text tools." in text and "Shout." in text and "'c'" not in text
    run = _pytest(result.out)
    assert run.returncode == 0 and "3 passed" in run.stdout, run.stdout + run.stderr
    why = [r.reason for r in result.analysis.stages.test_removals if r.symbol == "dcut.text.shout"]
    assert why and "module dcut.legacy, which the fork removes" in why[0]
    emptied = result.data["tests"]["emptied_doctests"]
    assert emptied == [["dcut/text.py", "dcut.text.__test__.quiet"], ["dcut/text.py", "dcut.text.shout"]]
    check = planned_checks([type("Pytest", (), {"name": "pytest"})()], result.analysis.stages)[0]
    assert check.emptied_doctests == {"dcut.text.shout", "dcut.text.__test__.quiet"}
