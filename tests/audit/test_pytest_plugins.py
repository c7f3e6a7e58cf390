"""Session 32 (tilelang ``3e4a05443^``): a pytest plugin a shell script loads by its module name
(``PYTEST_ARGS=(-p pytest_cuda_scheduler -n 4)`` in ``maint/scripts/run_local_ci_test.sh``, the plugin beside it)
runs, like a file the script names by path: 30, not unreached at 60. ``mkdir -p NAME`` loads nothing."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='tl', packages=['tl'])\n",
    "tl/__init__.py": "def run():\n    return 1\n",
    "tests/test_run.py": "from tl import run\n\n\ndef test_run():\n    assert run() == 1\n",
    "maint/scripts/run_ci.sh": """
        #!/bin/bash
        mkdir -p helper
        PYTEST_ARGS=(-p gpu_scheduler -n 4)
        cd "$(dirname "$0")" && PYTHONPATH=. pytest "${PYTEST_ARGS[@]}" ../../tests
    """,
    "maint/scripts/gpu_scheduler.py": "def pytest_configure(config):\n    config.gpus = 1\n",
    "maint/scripts/helper.py": "def pytest_configure(config):\n    config.gpus = 2\n",
}


def test_a_pytest_plugin_a_script_loads_by_name_is_a_tool_run(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))

    def confidence(path: str) -> int:  # its own finding or its folder's
        return max((f.confidence for f in result.findings if f.kind == "unused-file"
                    and (f.subject == path or f.subject.endswith("/") and path.startswith(f.subject))), default=0)

    assert confidence("maint/scripts/gpu_scheduler.py") <= 30
    assert confidence("maint/scripts/helper.py") >= 60  # mkdir -p helper: not a plugin
