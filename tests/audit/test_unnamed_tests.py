"""Session 40 (AQLM ``a795ee6^``): the repository vendors ``lm-evaluation-harness/`` (a folder whose name no import
can write), with its own ``tests/test_*.py``. Those tests have no module name, so they were no roots, and the
folder was "unreached" at 70. A test file no import can name is still a test a runner collects by path: it is not
reported as unused code; the vendored code beside it still is when nothing reaches it."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='pk', packages=['pk'])\n",
    "pk/__init__.py": "X = 1\n",
    "tests/test_pk.py": "import pk\n\n\ndef test_x():\n    assert pk.X == 1\n",
    "lm-eval/tests/test_tasks.py": "def test_tasks():\n    assert True\n",
    "lm-eval/tests/test_models.py": "def test_models():\n    assert True\n",
    "lm-eval/templates/new_task.py": "class NewTask:\n    pass\n",
    "lm-eval/templates/task_test.py": "class TaskTest:\n    pass\n",  # a test's name outside a test folder
}


def test_tests_in_an_unimportable_folder_are_no_unused_files(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    flagged = {p for f in result.findings if f.kind == "unused-file"
               for p in [f.subject, *(f.details or {}).get("files", ())]}
    assert not {"lm-eval/tests/", "lm-eval/tests/test_tasks.py", "lm-eval/tests/test_models.py"} & flagged
    assert "lm-eval/templates/" in flagged  # whole: task_test.py is no test (not in a test folder)
