"""What the install check imports where the roots are globs: the packages, not a top-level tests package, which
no user installs (nameparser 2.6.0 with the drafted ``roots = ["nameparser.**"]``: the check imported ``tests``,
which failed in the installed original too, and the warning blamed a missing dependency named "tests")."""

from __future__ import annotations

from types import SimpleNamespace

from slimfork.verify.build import install_modules


def _spec(*roots):
    return SimpleNamespace(roots=[SimpleNamespace(kind=k, value=v) for k, v in roots])


def test_globs_import_the_packages_but_not_the_tests_package():
    source = SimpleNamespace(dist=None, packages=["pkg", "tests"])
    assert install_modules(_spec(("module", "pkg.**")), source) == ["pkg"]


def test_a_tests_package_alone_is_still_imported():
    source = SimpleNamespace(dist=None, packages=["tests"])
    assert install_modules(_spec(("module", "tests.**")), source) == ["tests"]


def test_named_roots_win():
    source = SimpleNamespace(dist=None, packages=["pkg", "tests"])
    assert install_modules(_spec(("module", "pkg.core")), source) == ["pkg.core"]


def test_a_globs_package_not_every_top_level_folder():
    """parse_type 0.6.6 with the drafted ``roots = ["parse_type.**"]``: the check imported its ``bin`` and ``tasks``
    folders too, which the build does not install, and the hint said to add what provides them."""
    source = SimpleNamespace(dist=None, packages=["parse_type", "bin", "tasks"])
    assert install_modules(_spec(("glob", "parse_type.**")), source) == ["parse_type"]
    assert install_modules(_spec(("glob", "pkg.sub.*"), ("glob", "*")), source) == ["pkg.sub"]
    assert install_modules(_spec(("glob", "*")), source) == ["parse_type", "bin", "tasks"]
