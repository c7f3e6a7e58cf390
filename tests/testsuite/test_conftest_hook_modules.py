"""A library module a conftest's ``pytest_*`` hook names (``config.pluginmanager.import_plugin("pkg.testing.plugin")``
in ``pytest_configure``, ``parser.addoption("--backend", default="pkg.backends.fast")`` a fixture then imports) is
test setup for every test below it: it stays as test support. Before, a hook was no test's helper: the module left
the fork with exit 0 and pytest stopped at start-up, or the test of kept code errored (session 41, both
`[symbols]` modes)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.soundness.soundkit import shrink_and_run_main

CORE = {"pkg/__init__.py": "", "pkg/core.py": "def double(x):\n    return x * 2\n",
        "pkg/app.py": "from pkg.core import double\n\n\ndef main():\n    return double(4)\n"}
HOOKS = {
    "import_plugin": {"pkg/testing/__init__.py": "",
                      "pkg/testing/plugin.py": "import pytest\nfrom pkg.core import double\n\n\n@pytest.fixture\n"
                                               "def answer():\n    return double(21)\n",
                      "tests/conftest.py": "def pytest_configure(config):\n"
                                           "    config.pluginmanager.import_plugin('pkg.testing.plugin')\n",
                      "tests/test_core.py": "def test_answer(answer):\n    assert answer == 42\n"},
    "addoption_default": {"pkg/backends/__init__.py": "",
                          "pkg/backends/fast.py": "from pkg.core import double\n\n\ndef run():\n"
                                                  "    return double(21)\n",
                          "tests/conftest.py": "import importlib\nimport pytest\n\n\ndef pytest_addoption(parser):\n"
                                               "    parser.addoption('--backend', default='pkg.backends.fast')\n\n\n"
                                               "@pytest.fixture\ndef answer(request):\n    return importlib."
                                               "import_module(request.config.getoption('--backend')).run()\n",
                          "tests/test_core.py": "def test_answer(answer):\n    assert answer == 42\n"},
}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("hook", sorted(HOOKS))
def test_a_module_a_conftest_hook_names_stays_for_the_tests(tmp_path, hook, mode):
    fork, done = shrink_and_run_main(tmp_path, {**CORE, **HOOKS[hook]}, mode)
    assert done.stdout.strip() == "8", done.stderr[-2000:]
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                           capture_output=True, text=True)
    assert "1 passed" in tests.stdout, tests.stdout[-2000:]
