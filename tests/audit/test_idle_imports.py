"""Session 40 (AQLM ``a795ee6^``, "removed matmul kernel"): ``src/aq.py`` kept ``from src.matmul_kernels import
aqlm_gemv_simple`` after its one call was commented out; ``matmul_kernels.py`` counted as imported (30, through a
script). A module every importer of which binds names the importing file never reads is reported at 50; a package
``__init__`` re-export, ``__all__``, a star import or any read of the name keeps it out."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='pk', packages=['pk'])\n",
    "pk/__init__.py": "from .api import run\nfrom .exported import helper\n",
    "pk/api.py": """
        from pk.kernels import gemv
        from pk.used import used_fn
        from pk.listed import listed_fn

        __all__ = ["run", "listed_fn"]


        def run(x):
            # return gemv(x)
            return used_fn(x)
    """,
    "pk/kernels.py": "def gemv(x):\n    return x\n",
    "pk/used.py": "def used_fn(x):\n    return x\n",
    "pk/listed.py": "def listed_fn(x):\n    return x\n",
    "pk/exported.py": "def helper():\n    return 1\n",
    "tests/test_pk.py": "import pk\n\n\ndef test_run():\n    assert pk.run(1) == 1\n",
}


def test_a_module_imported_only_by_unused_imports(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f for f in result.findings if f.kind == "unused-file"}
    assert found["pk/kernels.py"].confidence == 50
    assert "pk/api.py:1 (gemv)" in found["pk/kernels.py"].reason
    assert not {"pk/used.py", "pk/listed.py", "pk/exported.py"} & set(found)


def test_one_reading_importer_keeps_it(tmp_path):
    files = dict(FILES)
    files["pk/other.py"] = "from pk.kernels import gemv\n\n\ndef go(x):\n    return gemv(x)\n"
    files["pk/__init__.py"] += "from .other import go\n"
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    assert "pk/kernels.py" not in {f.subject for f in result.findings if f.kind == "unused-file"}


def test_imports_for_registration_are_used(tmp_path):
    files = dict(FILES)
    files["pk/kernels.py"] = "from pk.registry import REGISTER\n\n\n@REGISTER('gemv')\nclass Gemv:\n    pass\n"
    files["pk/registry.py"] = ("RUNNERS = {}\n\n\ndef REGISTER(name):\n"
                               "    return lambda cls: RUNNERS.setdefault(name, cls)\n")
    files["pk/api.py"] = files["pk/api.py"].replace("import gemv", "import Gemv").replace("(x)\n", "(x)\n", 1)
    files["pk/side.py"] = "def side_fn():\n    return 1\n"
    files["pk/noqa_user.py"] = "from pk.side import side_fn  # noqa: F401\n"
    files["pk/__init__.py"] += "from . import noqa_user\n"
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    found = {f.subject for f in result.findings if f.kind == "unused-file"}
    assert "pk/kernels.py" not in found  # its import runs @REGISTER('gemv')
    assert "pk/side.py" not in found  # a "# noqa" import is meant
