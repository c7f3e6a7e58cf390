"""A project whose tests are one file at the top (texttable 1.7.2's ``tests.py``, pygtrie 2.6.2's ``test.py``,
``tests = ["tests.py"]`` as ``slimfork init`` drafts it) is checked against it: pytest collects a file it is given
whatever its name. Before, only tests folders became the default pytest check, and such a project's checked run
verified no test, silently."""

from __future__ import annotations

import json

from slimfork.cli import main

FILES = {
    "tm.py": "def add(a, b):\n    return a + b\n\n\ndef unused():\n    return 1\n",
    "tests.py": "from tm import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
    "slimfork.toml": 'source = "."\nroots = ["tm:add"]\ntests = ["tests.py"]\nout = "../fork"\n',
}


def test_a_tests_file_runs_as_the_pytest_check(tmp_path):
    for rel, text in FILES.items():
        (tmp_path / "p" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "p" / rel).write_text(text)
    assert main(["shrink", str(tmp_path / "p" / "slimfork.toml"), "--no-progress", "--jobs", "1"]) == 0
    report = json.loads((tmp_path / "fork.report" / "report.json").read_text())
    pytest = [b for b in report["batches"]["baselines"] if b["check"] == "pytest"]
    assert pytest and pytest[0]["usable"], report["batches"]["baselines"]
    assert (tmp_path / "fork" / "tests.py").is_file()
