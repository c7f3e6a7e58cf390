"""pep8-naming 0.15.1's ``run_tests.py`` lists ``testsuite/`` (``os.listdir('testsuite')``) and checks each of its
files with flake8: Python files that are the tests' data, no package and no test file. The audit called the folder
unreached at 70; a test runner naming the folder makes it test data (30), as a test naming a fixture folder does."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='naming', py_modules=['naming'])\n",
    "naming.py": "def check(tree):\n    return []\n",
    "run_tests.py": "import os\nimport naming\n\n\ndef main():\n    for name in os.listdir('samples_n8'):\n"
                    "        naming.check(open(os.path.join('samples_n8', name)).read())\n\n\n"
                    "if __name__ == '__main__':\n    main()\n",
    "samples_n8/N801.py": "class bad_name:\n    pass\n",
    "samples_n8/N802.py": "def BadName():\n    pass\n",
    "tools/helper.py": "X = 1\n",
}


def test_a_folder_a_test_runner_names_is_test_data(tmp_path):
    result = run_audit(open_tree(write_project(tmp_path, FILES, "")))[0]
    found = {f.path: f for f in result.findings}
    cases = found.get("samples_n8/")
    assert cases is not None and cases.confidence == 30 and "run_tests.py:6 names the folder" in cases.reason, found
    assert "test data" not in found["tools/"].reason, found  # no runner names it
