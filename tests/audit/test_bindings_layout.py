"""A C++ library whose Python bindings are a distribution of their own in a subfolder (CTranslate2: no build file
at the root, ``python/setup.py`` beside the package ``python/ctranslate2``): the audit reads that subfolder as the
Python root. Before, ``python`` was taken for a namespace package, the package's own absolute imports
(``from ctranslate2 import converters``) resolved to nothing, and ``converters/``, ``models/``, ``specs/`` were
reported unreached at 70."""

from __future__ import annotations

from slimfork.audit.layout import audit_tree, bindings_root
from slimfork.audit.run import run_audit
from tests.mapping.registrykit import write_project

FILES = {
    "CMakeLists.txt": "add_library(ct2 src/ops.cc)\n",
    "src/ops.cc": "int add(int a, int b) { return a + b; }\n",
    "python/setup.py": "from setuptools import setup, find_packages\nsetup(name='ct', packages=find_packages())\n",
    "python/ct/__init__.py": "from ct import converters\nfrom ct.logging import level\n",
    "python/ct/logging.py": "def level():\n    return 0\n",
    "python/ct/converters/__init__.py": "from ct.converters.base import Converter\n",
    "python/ct/converters/base.py": "class Converter:\n    pass\n",
    "python/ct/old.py": "def gone():\n    return 1\n",
    "python/tests/test_ct.py": "import ct\n\n\ndef test_ct():\n    assert ct.level() == 0\n",
    "tools/bench.py": "import ct\n\nprint(ct.level())\n",
}


def test_the_bindings_subfolder_is_the_python_root(tmp_path):
    project = write_project(tmp_path, FILES, "")
    assert bindings_root(project) == "python"
    result, _table = run_audit(audit_tree(project))
    unused = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert unused.get("python/ct/old.py", 0) >= 40
    assert not {s for s in unused if s.startswith(("python/ct/converters", "python/ct/logging"))}


def test_a_root_build_file_or_two_candidates_keep_the_root(tmp_path):
    files = dict(FILES, **{"setup.py": "from setuptools import setup\nsetup(name='x')\n"})
    assert bindings_root(write_project(tmp_path / "a", files, "")) is None
    files = dict(FILES, **{"bindings/setup.py": "", "bindings/other/__init__.py": ""})
    assert bindings_root(write_project(tmp_path / "b", files, "")) is None


def test_bindings_one_level_further_down(tmp_path):
    """Session 39 (tiny-cuda-nn): ``bindings/torch/setup.py`` beside the package ``bindings/torch/tinycudann``, no
    build file at the root nor in ``bindings/``: the package was unreached (70) from the root's scripts."""
    files = {path.replace("python/", "bindings/torch/"): text for path, text in FILES.items()}
    project = write_project(tmp_path, files, "")
    assert bindings_root(project) == "bindings/torch"
    result, _table = run_audit(audit_tree(project))
    unused = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert not {s for s in unused if s.startswith(("bindings/torch/ct/converters", "bindings/torch/ct/logging"))}
    files["bindings/setup.py"] = ""  # a build file in bindings/: its own folder is the candidate, none found
    assert bindings_root(write_project(tmp_path / "b", files, "")) is None
