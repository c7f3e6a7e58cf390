"""A lookup from another class that builds a private name with a piece too short to narrow it
(``Impl.__dict__["_" + name]``, ``getattr(self._impl, f"_{name}")``, ``vars(Impl).get("_" + name)``) may reach any
private method: method pruning keeps them and lists them as uncertain. Before, ``__dict__`` subscripts were no
computed lookup at all, and the one-character prefix ``_`` was dropped: the fork lost ``Impl._cls_dict`` and
``by_dict("cls_dict")`` raised KeyError (session 32, adversarial ``dyn2``). Without such a lookup the private
method no code names still goes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

IMPL = """
    class Impl:
        def _cls_dict(self):
            return "cls-dict"

        def _by_getattr(self):
            return "getattr"

        def _by_get(self):
            return "get"
"""
LOOKUPS = {
    "dict": 'Impl.__dict__["_" + name](self._impl)',
    "getattr": 'getattr(self._impl, f"_{name}")()',
    "vars": 'vars(Impl).get("_" + name)(self._impl)',
}
CALLS = {"dict": "cls_dict", "getattr": "by_getattr", "vars": "by_get"}


def _project(tmp_path, body: str):
    files = {
        "pyproject.toml": '[project]\nname = "plk"\nversion = "1.0"\n',
        "plk/__init__.py": "",
        "plk/impl.py": IMPL,
        "plk/api.py": f"""
            from plk.impl import Impl


            class Front:
                def __init__(self):
                    self._impl = Impl()

                def by(self, name):
                    return {body}
        """,
    }
    return write_project(tmp_path, files, 'source = "."\nroots = ["plk.api"]\n\n[symbols]\n')


@pytest.mark.parametrize("kind", sorted(LOOKUPS))
def test_a_private_name_built_from_an_underscore_keeps_private_methods(tmp_path, kind):
    root = _project(tmp_path, LOOKUPS[kind])
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    code = f"from plk.api import Front; print(Front().by({CALLS[kind]!r}))"
    done = subprocess.run([sys.executable, "-c", code], cwd=fork, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


def test_without_such_a_lookup_private_methods_go(tmp_path):
    root = _project(tmp_path, 'getattr(self._impl, "_by_get")()')
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    impl = (fork / "plk/impl.py").read_text()
    assert "_by_get" in impl and "_cls_dict" not in impl and "_by_getattr" not in impl
