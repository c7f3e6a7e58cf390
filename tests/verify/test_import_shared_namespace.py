"""A ``*-nspkg.pth`` of an installed distribution that shares the tree's namespace package makes the package when
Python starts, with only site-packages' folder on its ``__path__``: PasteDeploy 2.1.1 beside Paste 3.10.1, whose
``paste`` held no ``deploy``, so 7 of its 16 modules "did not import in the original" and the import check verified
the rest. The import check puts the tree's folder first on such a package's path, as the tree's own ``.pth``
would once installed (a ``sitecustomize.py`` stands in for the ``.pth`` here: both run at start-up)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from slimfork.verify import importer

# what setuptools writes in Paste-3.10.1-py3.12-nspkg.pth (``sitedir`` is this file's folder here), and the older
# form that makes a plain module
NSPKG = ("import sys, types, os;p = os.path.join(os.path.dirname(__file__), 'paste');"
         "importlib = __import__('importlib.util');__import__('importlib.machinery');"
         "m = sys.modules.setdefault('paste', importlib.util.module_from_spec("
         "importlib.machinery.PathFinder.find_spec('paste', [os.path.dirname(p)])));"
         "m = m or sys.modules.setdefault('paste', types.ModuleType('paste'));"
         "mp = (m or []) and m.__dict__.setdefault('__path__',[]);(p not in mp) and mp.append(p)\n")
PLAIN = ("import sys, types, os\n"
         "m = sys.modules.setdefault('paste', types.ModuleType('paste'))\n"
         "m.__dict__.setdefault('__path__', []).append(os.path.join(os.path.dirname(__file__), 'paste'))\n")


@pytest.mark.parametrize(("fresh", "pth"), [(True, NSPKG), (False, NSPKG), (True, PLAIN), (False, PLAIN)])
def test_a_namespace_made_at_start_up_gets_the_trees_folder(tmp_path, fresh, pth):
    site = tmp_path / "site"
    (site / "paste" / "fixture.py").parent.mkdir(parents=True)
    (site / "paste" / "fixture.py").write_text("X = 1\n")
    (site / "sitecustomize.py").write_text(pth)
    root = tmp_path / "tree"
    (root / "src" / "paste" / "deploy").mkdir(parents=True)
    (root / "src" / "paste" / "__init__.py").write_text("__import__('pkgutil').extend_path(__path__, __name__)\n")
    (root / "src" / "paste" / "deploy" / "__init__.py").write_text("from paste import fixture\n")
    work = tmp_path / "work"
    work.mkdir()
    env = {"PYTHONPATH": f"{root / 'src'}:{site}", "PATH": "/usr/bin:/bin"}
    raw = importer.import_modules(Path(sys.executable), env, root, ["paste.deploy"], 1, 20, (), work, fresh=fresh)
    assert raw[0].data["ok"], raw[0].data
    assert "src/paste/deploy/__init__.py" in raw[0].data["loaded"]
