"""A package ``__init__`` that re-exports its submodules with star imports and lists the names in a literal
``__all__`` (httpx 0.27.2: ``from ._api import *`` ... ``__all__ = ["get", "AsyncClient", ...]``): under
``package_api = false`` the list promises nothing, and an entry whose name only a star import binds leaves with
the name when no kept star import binds it any more (before, every such entry stayed and kept what it named:
httpx's ``_api`` and ``AsyncClient`` for a fork of ``httpx._client:Client``). An entry stays while a kept star
import's source still binds the name."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "sx"\nversion = "1.0"\n',
    "sx/__init__.py": 'from .a import *\nfrom .b import *\n\n__all__ = ["fa", "ga", "fb"]\n',
    "sx/a.py": '__all__ = ["fa", "ga"]\n\n\ndef fa():\n    return 1\n\n\ndef ga():\n    return 2\n',
    "sx/b.py": '__all__ = ["fb"]\n\n\ndef fb():\n    return 3\n',
    "sx/use.py": "import sx\n\n\ndef run():\n    return sx.ga()\n",
}
SPEC = '[symbols]\npublic_api = "roots"\npackage_api = false\n'


def _fork(tmp_path, roots):
    analysis = analyse(write_project(tmp_path, FILES, f'source = "."\nroots = {roots}\n' + SPEC) / "slimfork.toml",
                       jobs=1)
    return analysis, analysis.stages.symbols.contents.get("sx/__init__.py", b"").decode()


def test_entries_only_star_imports_bound_leave(tmp_path):
    analysis, init = _fork(tmp_path, '["sx.a:fa"]')
    assert "sx/b.py" in {r.path for r in analysis.plan.removals}
    assert "__all__ = []" in init and "import *" not in init


def test_an_entry_a_kept_star_import_binds_stays(tmp_path):
    analysis, init = _fork(tmp_path, '["sx.use:run"]')
    assert "sx/b.py" in {r.path for r in analysis.plan.removals}
    assert "from .a import *" in init and '"ga"' in init and '"fb"' not in init and '"fa"' not in init


def test_a_test_reading_the_package_namespace_leaves(tmp_path):
    """``vars(sx)`` in a test (httpx's ``test_exported_members.py``: ``httpx.__all__ == sorted(vars(httpx))``) reads
    every name the package binds, star-bound ones included: when the fork's ``__all__`` lists fewer, it leaves; a
    test of a kept name stays."""
    files = {**FILES, "tests/test_sx.py": "import sx\nfrom sx.a import fa\n\n\ndef test_api():\n"
                                          "    assert set(sx.__all__) <= set(vars(sx))\n    assert 'fb' in vars(sx)\n\n\n"
                                          "def test_fa():\n    assert fa() == 1\n"}
    spec = 'source = "."\nroots = ["sx.a:fa"]\ntests = ["tests"]\n' + SPEC
    analysis = analyse(write_project(tmp_path, files, spec) / "slimfork.toml", jobs=1)
    gone = {(r["path"], r["test"]): r["reason"] for r in analysis.stages.data["tests"]["removed"]}
    assert ("tests/test_sx.py", "test_api") in gone and ("tests/test_sx.py", "test_fa") not in gone
    assert "every name of sx" in gone[("tests/test_sx.py", "test_api")]


def test_the_listing_rule_alone(tmp_path):
    """The same with every submodule kept: only the fork's shorter ``__all__`` says that names are gone."""
    files = {**FILES, "sx/use.py": "from sx.b import fb\n\n\ndef run():\n    return fb()\n",
             "tests/test_sx.py": "import sx\n\n\ndef test_api():\n    assert 'ga' in vars(sx)\n"}
    spec = 'source = "."\nroots = ["sx.a:fa", "sx.use:run"]\ntests = ["tests"]\n' + SPEC
    analysis = analyse(write_project(tmp_path, files, spec) / "slimfork.toml", jobs=1)
    gone = {(r["path"], r["test"]): r["reason"] for r in analysis.stages.data["tests"]["removed"]}
    assert "no longer lists" in gone[("tests/test_sx.py", None)]  # its one test: the file goes
