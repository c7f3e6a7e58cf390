"""Session 40 (AQLM ``d0f6ed4^``): beside the research code (``src/``, scripts at the root) the repository holds the
inference library as a distribution of its own, ``inference_lib/setup.cfg`` (``package_dir = = src``) building
``aqlm`` from ``inference_lib/src/aqlm/``. The tree names those files ``inference_lib.src.aqlm.*``; they import each
other as ``aqlm.*``, which resolved to nothing: the whole published package, its CUDA loader and Triton kernels,
were "unreached" (11 findings at 60-70). A subfolder's distribution whose package the tree does not name as its
users import it is public API: its files are roots."""

from __future__ import annotations

from slimfork.audit.layout import nested_distribution_files
from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "main.py": "from src.aq import quantize\n\nif __name__ == '__main__':\n    quantize()\n",
    "src/__init__.py": "",
    "src/aq.py": "def quantize():\n    return 1\n",
    "inference_lib/setup.cfg": "[metadata]\nname = aqlm\nversion = 1.0\n\n[options]\npackage_dir =\n    = src\n"
                               "packages = find:\n",
    "inference_lib/pyproject.toml": "[build-system]\nrequires = ['setuptools']\n",
    "inference_lib/src/aqlm/__init__.py": "from aqlm.inference import QuantizedLinear\n",
    "inference_lib/src/aqlm/inference.py": "from aqlm.utils import unpack\n\n\nclass QuantizedLinear:\n"
                                           "    f = staticmethod(unpack)\n",
    "inference_lib/src/aqlm/utils.py": "def unpack(x):\n    return x\n",
}


def test_a_subfolder_distribution_is_public(tmp_path):
    root = write_project(tmp_path, FILES, "")
    tree = open_tree(root)
    found = nested_distribution_files(root, [p for p in FILES if p.endswith(".py")], lambda p: p[:-3].replace("/", "."))
    assert sorted(found) == ["inference_lib/src/aqlm/__init__.py", "inference_lib/src/aqlm/inference.py",
                             "inference_lib/src/aqlm/utils.py"]
    result, _table = run_audit(tree)
    flagged = {f.subject for f in result.findings if f.kind == "unused-file"}
    assert not any(s.startswith("inference_lib") for s in flagged)


def test_a_folder_without_a_distribution_is_not(tmp_path):
    files = {k: v for k, v in FILES.items() if not k.endswith((".cfg", ".toml"))}
    files["inference_lib/pyproject.toml"] = "[tool.black]\nline-length = 120\n"  # no [project]: no distribution
    root = write_project(tmp_path, files, "")
    assert nested_distribution_files(root, [p for p in files if p.endswith(".py")],
                                     lambda p: p[:-3].replace("/", ".")) == {}
    result, _table = run_audit(open_tree(root))
    flagged = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert flagged.get("inference_lib/src/aqlm/utils.py", 0) >= 60 or flagged.get("inference_lib/", 0) >= 60


def test_a_subfolder_distribution_with_a_python_folder(tmp_path):
    files = {
        "pk/__init__.py": "",
        "setup.py": "from setuptools import setup\nsetup(name='pk', packages=['pk'])\n",
        "kernels/pyproject.toml": "[project]\nname = 'pk-kernel'\n[tool.scikit-build]\n"
                                  "wheel.packages = ['python/pk_kernel']\n",
        "kernels/python/pk_kernel/__init__.py": "from pk_kernel.gemm import gemm\n",
        "kernels/python/pk_kernel/gemm.py": "def gemm(a, b):\n    return a\n",
    }
    root = write_project(tmp_path, files, "")
    result, _table = run_audit(open_tree(root))
    assert not any(f.subject.startswith("kernels/") for f in result.findings if f.kind == "unused-file")
