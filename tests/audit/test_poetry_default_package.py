"""poetry-core without ``packages`` installs the package named after the distribution (crashtest 0.4.1, rsa 4.9.1,
no tests in their sdists): the audit did not know it for the library, and called its public modules nothing in the
tree imports "not reached from the roots" (60, crashtest's ``frame.py``, ``inspector.py``, ...). They are the
library's API (40). Nor is a package whose name holds "test" inside a word (``crashtest``) a test folder."""

from __future__ import annotations

import pytest

from slimfork.audit.run import run_audit
from slimfork.source.installed_names import installed_patterns
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

PACKAGE = {
    "crashtest_kit/__init__.py": "from crashtest_kit.core import run\n",
    "crashtest_kit/core.py": "def run():\n    return 1\n",
    "crashtest_kit/inspector.py": "def inspect(x):\n    return x\n",
}


@pytest.mark.parametrize("pyproject", [
    '[tool.poetry]\nname = "crashtest-kit"\nversion = "1"\n',
    '[project]\nname = "Crashtest.Kit"\n[build-system]\nbuild-backend = "poetry.core.masonry.api"\n',
])
def test_poetrys_default_package_is_the_library(tmp_path, pyproject):
    root = write_project(tmp_path, {"pyproject.toml": pyproject, **PACKAGE}, "")
    assert installed_patterns(root) == {"crashtest_kit"}
    found = {f.path: (f.confidence, f.reason) for f in run_audit(open_tree(root))[0].findings}
    assert found["crashtest_kit/inspector.py"][0] == 40 and "public module" in found["crashtest_kit/inspector.py"][1], found


def test_a_poetry_project_naming_its_packages_or_lacking_the_folder_gets_no_default(tmp_path):
    root = write_project(tmp_path, {"pyproject.toml": '[tool.poetry]\nname = "other"\n', **PACKAGE}, "")
    assert installed_patterns(root) is None


def test_test_folders_are_words_of_a_path():
    from slimfork.audit.public import _NOT_API

    assert not any(_NOT_API.search(p) for p in ("crashtest", "pytest_subtests", "latest", "contest_kit"))
    assert all(_NOT_API.search(p) for p in ("tests", "test", "test_core", "core_tests", "conftest", "unittests"))


@pytest.mark.parametrize("extra, expected", [
    ("", {"crashtest_kit"}),
    # force-include adds a file to the default selection (jupyter_core 5.9.1's jupyter.py)
    ('[tool.hatch.build.force-include]\n"./cli.py" = "cli.py"\n', {"crashtest_kit", "cli"}),
    ('[tool.hatch.build.targets.wheel]\npackages = ["crashtest_kit", "suite"]\n', {"crashtest_kit", "suite"}),
])
def test_hatchlings_default_selection_is_the_package_named_after_the_project(tmp_path, extra, expected):
    """referencing 0.37.0 (hatchling, no file selection) has ``suite/`` beside its package, another distribution
    and its tests' data: the draft rooted it and the install check could not import it, in the original too."""
    pyproject = '[project]\nname = "crashtest-kit"\n[build-system]\nbuild-backend = "hatchling.build"\n' + extra
    root = write_project(tmp_path, {"pyproject.toml": pyproject, **PACKAGE, "suite/noxfile.py": "", "cli.py": ""}, "")
    assert installed_patterns(root) == expected
