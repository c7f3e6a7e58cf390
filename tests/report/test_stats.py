"""Before and after count a file the same way: a symlink inside the package (``alias.py -> core.py``) has no lines
of its own, though the index (which reads through it) knows its target's. A fork that removed nothing reported
"10% fewer Python lines" on a package with one such link."""

from __future__ import annotations

import os

from slimfork.api import shrink


def test_a_symlinked_module_counts_the_same_before_and_after(tmp_path):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("from . import core, alias\n")
    (root / "pkg" / "core.py").write_text("def add(a, b):\n    return a + b\n")
    os.symlink("core.py", root / "pkg" / "alias.py")
    (root / "slimfork.toml").write_text('source = "."\nroots = ["pkg.**"]\ntests = []\n')
    data = shrink(root / "slimfork.toml", tmp_path / "fork", verify=False).data
    assert (tmp_path / "fork" / "pkg" / "alias.py").is_symlink()
    assert data["before"]["by_language"]["Python"] == data["after"]["by_language"]["Python"]
    assert data["reduction"]["python_lines"] == 0
