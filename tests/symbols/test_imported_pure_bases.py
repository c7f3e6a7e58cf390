"""Module-level instances of plain classes whose bases come from another module (textdistance 4.6.3: ``mra =
MRA()`` where ``MRA`` derives from ``BaseSimilarity`` of ``algorithms/base.py``, each algorithm module star-imported
by the package): the instance is no effect when the imported base is a plain class of its own module too, so a
module none of whose names the roots use leaves the fork with its star import. A base whose ``__init__`` registers
the instance, or one the tree does not define, keeps the instance and its module."""

from __future__ import annotations

import subprocess
import sys

from tests.mapping.registrykit import write_project

from slimfork.api import analyse, shrink

BASE = """
class Base:
    def __init__(self, qval=1):
        self.qval = qval

    def distance(self, a, b):
        return self(a, b)


class BaseSimilarity(Base):
    def similarity(self, a, b):
        return 1 - self.distance(a, b)
"""
FILES = {
    "pkg/__init__.py": "from .algorithms import *\n",
    "pkg/algorithms/__init__.py": "from .edit import *\nfrom .phonetic import *\n",
    "pkg/algorithms/base.py": BASE,
    "pkg/algorithms/edit.py": """
        from .base import Base as _Base

        __all__ = ["Hamming", "hamming"]


        class Hamming(_Base):
            def __call__(self, a, b):
                return sum(x != y for x, y in zip(a, b))


        hamming = Hamming()
        """,
    "pkg/algorithms/phonetic.py": """
        from .base import BaseSimilarity as _BaseSimilarity

        __all__ = ["MRA", "mra"]


        class MRA(_BaseSimilarity):
            def __init__(self, qval=2):
                super().__init__(qval=qval)

            def __call__(self, a, b):
                return abs(len(a) - len(b))


        mra = MRA()
        """,
    "pkg/cli.py": "import sys\n\nfrom pkg import hamming\n\nprint(hamming(sys.argv[1], sys.argv[2]))\n",
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg:hamming", "pkg.cli"]

[symbols]
public_api = "roots"
package_api = false
"""


def test_instances_of_classes_with_plain_imported_bases_are_no_effects(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    analysis = analyse(root / "slimfork.toml")
    assert "pkg/algorithms/phonetic.py" in {r.path for r in analysis.plan.removals}
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    assert not (result.out / "pkg/algorithms/phonetic.py").exists()
    assert "phonetic" not in (result.out / "pkg/algorithms/__init__.py").read_text()
    run = [sys.executable, "-m", "pkg.cli", "abc", "abd"]
    assert subprocess.run(run, cwd=result.out, capture_output=True, text=True).stdout == "1\n"


def test_a_registering_or_unknown_base_keeps_the_instance(tmp_path):
    registering = BASE.replace("        self.qval = qval\n", "        self.qval = qval\n        REGISTRY.append(self)\n")
    for base in ("REGISTRY = []\n" + registering, "from collections import Counter as Base\n\n\n"
                 "class BaseSimilarity(Base):\n    pass\n"):
        files = {**FILES, "pkg/algorithms/base.py": base}
        project = tmp_path / str(len(base))
        root = write_project(project, files, SPEC)
        analysis = analyse(root / "slimfork.toml")
        assert "pkg/algorithms/phonetic.py" not in {r.path for r in analysis.plan.removals}
