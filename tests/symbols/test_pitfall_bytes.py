"""Pitfalls 25 and 26 (docs/pitfalls.md) for the other rewriter, symbol pruning, through `shrink`: the fold's
fixtures cover folding; here unused definitions are pruned from files with a BOM and a coding line, CRLF or
bare-CR line endings, and `# noqa` / `# type:` comments, and every byte outside the removed statements stays."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink

SPEC = b'source = "."\npackages = ["pkg"]\nroots = ["pkg.cli"]\n\n[symbols]\npublic_api = "roots"\n'
BOM_CRLF = (b'\xef\xbb\xbf# -*- coding: utf-8 -*-\r\n"""Windows-edited module."""\r\n\r\n\r\n'
            b'def used():  # noqa: D103\r\n    value = []  # type: list[int]\r\n    return len(value) + 1\r\n\r\n\r\n'
            b'def unused():\r\n    return 2\r\n')
CR_ONLY = b'def used():\r    return 1  # type: int\r\r\rdef unused():\r    return 2\r\r\rLAST = 3  # noqa\r'
EXPECTED = {
    "pkg/bom_crlf.py": BOM_CRLF[:BOM_CRLF.index(b"def unused")],  # the last statement goes
    "pkg/cr_only.py": CR_ONLY.replace(b"def unused():\r    return 2\r\r\r", b""),  # its blank lines go with it
}


def test_pitfalls_25_26_pruning_keeps_bom_coding_line_endings_and_comments(tmp_path):
    root = tmp_path / "proj"
    files = {"pkg/__init__.py": b"", "pkg/bom_crlf.py": BOM_CRLF, "pkg/cr_only.py": CR_ONLY,
             "pkg/cli.py": b"from pkg.bom_crlf import used\nfrom pkg.cr_only import LAST, used as used2\n\n"
                           b"print(used(), used2(), LAST)\n", "slimfork.toml": SPEC}
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    fork = tmp_path / "fork"
    result = shrink(root / "slimfork.toml", out=fork, jobs=1)
    assert result.apply.restored == []
    for rel, expected in EXPECTED.items():
        assert (fork / rel).read_bytes() == expected, rel
    done = subprocess.run([sys.executable, "-m", "pkg.cli"], cwd=fork, capture_output=True, text=True)
    assert done.stdout == "1 1 3\n", done.stderr
