"""Session 46: a library module that runs its own docstrings' examples (``doctest.testmod(sys.modules[__name__])``,
``doctest.run_docstring_examples(f, globs)``) imports what they import. On main docstrings were prose for the
graph: ``backends/fast.py``, imported otherwise only by code no root reaches, left the fork and the examples failed
there (``main()`` returned 2 failures instead of 0), exit 0."""

from __future__ import annotations

import pytest

from tests.soundness.soundkit import shrink_and_run_main

TESTMOD = '''
import doctest, sys


def _example():
    """
    >>> from pkg.backends import fast
    >>> fast.NAME
    'fast'
    """


def main():
    return doctest.testmod(sys.modules[__name__]).failed
'''
RUN_EXAMPLES = TESTMOD.replace("return doctest.testmod(sys.modules[__name__]).failed",
                               "doctest.run_docstring_examples(_example, {})\n    return 0")


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("app", [TESTMOD, RUN_EXAMPLES], ids=["testmod", "run_docstring_examples"])
def test_a_module_running_its_own_doctests_keeps_what_they_import(tmp_path, app, mode):
    files = {"pkg/__init__.py": "", "pkg/app.py": app, "pkg/backends/__init__.py": "",
             "pkg/backends/fast.py": "NAME = 'fast'\n", "pkg/legacy.py": "import pkg.backends.fast\nALL = True\n",
             "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_legacy():\n    assert legacy.ALL\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "0" and "Failed" not in done.stdout + done.stderr, done.stdout + done.stderr[-2000:]
    assert (fork / "pkg/backends/fast.py").exists() and not (fork / "pkg/legacy.py").exists()
