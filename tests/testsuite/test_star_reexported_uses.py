"""A test importing from the package a name its ``__init__`` re-exports with a star import (``from voluptuous
import Clamp``; ``voluptuous/__init__.py`` has ``from voluptuous.validators import *``) breaks when symbol pruning
removes the name from the star's source module (``package_api = false``). The tests stage took the package's
names for unknowable and kept the test, which failed to import in the fork (voluptuous 0.15.2's whole test
file errored); it now follows the star imports, and such tests leave while the others stay. Since session 34 a
star import of a package ``__init__`` that is no API stays only while kept code uses a name it binds (``pk.cli``
reads ``pk.run``), so ``from pk import run`` works in the fork and ``from pk import clamp`` does not."""

from __future__ import annotations

import subprocess
import sys

from tests.mapping.registrykit import write_project

from slimfork.api import analyse, shrink

FILES = {
    "pk/__init__.py": "from pk.core import *\nfrom pk.extra import *\n",
    "pk/core.py": "def run():\n    return 1\n",
    "pk/extra.py": "def clamp(x):\n    return min(x, 1)\n\n\ndef spare():\n"
                   "    return 0\n",
    "pk/cli.py": "from pk import run\n\nprint(run())\n",  # kept code reads pk.run: that star import stays
    "tests/__init__.py": "",
    "tests/test_pk.py": "from pk import clamp, run\n\n\ndef test_run():\n    assert run() == 1\n\n\n"
                        "def test_clamp():\n    assert clamp(5) == 1\n",
}
SPEC = 'source = "."\nroots = ["pk.core", "pk.cli"]\ntests = ["tests"]\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def test_a_use_of_a_name_a_star_import_lost_leaves_with_its_test(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    analysis = analyse(root / "slimfork.toml", jobs=1)
    gone = {(r["path"], r["test"]): r["reason"] for r in analysis.stages.data["tests"]["removed"]}
    assert ("tests/test_pk.py", "test_clamp") in gone and ("tests/test_pk.py", "test_run") not in gone
    assert "re-exports from pk.extra with a star import" in gone[("tests/test_pk.py", "test_clamp")]
    out = shrink(root / "slimfork.toml", tmp_path / "fork").out
    run = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]
    assert "1 passed" in subprocess.run(run, cwd=out, capture_output=True, text=True).stdout
