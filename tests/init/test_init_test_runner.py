"""pep8-naming 0.15.1's tests run only through its ``run_tests.py`` (it checks each file of ``testsuite/`` with
flake8; no file pytest collects): the draft said "no tests folder found" and nothing else, so the checked run
verified the imports and the install alone. It now suggests the runner as a ``[[checks.command]]``."""

from __future__ import annotations

import json
import re

from slimfork.cli import main

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='naming', py_modules=['naming'])\n",
    "naming.py": "def check(text):\n    return 'class bad' in text\n",
    "run_tests.py": "import os\nimport sys\n\nimport naming\n\n\ndef main():\n"
                    "    bad = [n for n in os.listdir('cases_x') if not naming.check(open(f'cases_x/{n}').read())]\n"
                    "    sys.exit(1 if bad else 0)\n\n\nif __name__ == '__main__':\n    main()\n",
    "cases_x/N801.py": "class bad_name:\n    pass\n",
}


def _project(root, files):
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_a_top_level_test_runner_is_a_command_check(tmp_path, capsys):
    root = _project(tmp_path / "p", FILES)
    draft = tmp_path / "spec.toml"
    assert main(["init", str(root), "--out", str(draft)]) == 0
    text = draft.read_text()
    assert ('# [[checks.command]]\n# name = "run_tests.py"\n# argv = ["python", "run_tests.py"]\n# cwd = "."\n'
            '# match = "exit"\n') in text
    accepted = tmp_path / "accepted.toml"
    accepted.write_text(re.sub(r"^# (\[\[checks\.command\]\]|name = |argv = |cwd = |match = )", r"\1", text,
                               flags=re.M))
    capsys.readouterr()
    assert main(["shrink", str(accepted), "--out", str(tmp_path / "fork"), "--json"]) == 0
    baselines = json.loads(capsys.readouterr().out)["batches"]["baselines"]
    assert any(b["check"] == "command:run_tests.py" and b["usable"] for b in baselines), baselines


def test_with_tests_pytest_collects_no_runner_suggestion(tmp_path):
    root = _project(tmp_path / "p", {**FILES, "tests/test_naming.py": "def test_x():\n    pass\n"})
    draft = tmp_path / "spec.toml"
    assert main(["init", str(root), "--out", str(draft)]) == 0
    assert "[[checks.command]]" not in draft.read_text()
