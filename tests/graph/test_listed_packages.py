"""A package the build configuration lists by name (``setup(packages=["pk"])``) must exist for the fork to
install; when a root lies inside it, the fork keeps it as that root's parent, so it is no root itself and its
package API follows ``[symbols]`` (ecdsa 0.19.0: ``packages=["ecdsa"]`` kept every module ``ecdsa/__init__.py``
imports for the root ``ecdsa.eddsa``, even with ``package_api = false``). A listed regular package no root lies in
is no root either where every build file that lists it can lose the entry (session 41, source/listed_cuts.py): the
fork removes it when nothing kept reaches it, and its entry leaves the list in a first batch (dramatiq, mutagen).
Where the list cannot be cut (computed, or an implicit namespace package) it stays a root: the fork does not
install without its folder."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\n\nsetup(name='pk', packages=['pk', 'pk.extras'])\n",
    "pk/__init__.py": "from pk.small import f\nfrom pk.big import g\n",
    "pk/small.py": "def f():\n    return 1\n",
    "pk/big.py": "def g():\n    return 2\n",
    "pk/extras/__init__.py": "def h():\n    return 3\n",
}
SPEC = 'source = "."\nroots = ["pk.small"]\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def test_a_listed_package_above_a_root_is_no_root(tmp_path):
    analysis = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml", jobs=1)
    roots = {r.module for r in analysis.graph.roots}
    removed = {r.path for r in analysis.plan.removals}
    assert "pk/__init__.py" not in removed and "pk/small.py" not in removed
    assert "pk/extras/__init__.py" in removed  # listed, nothing kept reaches it: the list loses it
    assert "pk" not in roots and "pk.extras" not in roots


def test_a_listed_package_a_computed_list_names_stays_a_root(tmp_path):
    files = {**FILES, "setup.py": "from setuptools import setup\n\nPKGS = ['pk', 'pk.extras']\n"
                                  "setup(name='pk', packages=PKGS + [])\n",
             "setup.cfg": "[options]\npackages =\n    pk\n    pk.extras\n"}
    analysis = analyse(write_project(tmp_path, files, SPEC) / "slimfork.toml", jobs=1)
    assert "pk.extras" in {r.module for r in analysis.graph.roots}  # setup.cfg lists it too: cut there, not in .py


def test_the_package_api_it_kept_goes(tmp_path):
    """Neither the package's root status nor the strings of ``setup(name="pk", packages=["pk"])`` (what setuptools
    copies, not a lookup by name) keep the names of ``pk/__init__.py``."""
    analysis = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml", jobs=1)
    removed = {r.path for r in analysis.plan.removals}
    assert "pk/big.py" in removed and "pk/__init__.py" not in removed and "pk/small.py" not in removed
