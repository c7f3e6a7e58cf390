"""A file that does not parse or decode is kept as it is and warned about, whether a root reaches it or not: a
newcomer's root glob (``pkg.**``, what ``slimfork init`` drafts) reaches every module, and a reached file that
does not parse (a Python 2 module, a non-UTF-8 file with no coding line) used to pass without a word."""

from __future__ import annotations

from slimfork.api import analyse

FILES = {
    "pkg/__init__.py": "from . import broken, latin1\n",
    "pkg/broken.py": "def f(:\n    pass\n",
    "pkg/latin1.py": b'NAME = "caf\xe9"\n',  # no coding line: not UTF-8
    "pkg/coded.py": b'# -*- coding: latin-1 -*-\nNAME = "caf\xe9"\n',  # declared: parses
    "pkg/py2only.py": 'print "unreached"\n',
    "tests/test_py2.py": 'print "hello"\n',
}


def test_every_kept_file_that_does_not_parse_is_warned_about(tmp_path):
    root = tmp_path / "proj"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(text if isinstance(text, bytes) else text.encode())
    (root / "slimfork.toml").write_text('source = "."\nroots = ["pkg.**"]\n')
    warnings = analyse(root / "slimfork.toml").plan.warnings
    warned = {w.split(":")[0] for w in warnings}
    assert warned == {"pkg/broken.py", "pkg/latin1.py", "pkg/py2only.py", "tests/test_py2.py"}
    assert all("cannot" in w for w in warnings)
