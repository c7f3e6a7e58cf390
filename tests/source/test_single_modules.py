"""A project whose code is one or more top-level modules (``six.py``; flit's ``name.py``; setuptools'
``py_modules``), possibly beside packages or under ``src/``: slimfork finds, plans, shrinks, drafts and audits it.
Before session 33 it refused such a project: "no Python package found"."""

from __future__ import annotations

import json
import subprocess
import sys

from slimfork.cli import main
from slimfork.source.layout import open_tree
from slimfork.source.test_folders import find_test_folders


def _write(root, files):
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


_FLIT = '[build-system]\nrequires = ["flit_core"]\nbuild-backend = "flit_core.buildapi"\n\n' \
        '[project]\nname = "one-mod"\nversion = "1.0"\n'

_ONE = {
    "pyproject.toml": _FLIT,
    "setup.py": 'from setuptools import setup\nsetup(name="one_mod", py_modules=["one_mod", "_one_helpers", '
                '"old_helpers"])\n',
    "one_mod.py": '"""A one-file library."""\nimport _one_helpers\n\n__all__ = ["shout", "whisper"]\n\n\n'
                  'def shout(s):\n    return _one_helpers.upper(s) + "!"\n\n\n'
                  'def whisper(s):\n    return s.lower()\n\n\ndef _unused_private():\n    return 1\n',
    "_one_helpers.py": "def upper(s):\n    return s.upper()\n",
    "old_helpers.py": "def old():\n    return 2\n",
    "conftest.py": "",
    "noxfile.py": "import nox\n",
    "test_one_mod.py": 'import one_mod\n\n\ndef test_shout():\n    assert one_mod.shout("a") == "A!"\n',
    "tests/test_old.py": "import old_helpers\n\n\ndef test_old():\n    assert old_helpers.old() == 2\n",
}


def test_single_modules_are_the_packages_of_the_tree(tmp_path):
    _write(tmp_path, _ONE)
    assert open_tree(tmp_path).packages == ["_one_helpers", "old_helpers", "one_mod"]
    flit = tmp_path / "flit"  # flit installs the module named after the distribution, nothing else
    _write(flit, {"pyproject.toml": _FLIT, "one_mod.py": "X = 1\n", "bench.py": "import one_mod\n",
                  "test_one_mod.py": "import one_mod\n", "documentation/conf.py": "project = 'one-mod'\n"})
    assert open_tree(flit).packages == ["one_mod"]  # six's documentation/conf.py is no namespace package


def test_a_src_layout_mixes_packages_and_modules(tmp_path):
    _write(tmp_path, {"setup.py": 'from setuptools import setup\nsetup(py_modules=["_ver"])\n',
                      "src/pkg/__init__.py": "from _ver import V\n", "src/_ver.py": "V = 1\n",
                      "src/release_notes.py": "print(1)\n", "versioneer.py": ""})
    tree = open_tree(tmp_path)
    assert tree.python_root == tmp_path / "src" and tree.packages == ["_ver", "pkg"]
    loose = tmp_path / "loose"  # nothing declared, no package: every module but tests and build scripts
    _write(loose, {"lonely.py": "X = 1\n", "setup.py": "", "test_lonely.py": ""})
    assert open_tree(loose).packages == ["lonely"]


def test_top_level_test_modules_are_tests():
    assert find_test_folders(["test_six.py", "tests.py", "src/test_te.py", "conftest.py", "pkg/test_x.py",
                              "tests/test_a.py", "six.py"]) == ["src/test_te.py", "test_six.py", "tests", "tests.py"]


def test_shrink_removes_unused_modules_their_tests_and_private_names(tmp_path):
    _write(tmp_path / "proj", _ONE)
    spec = tmp_path / "s.toml"
    spec.write_text('source = "proj"\nroots = ["one_mod:shout"]\n\n[symbols]\n')
    assert main(["shrink", str(spec), "--no-verify", "--out", str(tmp_path / "fork"), "--no-progress"]) == 0
    fork = tmp_path / "fork"
    assert sorted(p.name for p in fork.glob("*.py")) == ["_one_helpers.py", "conftest.py", "noxfile.py", "one_mod.py",
                                                         "setup.py", "test_one_mod.py"]
    assert not (fork / "tests/test_old.py").exists()
    text = (fork / "one_mod.py").read_text()
    assert "def whisper" in text and "_unused_private" not in text  # a public name of a kept module stays
    report = json.loads((tmp_path / "fork.report/report.json").read_text())
    reasons = {r["path"]: r["reason"] for r in report["removed"]}
    assert "only imported by modules that are not kept" in reasons["old_helpers.py"]
    assert "old_helpers" in reasons["tests/test_old.py"]
    assert [(p["names"], p["reason"]) for p in report["symbols"]["pruned"]] == [
        (["_unused_private"], "no kept code references it")]
    done = subprocess.run([sys.executable, "-c", "import one_mod; print(one_mod.shout('a'))"], cwd=fork,
                          capture_output=True, text=True)
    assert done.stdout.strip() == "A!", done.stderr


def test_init_drafts_module_roots_and_audit_reads_the_module(tmp_path, capsys):
    _write(tmp_path / "proj", _ONE)
    assert main(["init", str(tmp_path / "proj"), "--out", str(tmp_path / "d.toml"), "--no-progress"]) == 0
    draft = tmp_path.joinpath("d.toml").read_text()
    assert 'roots = ["old_helpers", "one_mod"]' in draft and 'tests = ["test_one_mod.py", "tests"]' in draft
    capsys.readouterr()
    main(["audit", str(tmp_path / "proj"), "--no-progress", "--json"])
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert any("_unused_private" in json.dumps(f) for f in findings)
