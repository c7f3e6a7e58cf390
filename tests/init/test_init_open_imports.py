"""A module that imports a name computed entirely at run time (``load(sys.argv[1])``) keeps every module nothing in
the project imports or names (graph/open_imports.py): the draft says which and how many lines, and suggests
``outside_imports`` for when those names come from outside the project; accepted, the plan lets them go."""

from __future__ import annotations

import json

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pkg/__init__.py": "",
    "pkg/main.py": "import importlib\n\n\ndef load(name):\n    return importlib.import_module(name)\n",
    "pkg/extra.py": "X = 1\n",
    "tests/test_main.py": "import pkg.main\n",
}


def test_the_draft_suggests_outside_imports_and_accepted_it_lets_the_loose_modules_go(tmp_path, capsys):
    from slimfork.cli import main

    project = write_project(tmp_path, FILES, "")
    (project / "slimfork.toml").unlink()
    draft = tmp_path / "d.toml"
    assert main(["init", str(project), "--out", str(draft), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["open_imports"] == [{"path": "pkg/main.py", "line": 5, "call": "importlib.import_module(name)",
                                     "keeps": ["pkg.extra"]}]
    text = draft.read_text()
    assert "keep the module nothing in the project" in text and '# outside_imports = ["pkg.main"]' in text
    spec = tmp_path / "s.toml"
    spec.write_text(f'source = "{project}"\nroots = ["pkg.main"]\n')
    assert "pkg.extra" in analyse(spec, jobs=1).graph.reached
    spec.write_text(text.replace('# outside_imports', 'outside_imports').replace('roots = ["pkg.**"]',
                                                                                'roots = ["pkg.main"]'))
    assert "pkg.extra" not in analyse(spec, jobs=1).graph.reached
