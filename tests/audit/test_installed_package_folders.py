"""A folder of a package the build installs, which scripts import, holding a module nothing reaches (OpenPCDet
``12a5755^``: ``tools/demo.py`` imports ``pcdet.models``, whose ``backbones_2d/`` holds
``base_bev_backbone_skip.py``, imported by no ``__init__``): the folder was one finding of the script at 30 (a
folder a script outside it imports from stays whole, for a benchmarks folder a CI script imports and runs), so the
dead module was "may be run by hand" too. A folder of an installed package splits: the module nothing reaches is
unreached (60), what the script imports stays at 30."""

from __future__ import annotations

from pathlib import Path

from slimfork.audit.public import installed_packages
from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import find_packages, setup\n\n"
                "if __name__ == '__main__':\n    setup(name='pc', packages=find_packages(exclude=['tools', 'data']))\n",
    "pc/__init__.py": "__version__ = '1'\n",
    "pc/models/__init__.py": "from .heads import Head\n",
    "pc/models/heads/__init__.py": "from .head import Head\n",
    "pc/models/heads/head.py": "class Head:\n    pass\n",
    "pc/models/heads/head_skip.py": "class HeadSkip:\n    pass\n",
    "tools/demo.py": "from pc.models import Head\n\nif __name__ == '__main__':\n    Head()\n",
}


def _found(tmp_path: Path, files: dict[str, str]) -> dict[str, int]:
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    return {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}


def test_a_module_nothing_reaches_beside_what_a_script_imports_is_unreached(tmp_path):
    found = _found(tmp_path, FILES)
    assert found.get("pc/models/heads/head_skip.py") == 60
    assert "pc/models/" not in found and found.get("pc/models/heads/head.py") == 30


def test_a_folder_of_a_package_the_build_leaves_out_stays_the_scripts(tmp_path):
    files = {**FILES, "setup.py": "from setuptools import setup\nsetup(name='pc', packages=['tools'])\n"}
    found = _found(tmp_path, files)
    assert found.get("pc/models/") == 30 and not [s for s, c in found.items() if c >= 60]


def test_installed_packages_reads_the_finders_patterns(tmp_path):
    (tmp_path / "setup.py").write_text("from setuptools import setup, find_packages\n"
                                       "setup(packages=find_packages('.', ('tools*',)))\n")
    assert installed_packages(tmp_path, ["pc", "tools", "tests", "bench"]) == {"pc"}
    (tmp_path / "setup.py").write_text("from setuptools import setup, find_packages\n"
                                       "setup(packages=find_packages(exclude=EXCLUDED))\n")
    assert installed_packages(tmp_path, ["pc"]) == set()  # computed patterns: unknown
    (tmp_path / "setup.py").unlink()
    (tmp_path / "pyproject.toml").write_text('[tool.setuptools.packages.find]\ninclude = ["pc*"]\n')
    assert installed_packages(tmp_path, ["pc", "other"]) == {"pc"}
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "pc"\n')
    assert installed_packages(tmp_path, ["pc"]) == set()


def test_a_folder_whose_other_files_are_public_api_stays_the_scripts(tmp_path):
    """MSLK ``f17be94^``: ``mslk/attention/``, imported by benchmark scripts, holds public modules of a library
    its tests import (40 or 30 on their own): one folder at 30, not one row per file."""
    files = {**FILES, "tests/test_head.py": "from pc.models import Head\n\n\ndef test_head():\n    Head()\n"}
    found = _found(tmp_path, files)
    assert found.get("pc/models/") == 30 and "pc/models/heads/head_skip.py" not in found
