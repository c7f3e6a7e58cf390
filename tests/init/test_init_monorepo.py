"""A monorepo (hatch's checkout: ``src/hatch`` at the top, ``backend/`` with its own pyproject.toml for hatchling):
the draft forks the top distribution and said nothing of the others, so a newcomer could not tell why hatchling's
modules were no roots. It names each folder below the top with a build file of its own (tests, docs and examples
aside), and ``--json`` lists them."""

from __future__ import annotations

import json

from slimfork.cli import main

FILES = {
    "pyproject.toml": '[project]\nname = "front"\nversion = "1"\n',
    "src/front/__init__.py": "",
    "backend/pyproject.toml": '[project]\nname = "back"\nversion = "1"\n',
    "backend/src/back/__init__.py": "",
    "plugins/extra/setup.py": "from setuptools import setup\nsetup(name='extra')\n",
    "plugins/extra/extra/__init__.py": "",
    "tests/fixtures/proj/pyproject.toml": '[project]\nname = "fixture"\nversion = "1"\n',
    "tests/test_front.py": "def test_x():\n    pass\n",
    "docs/example/setup.py": "",
}


def test_the_draft_names_the_other_distributions_of_the_tree(tmp_path, capsys):
    for rel, text in FILES.items():
        (tmp_path / "repo" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "repo" / rel).write_text(text)
    assert main(["init", str(tmp_path / "repo"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["other_distributions"] == ["backend", "plugins/extra"]
    assert "own build file: backend, plugins/extra;" in data["spec"]
    assert main(["init", str(tmp_path / "repo" / "backend"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["other_distributions"] == []
