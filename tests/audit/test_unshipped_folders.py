"""Session 39 (pytorch_spline_conv ``952a4ca^``, "removed old version"): ``torch_spline_conv/old/`` held seven
modules (CUDA kernels in Python strings) and no ``__init__.py``; ``setup.py`` ships ``packages=find_packages()``,
which leaves such a folder out of the distribution. They were reported "public, no internal user" (40): users could
never import them. A folder without ``__init__.py`` inside a regular package is no public API when the build finds
packages with ``find_packages()`` and asks for no namespace packages."""

from __future__ import annotations

from slimfork.audit.public import unshipped_folders
from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup, find_packages\nsetup(name='sc', packages=find_packages())\n",
    "sc/__init__.py": "from .conv import conv\n",
    "sc/conv.py": "def conv(x):\n    return x\n",
    "sc/old/spline_conv.py": "def spline_conv(x):\n    return x\n",
    "sc/old/deeper/gpu.py": "def gpu(x):\n    return x\n",
    "sc/extra.py": "def extra(x):\n    return x\n",
    "test/test_conv.py": "from sc import conv\n\n\ndef test_conv():\n    assert conv(1)\n",
}


def test_a_folder_find_packages_leaves_out_is_no_public_api(tmp_path):
    root = write_project(tmp_path, FILES, "")
    assert unshipped_folders(root, [p for p in FILES if p.endswith(".py")]) == {"sc/old"}
    result, _table = run_audit(open_tree(root))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert found.get("sc/extra.py") == 40, found  # shipped: public, no internal user
    old = {s: c for s, c in found.items() if s.startswith("sc/old")}
    assert old and all(c >= 60 for c in old.values()), found


def test_namespace_discovery_ships_the_folder(tmp_path):
    files = dict(FILES)
    files["setup.py"] = files["setup.py"].replace("find_packages()", "find_namespace_packages()").replace(
        "import setup, find_packages", "import setup, find_namespace_packages")
    root = write_project(tmp_path, files, "")
    assert unshipped_folders(root, [p for p in files if p.endswith(".py")]) == set()


def test_a_folder_the_package_imports_from_stays_public(tmp_path):
    """aiter ``ater/ops/`` (no ``__init__.py``, ``find_packages()``): ``ater/__init__.py`` imports ``.ops.norm``, so
    the folder is used (an editable install): its other modules stay public (40)."""
    files = dict(FILES)
    files["sc/__init__.py"] = "from .conv import conv\nfrom .old.spline_conv import spline_conv\n"
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert all(c <= 40 for s, c in found.items() if s.startswith("sc/old")), found
