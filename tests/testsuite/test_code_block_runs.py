"""A test that runs a documentation file's code blocks: it reads ``README.md`` by name, finds its fenced
```` ```python ```` blocks (or ``.. code-block:: python`` in ``.rst``) and ``exec``\\ s each. What the blocks import
is the test's use, as with ``doctest.testfile``. Before, the blocks' import of ``pkg.extra`` (a module no root
reaches) counted for nothing: the module left the fork with exit 0 and the test failed there (session 37, both
modes). Now the test uses the module, and goes with it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

DOCS = {
    "README.md": "# x\n\n```python\nfrom pkg.extra import g\nassert g() == 2\n```\n",
    "docs/usage.rst": "Usage\n=====\n\n.. code-block:: python\n\n    from pkg.extra import g\n    assert g() == 2\n",
}
TEST = """
import re, pathlib
from pkg.core import f


def test_f():
    assert f() == 1


def test_docs():
    text = (pathlib.Path(__file__).parents[1] / {path!r}).read_text()
    blocks = re.findall(r"```python\\n(.*?)```", text, re.S) or [
        "\\n".join(l[4:] for l in text.split("\\n\\n", 2)[2].splitlines())]
    for block in blocks:
        exec(block, {{}})
"""


@pytest.mark.parametrize("doc", sorted(DOCS))
@pytest.mark.parametrize("mode", ["default", "roots"])
def test_code_blocks_a_test_runs_are_its_uses(tmp_path, mode, doc):
    files = {
        "pkg/__init__.py": "",
        "pkg/core.py": "def f():\n    return 1\n",
        "pkg/extra.py": "def g():\n    return 2\n",
        doc: DOCS[doc],
        "tests/test_docs.py": TEST.format(path=doc),
    }
    symbols = '[symbols]\npublic_api = "roots"\npackage_api = false\n' if mode == "roots" else "[symbols]\n"
    spec = f'source = "."\nroots = ["pkg.core"]\ntests = ["tests"]\n\n{symbols}'
    root = write_project(tmp_path, files, spec)
    before = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=root,
                            capture_output=True, text=True, env={"PYTHONPATH": ".", "PATH": "/usr/bin:/bin"})
    assert "2 passed" in before.stdout, before.stdout[-2000:]
    result = shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=result.out,
                         capture_output=True, text=True, env={"PYTHONPATH": ".", "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "failed" not in run.stdout and "passed" in run.stdout, run.stdout[-2000:]


NAMES_TEST = """
import importlib, pathlib, re

import pkg
from pkg.core import f


def test_f():
    assert f() == 1


def test_automodules():
    text = (pathlib.Path(__file__).parents[1] / "docs" / "api.rst").read_text()
    for m in re.findall(r"automodule:: (\\S+)", text):
        importlib.import_module(m)


def test_all():
    assert sorted(pkg.__all__) == ["f", "g"]
"""


@pytest.mark.parametrize("mode", ["default", "roots"])
def test_a_file_a_test_imports_names_from_and_an_all_it_compares(tmp_path, mode):
    """A test importing each module ``docs/api.rst`` lists uses them; one comparing ``pkg.__all__`` reads the
    package's whole namespace (with `public_api = "roots"` the fork prunes ``g`` from it). Both failed on the fork
    (session 37)."""
    files = {
        "pkg/__init__.py": "from .core import f\nfrom .extra import g\n__all__ = ['f', 'g']\n",
        "pkg/core.py": "def f():\n    return 1\n",
        "pkg/extra.py": "def g():\n    return 2\n",
        "docs/api.rst": "API\n===\n\n.. automodule:: pkg.core\n.. automodule:: pkg.extra\n",
        "tests/test_names.py": NAMES_TEST,
    }
    symbols = '[symbols]\npublic_api = "roots"\npackage_api = false\n' if mode == "roots" else "[symbols]\n"
    spec = f'source = "."\nroots = ["pkg.core:f"]\ntests = ["tests"]\n\n{symbols}'
    result = shrink(write_project(tmp_path, files, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=result.out,
                         capture_output=True, text=True, env={"PYTHONPATH": ".", "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "failed" not in run.stdout and "passed" in run.stdout, run.stdout[-2000:]
