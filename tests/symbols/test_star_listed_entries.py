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
