"""Adversarial round s29 (R1, F1): an autouse fixture of a conftest.py that uses code no root reaches no longer
takes the whole conftest (which left tests erroring with "fixture not found"); since session 35 it is setup every
test below it requests, so the module it uses stays as test support (before, the fixture went and the tests ran
without it: a ``doctest_namespace`` entry it set was missing; since session 34 a name of a kept module that an
autouse fixture reads stays too: setuptools_scm's ``defer_to_pytest``); fixtures named as strings (``usefixtures``, ``pytestmark``,
``request.getfixturevalue``) are requested as parameters are; a test importing modules by a name computed over
literals (parametrize, a loop) uses each one."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

STATE = """
    _COUNT = {"n": 0}


    def bump():
        _COUNT["n"] += 1
        return _COUNT["n"]


    def reset():
        _COUNT["n"] = 0


    def seed(n):
        _COUNT["n"] = n
"""
SPEC = 'source = "."\npackages = ["rpkg"]\nroots = ["rpkg.app"]\ntests = ["tests"]\n[symbols]\npublic_api = "roots"\n'


def _pytest(fork):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=fork,
                          capture_output=True, text=True, env={"PYTHONPATH": str(fork), "PATH": "/usr/bin:/bin"})


def test_an_autouse_fixture_keeps_what_it_uses_and_its_tests_stay(tmp_path):
    files = {
        "pyproject.toml": '[project]\nname = "rpkg"\nversion = "1.0"\n',
        "rpkg/__init__.py": "",
        "rpkg/state.py": STATE,
        "rpkg/app.py": "from rpkg import state\n\n\ndef hit():\n    return state.bump()\n",
        "rpkg/cleanup.py": "from rpkg.state import reset\n",
        "tests/conftest.py": """
            import pytest

            from rpkg.cleanup import reset


            @pytest.fixture(autouse=True)
            def _clean():
                reset()
                yield


            @pytest.fixture
            def plain():
                return 1
        """,
        "tests/test_app.py": "from rpkg import app\n\n\ndef test_first(plain):\n    assert app.hit() == 1\n",
    }
    result = shrink(write_project(tmp_path, files, SPEC) / "slimfork.toml", tmp_path / "fork", verify=False)
    fork = result.out
    assert (fork / "rpkg/cleanup.py").exists()
    conftest = (fork / "tests/conftest.py").read_text()
    assert "_clean" in conftest and "import reset" in conftest and "def plain" in conftest
    assert (fork / "tests/test_app.py").exists()
    assert not [w for w in result.data["warnings"] if "its autouse fixture goes" in w]
    run = _pytest(fork)
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr


def test_fixtures_named_as_strings_take_their_tests(tmp_path):
    files = {
        "pyproject.toml": '[project]\nname = "rpkg"\nversion = "1.0"\n',
        "rpkg/__init__.py": "",
        "rpkg/state.py": STATE,
        "rpkg/app.py": "from rpkg import state\n\n\ndef hit():\n    return state.bump()\n",
        "tests/conftest.py": """
            import pytest

            from rpkg.state import seed


            @pytest.fixture
            def seeded():
                seed(100)


            @pytest.fixture
            def plain():
                return 1
        """,
        "tests/test_app.py": """
            import pytest

            from rpkg import app

            pytestmark = pytest.mark.usefixtures("plain")


            def test_first():
                assert app.hit() >= 1


            @pytest.mark.usefixtures("seeded")
            def test_seeded():
                assert app.hit() == 101


            def test_dynamic(request):
                request.getfixturevalue("seeded")
                assert app.hit() == 101
        """,
        "tests/test_marked.py": """
            import pytest

            from rpkg import app

            pytestmark = pytest.mark.usefixtures("seeded")


            def test_marked():
                assert app.hit() > 100
        """,
    }
    result = shrink(write_project(tmp_path, files, SPEC) / "slimfork.toml", tmp_path / "fork", verify=False)
    fork = result.out
    assert "def seed" not in (fork / "rpkg/state.py").read_text()
    kept = (fork / "tests/test_app.py").read_text()
    assert "test_first" in kept and "test_seeded" not in kept and "test_dynamic" not in kept
    assert not (fork / "tests/test_marked.py").exists()
    run = _pytest(fork)
    assert run.returncode == 0, run.stdout + run.stderr


def test_imports_by_a_name_computed_over_literals_use_each_module(tmp_path):
    files = {
        "pyproject.toml": '[project]\nname = "fpkg"\nversion = "1.0"\n',
        "fpkg/__init__.py": "",
        "fpkg/app.py": "from fpkg.plugins import alpha\n\n\ndef run():\n    return alpha.NAME\n",
        "fpkg/plugins/__init__.py": "",
        **{f"fpkg/plugins/{n}.py": f'NAME = "{n}"\n' for n in ("alpha", "beta", "gamma")},
        "tests/test_plugins.py": """
            from importlib import import_module

            import pytest

            from fpkg import app


            def test_app():
                assert app.run() == "alpha"


            @pytest.mark.parametrize("name", ["alpha", "beta", "gamma"])
            def test_plugin(name):
                assert import_module(f"fpkg.plugins.{name}").NAME == name


            def test_loop():
                for name in ("alpha", "beta"):
                    assert import_module("fpkg.plugins." + name).NAME == name
        """,
    }
    spec = 'source = "."\npackages = ["fpkg"]\nroots = ["fpkg.app"]\ntests = ["tests"]\n'
    result = shrink(write_project(tmp_path, files, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    fork = result.out
    assert not (fork / "fpkg/plugins/beta.py").exists() and not (fork / "fpkg/plugins/gamma.py").exists()
    kept = (fork / "tests/test_plugins.py").read_text()
    assert "test_app" in kept and "test_loop" not in kept
    # the parametrized test keeps the value naming a kept module (test_module_parameters.py)
    assert '@pytest.mark.parametrize("name", ["alpha"])' in kept
    for u in result.data["uncertain"]:  # never a claim to keep what the plan removes
        assert not {"fpkg.plugins.beta", "fpkg.plugins.gamma"} & set(u["kept"]), u
    run = _pytest(fork)
    assert run.returncode == 0, run.stdout + run.stderr


def test_an_uncertain_place_lists_only_the_candidates_the_plan_keeps():
    from slimfork.decisions import Kept, KeptKind, Plan, Removal, RemovalKind, Uncertain
    from slimfork.plan.build import settle_uncertain

    names = ("p.plugins.alpha", "p.plugins.beta", "p.plugins.gamma")
    plan = Plan(uncertain=[Uncertain("tests/t.py", 8, "import_module(...)",
                                     "dynamic import with prefix 'p.plugins.': kept all 3 modules it may name", names),
                           Uncertain("tests/u.py", 3, "import_module(...)", "kept all 2 modules", names[1:])])
    plan.kept = [Kept("tests/t.py", None, KeptKind.OUTSIDE), Kept("tests/u.py", None, KeptKind.OUTSIDE)]
    plan.removals = [Removal(RemovalKind.UNREACHABLE, f"p/plugins/{n}.py", "unreachable", f"p.plugins.{n}")
                     for n in ("beta", "gamma")]
    settle_uncertain(plan)
    assert [(u.path, u.kept) for u in plan.uncertain] == [("tests/t.py", ("p.plugins.alpha",))]
    assert "kept 1 of the 3 modules it may name" in plan.uncertain[0].why
