"""jaraco.classes 3.4.0's only tests are its docstrings' examples (``pytest.ini``: ``addopts=--doctest-modules``,
no tests folder): the draft said "no tests folder found", drafted no pytest, and the checked run ran no test. It
now suggests the package folders as the pytest check's selection, and the test extra for the checks' venv."""

from __future__ import annotations

import json
import re

from slimfork.cli import main

FILES = {
    "src/ns/pkg/__init__.py": 'def double(x):\n    """\n    >>> double(2)\n    4\n    """\n    return 2 * x\n',
    "src/ns/pkg/more.py": "X = 1\n",
    "pytest.ini": "[pytest]\naddopts=--doctest-modules\n",
    "setup.cfg": "[metadata]\nname = ns.pkg\n[options.extras_require]\ntesting =\n    pytest >= 6\n",
}


def _project(root, files):
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_a_doctest_only_project_gets_its_packages_as_the_pytest_selection(tmp_path, capsys):
    root = _project(tmp_path / "p", FILES)
    draft = tmp_path / "spec.toml"
    assert main(["init", str(root), "--out", str(draft), "--json"]) == 0
    assert "pytest >= 6" in json.loads(capsys.readouterr().out)["verify"]["requirements"]
    text = draft.read_text()
    assert '# [checks.pytest]\n# tests = ["src/ns"]\n' in text
    accepted = tmp_path / "accepted.toml"
    accepted.write_text(re.sub(r"^# \[verify\]\n# requirements = .*\n", "", text, flags=re.M).replace(
        "# [checks.pytest]\n# tests", "[checks.pytest]\ntests"))
    capsys.readouterr()
    assert main(["plan", str(accepted), "--json"]) == 0
    json.loads(capsys.readouterr().out)
    fork = tmp_path / "fork"
    assert main(["shrink", str(accepted), "--out", str(fork), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    pytest_baseline = next(b for b in report["batches"]["baselines"] if b["check"] == "pytest")
    assert pytest_baseline["usable"] and "1 of 1 tests pass in the original" in pytest_baseline["note"], \
        pytest_baseline


def test_without_doctest_modules_no_suggestion(tmp_path):
    root = _project(tmp_path / "p", {**FILES, "pytest.ini": "[pytest]\n"})
    draft = tmp_path / "spec.toml"
    assert main(["init", str(root), "--out", str(draft)]) == 0
    assert "[checks.pytest]" not in draft.read_text()


def test_a_single_module_is_its_own_selection(tmp_path):
    root = _project(tmp_path / "p", {"single.py": 'def one():\n    """\n    >>> one()\n    1\n    """\n    return 1\n',
                                     "tox.ini": "[pytest]\naddopts = --doctest-modules -q\n"})
    draft = tmp_path / "spec.toml"
    assert main(["init", str(root), "--out", str(draft)]) == 0
    assert '# [checks.pytest]\n# tests = ["single.py"]\n' in draft.read_text()
