"""Pitfalls 11, 12 and 27 (PITFALLS.md), which had no test: ``__all__`` built by ``__all__.extend(sub.__all__)``
over star-imported submodules, ``nonlocal`` and ``global`` bindings in a kept module, and form feeds between the
definitions of a module the fork rewrites. Session 36's adversarial ``sk``: each mode keeps every public name, the
bytes of the form feeds, and the suite passes on the fork."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "sk"\nversion = "1.0"\n',
    "sk/__init__.py": "from . import a, b\nfrom .a import *\nfrom .b import *\n__all__ = []\n"
                      "__all__.extend(a.__all__)\n__all__.extend(b.__all__)\n",
    "sk/a.py": '__all__ = ["fa"]\n\x0c\ndef fa():\n    return "a"\n\x0c\ndef _private():\n    return 0\n',
    "sk/b.py": '__all__ = ["counter"]\n\n\ndef counter():\n    n = 0\n\n    def inc():\n        nonlocal n\n'
               "        n += 1\n        return n\n    return inc\n\n\n_STATE = None\n\n\ndef _set():\n"
               "    global _STATE\n    _STATE = 1\n",
    "sk/core.py": "from . import a\n\n\ndef run():\n    return a.fa()\n",
    "tests/test_sk.py": 'import sk\nfrom sk import *\n\n\ndef test_all():\n    assert set(sk.__all__) == {"fa", '
                        '"counter"}\n\n\ndef test_counter():\n    c = counter()\n    c()\n    assert c() == 2\n',
}


@pytest.mark.parametrize("roots_mode", [False, True])
def test_extend_all_nonlocal_and_form_feeds_survive(tmp_path, roots_mode):
    spec = 'source = "."\nroots = ["sk.core"]\ntests = ["tests"]\n'
    if roots_mode:
        spec += '\n[symbols]\npublic_api = "roots"\npackage_api = false\n'
    result = shrink(write_project(tmp_path, FILES, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    assert "nonlocal n" in (result.out / "sk/b.py").read_text()
    assert (result.out / "sk/a.py").read_bytes().count(b"\x0c") == 2
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=result.out,
                         capture_output=True, text=True, env={"PYTHONPATH": ".", "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "2 passed" in run.stdout, run.stdout[-2000:]
