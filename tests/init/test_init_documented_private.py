"""responses 0.26.3's README teaches ``from responses import _recorder``; the draft's roots took only the modules
with no part starting with '_', and the fork lost ``responses/_recorder.py`` (the tests alone reached it). A
private module the README shows users importing is a root of the draft, with the README's line."""

from __future__ import annotations

import json

from slimfork.cli import main

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='pkg', packages=['pkg'])\n",
    "pkg/__init__.py": "from pkg.core import get\n",
    "pkg/core.py": "def get():\n    return 1\n",
    "pkg/_recorder.py": "def record():\n    return 2\n",
    "pkg/_internal.py": "X = 3\n",
    "pkg/__main__.py": "print(1)\n",
    "tests/test_rec.py": "from pkg import _recorder\n\n\ndef test_r():\n    assert _recorder.record() == 2\n",
    "README.rst": "Usage::\n\n    from pkg import _recorder\n\n    @pkg._recorder.record\n    python -m pkg.__main__\n",
}


def test_a_private_module_the_readme_teaches_is_a_root(tmp_path, capsys):
    for rel, text in FILES.items():
        (tmp_path / "p" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "p" / rel).write_text(text)
    spec = tmp_path / "spec.toml"
    assert main(["init", str(tmp_path / "p"), "--out", str(spec)]) == 0
    text = spec.read_text()
    assert "## and the private modules the README shows users importing: pkg._recorder (README.rst:3)" in text
    assert main(["plan", str(spec), "--json"]) == 0
    removed = {r["path"] for r in json.loads(capsys.readouterr().out)["removed"]}
    assert "pkg/_recorder.py" not in removed and "pkg/_internal.py" in removed, removed
