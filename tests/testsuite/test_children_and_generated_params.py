"""Tests that use a module without importing it (session 31's adversarial round): a child running code
(``[sys.executable, "-c", "import pkg.other as o; ..."]``), ``runpy.run_module("pkg.other")``, and a test whose
argument a ``pytest_generate_tests`` hook (of a conftest above it, or of its own file) parametrizes with module
names (``metafunc.parametrize("modname", MODULES)``) then ``import_module(modname)``: each goes when the fork
removes the module, where before the fork kept them and they failed."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "cpkg"\nversion = "1.0"\n',
    "cpkg/__init__.py": "",
    "cpkg/core.py": "def add(a, b):\n    return a + b\n",
    "cpkg/other.py": "def run():\n    return 'other'\n",
    "cpkg/gone.py": "X = 1\n",
    "tests/conftest.py": """
        MODULES = ["cpkg.core", "cpkg.gone"]


        def pytest_generate_tests(metafunc):
            if "modname" in metafunc.fixturenames:
                metafunc.parametrize("modname", MODULES)
    """,
    "tests/test_children.py": """
        import runpy
        import subprocess
        import sys

        from cpkg import core


        def test_child_code():
            out = subprocess.run([sys.executable, "-c", "import cpkg.other as o; print(o.run())"],
                                 capture_output=True, text=True)
            assert out.stdout == "other\\n"


        def test_run_module():
            assert runpy.run_module("cpkg.other")["run"]() == "other"


        def test_core():
            assert core.add(1, 2) == 3
    """,
    "tests/test_generated.py": """
        import importlib


        def test_import_each(modname):
            assert importlib.import_module(modname)


        def test_own_hook(kind):
            assert importlib.import_module("cpkg." + kind)


        def pytest_generate_tests(metafunc):
            if "kind" in metafunc.fixturenames:
                metafunc.parametrize("kind", ["core", "other"])
    """,
    "tests/sub/test_below.py": """
        import importlib


        def test_below(modname):
            assert importlib.import_module(modname)
    """,
    "other/conftest.py": "",
}
SPEC = 'source = "."\nroots = ["cpkg.core"]\ntests = ["tests"]\n'


def test_tests_using_a_removed_module_without_importing_it_go(tmp_path):
    analysis = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml", jobs=1)
    gone = {(r["path"], r["test"]): r["reason"] for r in analysis.stages.data["tests"]["removed"]}
    assert "cpkg.other" in gone[("tests/test_children.py", "test_child_code")]
    assert "cpkg.other" in gone[("tests/test_children.py", "test_run_module")]
    assert ("tests/test_children.py", "test_core") not in gone
    # every test of these files goes: the file goes whole
    assert "cpkg.gone" in gone[("tests/test_generated.py", None)]  # test_own_hook too: "cpkg." + "other"
    assert "cpkg.gone" in gone[("tests/sub/test_below.py", None)]  # the conftest's hook is above it


def test_a_hook_parametrizes_only_its_own_file_and_the_tests_below_its_conftest(tmp_path):
    files = {k: v for k, v in FILES.items() if k not in ("tests/test_children.py", "tests/sub/test_below.py")}
    files["tests/conftest.py"] = files["tests/conftest.py"].replace('"cpkg.gone"', '"cpkg.core"')
    files["tests/test_more.py"] = '''
        import importlib


        def test_kind(kind):
            assert importlib.import_module("cpkg." + kind)


        def test_modname(modname):
            assert importlib.import_module(modname)
    '''
    analysis = analyse(write_project(tmp_path, files, SPEC) / "slimfork.toml", jobs=1)
    gone = {(r["path"], r["test"]): r["reason"] for r in analysis.stages.data["tests"]["removed"]}
    # test_generated.py's own hook gives kind "other"; test_more.py's "kind" has no hook: nothing known, it stays
    assert "cpkg.other" in gone[("tests/test_generated.py", "test_own_hook")]
    assert ("tests/test_generated.py", "test_import_each") not in gone
    assert not [k for k in gone if k[0] == "tests/test_more.py"]
