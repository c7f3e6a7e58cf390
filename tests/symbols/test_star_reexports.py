"""Pitfall 3 (docs/pitfalls.md) for API modules: what a root module or a package ``__init__`` re-exports with
``from m import *`` is its API, so those names stay in ``m`` even when no kept code uses them (the star import
alone stayed, and the definitions it re-exports were pruned). A module that is no API still loses them."""

from __future__ import annotations

import subprocess
import sys

import pytest
from tests.mapping.registrykit import write_project

from slimfork.api import shrink

FILES = {
    "pkg/__init__.py": "",
    "pkg/api.py": "from pkg._impl import *\nfrom pkg._reexport import *\n",
    "pkg/_impl.py": "def f():\n    return 1\n\n\ndef g():\n    return 2\n\n\ndef _helper():\n    return 3\n",
    "pkg/_reexport.py": "from pkg._deep import *\n",  # no __all__: re-exports what _deep exports
    "pkg/_deep.py": "def deep():\n    return 4\n",
    "pkg/shapes/__init__.py": "from .circle import *\nfrom .more import *\n",
    "pkg/shapes/circle.py": "def area():\n    return 3\n\n\ndef perimeter():\n    return 6\n",
    "pkg/shapes/more.py": '__all__ = ["diameter"]\n\n\ndef diameter():\n    return 2\n\n\n'
                          'def radius():\n    return 1\n',
    "pkg/cli.py": "from pkg.shapes import area\n\nprint(area())\n",
}
SPEC = 'source = "."\npackages = ["pkg"]\nroots = ["pkg.api", "pkg.cli"]\n\n[symbols]\npublic_api = "roots"\n'


def _shrink(tmp_path, extra: str = ""):
    root = write_project(tmp_path, FILES, SPEC + extra)
    fork = tmp_path / "fork"
    result = shrink(root / "slimfork.toml", out=fork, jobs=1)
    assert result.apply.restored == []
    return fork


def _run(fork, code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=fork, capture_output=True, text=True)


def test_pitfall_03_names_an_api_module_star_imports_stay(tmp_path):
    fork = _shrink(tmp_path)
    impl = (fork / "pkg/_impl.py").read_text()
    assert "def f" in impl and "def g" in impl and "def _helper" not in impl  # a private name is no export
    circle, more = (fork / "pkg/shapes/circle.py").read_text(), (fork / "pkg/shapes/more.py").read_text()
    assert "def perimeter" in circle and "def diameter" in more
    assert "def radius" not in more  # more's literal __all__ says what its star import exports
    assert "def deep" in (fork / "pkg/_deep.py").read_text()  # through a star import of a star import
    code = "from pkg.api import f, g, deep; from pkg.shapes import area, perimeter, diameter; print(g())"
    done = _run(fork, code)
    assert done.returncode == 0 and done.stdout == "2\n", done.stderr


@pytest.mark.parametrize("extra, gone", [
    ('package_api = false\n', ("pkg/shapes/circle.py", "def perimeter")),  # an __init__ that is no API
    ('drop = ["pkg.api:g"]\n', ("pkg/_impl.py", "def g")),  # the spec withdraws one name of the API
])
def test_names_no_api_promises_still_go(tmp_path, extra, gone):
    fork = _shrink(tmp_path, extra)
    path, text = gone
    assert text not in (fork / path).read_text()
    assert "def area" in (fork / "pkg/shapes/circle.py").read_text()  # what kept code uses stays
