"""A package module the symbol stage keeps whole as test support (a test file of kept code imports it) but the
tests stage takes away with the tests that import it leaves nothing behind: pypinyin 0.55.0's ``runner.py``
(imported by ``tests/test_cmd.py``, which also tests ``toneconvert``) looks names of ``pypinyin`` up with
``getattr(pypinyin, options.func)``; every name of ``pypinyin/__init__.py`` stayed, and the report listed that
uncertain place of a file the fork removes. The stages run once more without it as support."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pkg/__init__.py": "from pkg.core import lazy\n\n\ndef extra():\n    return 2\n",
    "pkg/core.py": "def lazy(x):\n    return x\n",
    "pkg/runner.py": "import pkg\n\n\ndef main(name):\n    return getattr(pkg, name)(1)\n",
    "tests/__init__.py": "",
    "tests/test_cmd.py": "from pkg import runner\nfrom pkg.core import lazy\n\n\ndef test_runner():\n"
                         "    assert runner.main('lazy') == 1\n\n\ndef test_lazy():\n    assert lazy(2) == 2\n",
}
SPEC = ('source = "."\nroots = ["pkg.core:lazy"]\ntests = ["tests"]\n[symbols]\npublic_api = "roots"\n'
        'package_api = false\n')


def test_support_the_fork_removes_keeps_nothing(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    result = shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pkg/runner.py").exists()
    assert "extra" not in (fork / "pkg/__init__.py").read_text()
    assert not [u for u in result.analysis.plan.uncertain if "runner" in u.why]
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]
