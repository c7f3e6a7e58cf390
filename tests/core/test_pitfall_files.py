"""Pitfall 29 (docs/pitfalls.md) through the whole pipeline: a "temp file and rename" write loses a file's mode,
and an in-place edit writes through a hard link or a symlink into the source. `shrink` folds a fact in an
executable script that has a hard link and a symlink beside it: the fork's folded script keeps its mode, the
symlink stays a symlink, and the source (both names of the hard link included) is not touched."""

from __future__ import annotations

import os
import stat

from tests.mapping.registrykit import write_project

from slimfork.api import shrink

FILES = {
    "pkg/__init__.py": "",
    "pkg/plat.py": "import os\n\n\ndef is_hip():\n    return os.environ.get('DEVICE') == 'rocm'\n",
    "pkg/tool.py": """
        #!/usr/bin/env python
        from pkg.plat import is_hip

        if is_hip():
            print("rocm")
        else:
            print("cuda")
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.tool"]

[facts]
functions = { "pkg.plat.is_hip" = false }
"""


def _state(root):
    """Every entry of a tree: kind, bytes or link target, permission bits, inode."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            full = os.path.join(dirpath, name)
            st = os.lstat(full)
            body = os.readlink(full) if stat.S_ISLNK(st.st_mode) else open(full, "rb").read()
            out[os.path.relpath(full, root)] = (stat.S_IFMT(st.st_mode), body, stat.S_IMODE(st.st_mode), st.st_ino)
    return out


def test_pitfall_29_a_folded_file_keeps_its_mode_and_links_stay_links(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    os.chmod(root / "pkg/tool.py", 0o755)
    os.link(root / "pkg/tool.py", root / "tool_hardlink.py")
    os.symlink("pkg/tool.py", root / "tool_link.py")
    before = _state(root)

    result = shrink(root / "slimfork.toml", out=tmp_path / "fork", jobs=1)

    fork = tmp_path / "fork"
    folded = (fork / "pkg/tool.py").read_text()
    assert "rocm" not in folded and 'print("cuda")' in folded  # the fact was folded: this file was rewritten
    assert result.apply.restored == []
    assert stat.S_IMODE(os.lstat(fork / "pkg/tool.py").st_mode) == 0o755
    assert os.path.islink(fork / "tool_link.py") and os.readlink(fork / "tool_link.py") == "pkg/tool.py"
    assert (fork / "tool_hardlink.py").read_bytes() == before["tool_hardlink.py"][1]  # a copy, not the fold's
    fork_inodes = {v[3] for rel, v in _state(fork).items() if not rel.startswith(".git")}
    assert not fork_inodes & {v[3] for v in before.values()}  # a copy shares no inode with the source
    assert _state(root) == before  # the source: same bytes, modes, links and inodes (still one hard link pair)
