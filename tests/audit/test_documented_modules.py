"""flute ``07ae797^``: the README shows ``import flute.integrations.huggingface`` and ``from flute.tune import
TuneTask``; nothing in the tree imports either, and its tests (``tests/kernel.py``, no ``test_*`` names) tell no
library package, so both were "unreached" at 60. A module a document imports (and the packages above it) is
documented API (40), and so is a file a document tells users to copy (``cp templates/new_task.py ...``); a file a
document names only by path (``python stale/old_bench.py``) or not at all stays unreached."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

README = """\
# lib

```python
import lib.integrations.hub
+ model = lib.integrations.hub.from_pretrained("x")
from lib.tune import TuneTask
```
"""

FILES = {
    "setup.py": "from setuptools import setup, find_packages\nsetup(name='lib', packages=find_packages())\n",
    "README.md": README,
    "lib/__init__.py": "from lib.core import run\n",
    "lib/core.py": "def run(x):\n    return x\n",
    "lib/integrations/__init__.py": "",
    "lib/integrations/hub.py": "def from_pretrained(name):\n    return name\n",
    "lib/tune.py": "class TuneTask:\n    pass\n",
    "lib/stale.py": "def old():\n    return 1\n",
    "harness/docs/guide.md": "Copy the template:\n\n    cp templates/new_task.py harness/tasks/my_task.py\n",
    "harness/templates/new_task.py": "class NewTask:\n    pass\n",
    "harness/old/runner.py": "def run():\n    return 1\n",
}


def test_modules_documents_import_or_name_are_documented_api(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f for f in result.findings if f.kind == "unused-file"}
    for subject in ("lib/integrations/hub.py", "lib/tune.py"):
        finding = found.get(subject) or found[subject.rsplit("/", 1)[0] + "/"]
        assert finding.confidence == 40 and "documented API" in finding.reason, finding
    assert found["lib/stale.py"].confidence >= 60
    assert found["harness/old/"].confidence >= 60 and "harness/" not in found


def test_files_documents_copy_are_documented_templates(tmp_path):
    """SpQR ``5f5f841^``: the vendored harness's ``docs/task_guide.md`` says ``cp templates/new_task.py
    lm_eval/tasks/<task-name>.py`` (a path from the harness's root): ``templates/`` was unreached at 70."""
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f for f in result.findings if f.kind == "unused-file"}
    finding = found.get("harness/templates/new_task.py") or found["harness/templates/"]
    assert finding.confidence == 40 and "guide.md:3 copies templates/new_task.py" in finding.reason, finding


def test_modules_a_notebook_beside_them_imports_are_no_dead_code(tmp_path):
    """varname 1.0.0's ``playground/playground.ipynb`` imports ``module_all_calls`` (Jupyter runs it in its own
    folder), and its ``playground/`` was "unreached" at 70. A notebook's code cells are read as a document's, and a
    plain name resolves beside it too."""
    import json

    notebook = {"cells": [{"cell_type": "markdown", "source": ["import nothing_here\n"]},
                          {"cell_type": "code", "source": ["import helper_mod\n", "helper_mod.run()\n"]}],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    files = {**FILES, "playground/demo.ipynb": json.dumps(notebook),
             "playground/helper_mod.py": "def run():\n    return 1\n",
             "playground/lonely.py": "def nothing():\n    return 2\n"}
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    found = {f.subject: f for f in result.findings if f.kind == "unused-file"}
    helper = found["playground/helper_mod.py"]
    assert helper.confidence <= 40 and "playground/demo.ipynb" in helper.reason, helper
    assert found["playground/lonely.py"].confidence >= 60
