"""Kept code that reads the distribution's own version may parse it (``tuple(int(p) for p in
version("pkg").split("."))``, imported lazily where no check imports it): without a ``version_suffix`` the fork
keeps the original's version and says why; with one, the suffix is added as asked."""

from __future__ import annotations

import pytest

from slimfork.api import analyse
from slimfork.apply.batches import build_batches
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "meta-pkg"\nversion = "1.4.2"\n',
    "src/meta_pkg/__init__.py": "",
    "src/meta_pkg/api.py": "def version_info():\n    from meta_pkg import compat\n\n    return compat.VERSION_INFO\n",
    "src/meta_pkg/compat.py": "from importlib.metadata import version\n\n"
                              "VERSION_INFO = tuple(int(p) for p in version('meta-pkg').split('.'))\n",
}


def _packaging(root):
    analysis = analyse(root / "slimfork.toml", jobs=1)
    batch = next((b for b in build_batches(analysis, analysis.stages) if b.name == "packaging"), None)
    return batch, analysis.plan.warnings


def test_code_reading_its_own_version_keeps_the_original_version(tmp_path):
    batch, warnings = _packaging(write_project(tmp_path, FILES, 'source = "."\nroots = ["meta_pkg.api"]\n'))
    assert batch is None
    assert any(w.startswith("src/meta_pkg/compat.py:3 reads the distribution's own version") for w in warnings)


def test_an_explicit_suffix_is_added(tmp_path):
    spec = 'source = "."\nroots = ["meta_pkg.api"]\nversion_suffix = "+slim"\n'
    batch, _ = _packaging(write_project(tmp_path, FILES, spec))
    assert batch is not None and 'version = "1.4.2+slim"' in batch.edits[0].content.decode()


@pytest.mark.parametrize("reader", [
    "version(__name__)",                              # the import name is the distribution's (verpkg)
    "version(__package__)",
    "version(__spec__.parent)",
    "version(_meta.DIST)",                            # DIST = "meta-pkg" in another kept module
])
def test_own_version_read_by_a_name_the_module_holds(tmp_path, reader):
    files = dict(FILES)
    files["src/meta_pkg/_meta.py"] = 'DIST = "meta-pkg"\n'
    files["src/meta_pkg/compat.py"] = ("from importlib.metadata import version\n\nfrom meta_pkg import _meta\n\n"
                                       f"VERSION_INFO = tuple(int(p) for p in {reader}.split('.'))\n")
    batch, warnings = _packaging(write_project(tmp_path, files, 'source = "."\nroots = ["meta_pkg.api"]\n'))
    assert batch is None
    assert any(w.startswith("src/meta_pkg/compat.py:5 reads the distribution's own version") for w in warnings)


def test_another_distributions_version_keeps_the_suffix(tmp_path):
    files = dict(FILES)
    files["src/meta_pkg/compat.py"] = ("from importlib.metadata import version\n\nOTHER = 'packaging'\n\n"
                                       "VERSION_INFO = tuple(int(p) for p in version(OTHER).split('.'))\n")
    batch, _ = _packaging(write_project(tmp_path, files, 'source = "."\nroots = ["meta_pkg.api"]\n'))
    assert batch is not None and 'version = "1.4.2+slimfork"' in batch.edits[0].content.decode()


@pytest.mark.parametrize("header, reader", [
    ("from importlib.metadata import version as _v", "_v('meta-pkg')"),          # an alias of the function
    ("import importlib.metadata as md", "md.version(__spec__.name)"),            # the module's alias, the spec's name
    ("from importlib import metadata\nPKG = __package__", "metadata.version(PKG)"),  # a name bound to no string
    ("from importlib.metadata import distributions",                             # every distribution, filtered
     "next(d.version for d in distributions() if d.metadata['Name'] == 'meta-pkg')"),
    ("import pkg_resources", "pkg_resources.require('meta-pkg>=1')[0].version"),
])
def test_own_version_read_through_any_binding(tmp_path, header, reader):
    files = dict(FILES)
    files["src/meta_pkg/compat.py"] = f"{header}\n\nVERSION_INFO = tuple(int(p) for p in {reader}.split('.'))\n"
    batch, warnings = _packaging(write_project(tmp_path, files, 'source = "."\nroots = ["meta_pkg.api"]\n'))
    assert batch is None
    assert any(w.startswith("src/meta_pkg/compat.py:") and "reads the distribution's own version" in w
               for w in warnings)


def test_a_kept_test_comparing_the_pyproject_version_keeps_it(tmp_path):
    """A test of kept code that reads pyproject.toml's version and compares it with ``__version__``."""
    files = dict(FILES)
    files["src/meta_pkg/__init__.py"] = "__version__ = '1.4.2'\n"
    files["src/meta_pkg/compat.py"] = "VERSION_INFO = (1, 4, 2)\n"
    files["tests/test_version.py"] = ("import pathlib, tomllib\n\nimport meta_pkg\n\n\ndef test_version():\n"
                                      "    text = (pathlib.Path(__file__).parents[1] / 'pyproject.toml').read_text()\n"
                                      "    assert tomllib.loads(text)['project']['version'] == meta_pkg.__version__\n")
    batch, warnings = _packaging(write_project(tmp_path, files, 'source = "."\nroots = ["meta_pkg.api"]\n'))
    assert batch is None
    assert any(w.startswith("tests/test_version.py:7 reads the distribution's own version") for w in warnings)


def test_a_docs_conf_reading_the_version_does_not_drop_the_suffix(tmp_path):
    """hupper 1.12.1, zope.event 5.0, plaster 1.1.2: Sphinx's ``docs/conf.py`` reads the version to show it, and the
    fork kept the original's version with a warning; no user of the fork runs it."""
    files = {**FILES, "src/meta_pkg/compat.py": "VERSION_INFO = (1, 4, 2)\n",
             "docs/conf.py": "from importlib.metadata import version\n\nrelease = version('meta-pkg')\n"}
    batch, warnings = _packaging(write_project(tmp_path, files, 'source = "."\nroots = ["meta_pkg.api"]\n'))
    assert batch is not None and 'version = "1.4.2+slimfork"' in batch.edits[0].content.decode()
    assert not any("reads the distribution's own version" in w for w in warnings)
