"""A test file importing a name symbol pruning removes in a parenthesized, multi-line import keeps the other names:
the cut used to drop the parentheses when one name was left and kept its trailing comma (``from m import A,``:
a SyntaxError), so the file stayed uncut and failed to import in the fork (importlib_resources 6.4.5's
``tests/test_compatibilty_files.py``, ``from importlib_resources._adapters import (CompatibilityFiles, wrap_spec,)``)
(session 33)."""

from __future__ import annotations

import ast
import subprocess
import sys

from slimfork.api import analyse, shrink
from slimfork.testsuite.cut import cut_units
from tests.mapping.registrykit import write_project


def test_the_cut_of_one_name_of_a_parenthesized_import_parses():
    source = b"from m import (\n    A,\n    gone,\n)\nfrom n import (kept, gone2)\n\n\ndef test_a():\n    assert A\n"
    out = cut_units(source, {"import gone", "import gone2"}).decode()
    compile(out, "<t>", "exec")
    assert "gone" not in out and "A," in out and "kept" in out


FILES = {
    "pyproject.toml": '[project]\nname = "pic"\nversion = "1.0"\n',
    "pic/__init__.py": "",
    "pic/api.py": "from pic._impl import Keep\n\n\ndef make():\n    return Keep()\n",
    "pic/_impl.py": "class Keep:\n    pass\n\n\ndef helper():\n    return 1\n",
    "tests/test_impl.py": """
        from pic._impl import (
            Keep,
            helper,
        )
        from pic.api import make


        def test_make():
            assert isinstance(make(), Keep)


        def test_helper():
            assert helper() == 1
    """,
}
SPEC = 'source = "."\nroots = ["pic.api"]\ntests = ["tests"]\n\n[symbols]\n'


def test_a_test_file_importing_a_pruned_name_in_parentheses_keeps_its_other_tests(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert "def helper" not in (fork / "pic/_impl.py").read_text()
    tests = (fork / "tests/test_impl.py").read_text()
    assert "def test_make" in tests and "def test_helper" not in tests
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]


def test_a_test_file_that_cannot_be_cut_goes_whole(tmp_path, monkeypatch):
    """Uncut, the file would import what the fork removes: it goes whole (a conftest stays, with a warning)."""
    def fail(source, qualnames):
        raise ValueError("cannot cut")
    monkeypatch.setattr("slimfork.testsuite.stage.cut_units", fail)
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "tests/test_impl.py").exists()


# ecdsa 0.19.0's test_pyecdsa.py (held keys, curves and ecdh for the root ecdsa.eddsa): the same cut, one name a line
SOURCE = b"from .util import (\n    a,\n    b,\n    c,\n)\n\n\ndef test_a():\n    a()\n"


def test_one_name_left_loses_the_comma():
    for gone in ({"import b", "import c"}, {"import a", "import c"}):
        ast.parse(cut_units(SOURCE, gone))


def test_a_bracketed_import_keeping_one_name_is_cut_and_its_other_tests_stay(tmp_path):
    files = {
        "pk/__init__.py": "",
        "pk/core.py": "from pk.util import a\n\n\ndef run():\n    return a()\n",
        "pk/util.py": "def a():\n    return 1\n\n\ndef b():\n    return 2\n",
        "tests/__init__.py": "",
        "tests/test_util.py": "from pk.util import (\n    a,\n    b,\n)\n\n\ndef test_a():\n    assert a() == 1\n\n\n"
                              "def test_b():\n    assert b() == 2\n",
    }
    spec = 'source = "."\nroots = ["pk.core"]\ntests = ["tests"]\n[symbols]\npublic_api = "roots"\n'
    analysis = analyse(write_project(tmp_path, files, spec) / "slimfork.toml", jobs=1)
    assert not any("tests not cut" in w for w in analysis.stages.data["tests"]["warnings"])
    gone = {(r["path"], r["test"]) for r in analysis.stages.data["tests"]["removed"]}
    assert ("tests/test_util.py", "test_b") in gone and ("tests/test_util.py", "test_a") not in gone
