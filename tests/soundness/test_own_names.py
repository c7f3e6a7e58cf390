"""A module registers a submodule of its own by a name built from ``__name__`` (``f"{__name__}.ops"``,
``__package__ + ".impl_y"``, liger-kernel's hardware backends, or ``f"{_PACKAGE}.vendor_{v}.ops"`` with
``_PACKAGE = __name__.rsplit(".", 1)[0]``) and another module imports the registered names at run time. The
submodules must stay, with every name they define."""

from __future__ import annotations

from tests.soundness.soundkit import shrink_and_compare


def test_submodules_named_from_dunder_name_stay_whole(copy_fixture, tmp_path):
    project = copy_fixture("soundness", "ownnames")
    _, original, fork = shrink_and_compare(project, tmp_path / "fork")
    assert original.returncode == 0, original.stderr
    assert (fork.returncode, fork.stdout) == (0, original.stdout), fork.stderr[-2000:]
    ops = (tmp_path / "fork/src/ownnames/backends/_x/ops.py").read_text()
    assert "def impl" in ops and "def unused_here" in ops  # loaded by a computed import: no name goes
    assert "def impl" in (tmp_path / "fork/src/ownnames/vendor_z/ops.py").read_text()
