"""Pitfalls 13 and 17 (docs/pitfalls.md) through `shrink`, for the shapes the libpit fixture lacks: a module-level
``locals()`` lookup (at module level, ``locals()`` is the module's namespace), a module reading its own namespace
through ``sys.modules[__name__]``, and a module that only a kept shell script or a setup.cfg names (not guarded
yet: a strict xfail until it is)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from tests.mapping.registrykit import write_project

from slimfork.api import analyse, shrink

SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]

[symbols]
public_api = "roots"
"""
LOCALS = {
    "pkg/__init__.py": "",
    "pkg/dispatch.py": """
        MODE = "b"


        def handle_a():
            return "a"


        def handle_b():
            return "b"


        HANDLER = locals()["handle_" + MODE]
        """,
    "pkg/helpers.py": """
        def describe(x):
            return "{x}".format(**locals())


        def unused():
            return None
        """,
    "pkg/cli.py": """
        from pkg.dispatch import HANDLER
        from pkg.helpers import describe

        print(describe(HANDLER()))
        """,
}


def test_pitfall_13_module_level_locals_keeps_every_name_of_its_module(tmp_path):
    root = write_project(tmp_path, LOCALS, SPEC)
    result = shrink(root / "slimfork.toml", out=tmp_path / "fork", jobs=1)
    assert result.apply.restored == []  # the analysis kept them: no check had to restore a broken edit
    dispatch = (tmp_path / "fork/pkg/dispatch.py").read_text()
    assert "def handle_a" in dispatch and "def handle_b" in dispatch
    assert "def unused" not in (tmp_path / "fork/pkg/helpers.py").read_text()  # locals() of a function: its own
    done = subprocess.run([sys.executable, "-m", "pkg.cli"], cwd=tmp_path / "fork", capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "b\n", done.stderr


@pytest.mark.parametrize("lookup", ['vars(sys.modules[__name__])', 'sys.modules[__name__].__dict__'])
def test_pitfall_13_a_module_reading_its_own_namespace_keeps_every_name(tmp_path, lookup):
    files = {
        "pkg/__init__.py": "",
        "pkg/dispatch.py": f"""
            import sys


            def handle_b():
                return "b"


            def dispatch(kind):
                return {lookup}["handle_" + kind]()
            """,
        "pkg/cli.py": """
            from pkg.dispatch import dispatch

            if __name__ == "__main__":  # at run time only: no import check would see a pruned handler
                print(dispatch("b"))
            """,
    }
    root = write_project(tmp_path, files, SPEC)
    result = shrink(root / "slimfork.toml", out=tmp_path / "fork", jobs=1)
    assert result.apply.restored == []
    assert "def handle_b" in (tmp_path / "fork/pkg/dispatch.py").read_text()
    done = subprocess.run([sys.executable, "-m", "pkg.cli"], cwd=tmp_path / "fork", capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "b\n", done.stderr


NAMED_OUTSIDE_PYTHON = {
    "a shell script": ("scripts/run.sh", '#!/bin/sh\npython -m pkg.tool "$@"\n'),
    "a setup.cfg entry point": ("setup.cfg", "[metadata]\nname = pkg\n\n[options.entry_points]\n"
                                             "pkg.plugins =\n    tool = pkg.tool:run\n"),
}


@pytest.mark.parametrize("shape", sorted(NAMED_OUTSIDE_PYTHON))
def test_pitfall_17_a_module_named_only_outside_python_stays(tmp_path, shape):
    where, text = NAMED_OUTSIDE_PYTHON[shape]
    files = {"pkg/__init__.py": "", "pkg/cli.py": "print('cli')\n", "pkg/tool.py": "def run():\n    return 1\n",
             where: text}
    root = write_project(tmp_path, files, SPEC)
    plan = analyse(root / "slimfork.toml").plan
    assert where not in plan.removed_paths()  # the file that names it stays in the fork ...
    assert "pkg/tool.py" not in plan.removed_paths()  # ... so the module it names must stay too
