"""`slimfork init` on a small project: what it detects, and a draft that `slimfork plan` accepts as written and
with its suggestions uncommented."""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from slimfork.cli import main
from slimfork.init.draft import draft_spec

FIXTURE = Path(__file__).parent / "fixtures" / "plat"


@pytest.fixture
def project(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "plat")
    return tmp_path / "plat"


def _draft(project, capsys) -> dict:
    assert main(["init", str(project), "--out", str(project.parent / "plat.toml"), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _uncomment(text: str) -> str:
    return re.sub(r"^# ", "", text, flags=re.M)  # what the draft's header says to do


def test_roots_tests_and_source(project, capsys):
    data = _draft(project, capsys)
    assert data["roots"] == ["script:*", "plat.**"]  # plat._impl is private: no root names it
    assert data["tests"] == ["tests"]
    spec = tomllib.loads(Path(data["out"]).read_text())
    assert spec["source"] == "plat" and spec["roots"] == data["roots"] and "facts" not in spec


def test_platform_facts_flags_and_predicates(project, capsys):
    facts = {f["name"]: f for f in _draft(project, capsys)["facts"]}
    assert facts["os_name"]["value"] == "posix" and facts["sys_platform"]["value"] == "linux"
    assert facts["platform_system"]["value"] == "Linux"
    assert facts["plat.compat.WINDOWS"]["value"] is False and facts["plat.compat.WINDOWS"]["kind"] == "flag"
    assert len(facts["plat.compat.WINDOWS"]["uses"]) == 2  # compat.WINDOWS in cli.py, WINDOWS in DESKTOP
    assert facts["plat.compat.DESKTOP"]["value"] is False  # derived from two flags
    assert facts["plat.compat.is_windows"]["kind"] == "predicate" and facts["plat.compat.is_windows"]["value"] is False
    assert facts["plat.compat.is_linux"]["value"] is True
    assert facts["plat.compat.is_linux"]["uses"] == ["src/plat/cli.py:8"]
    assert facts["plat.compat.Host.is_windows"]["uses"] == ["src/plat/cli.py:17"]  # a class-level flag
    assert "plat.compat.CHANGING" not in facts and "plat.compat.unrelated" not in facts


def test_modules_only_dead_branches_import_are_suggested_drops(project, capsys):
    data = _draft(project, capsys)
    assert [(d["path"], d["imports"]) for d in data["drop"]] == [("src/plat/winonly.py", ["src/plat/compat.py:25"])]
    # plat.named: a string names it (unknown means keep); plat.posixonly: imported in the arm Linux runs
    assert re.search(r'^# drop = \["src/plat/winonly.py"\]$', Path(data["out"]).read_text(), re.M)


def test_registries_with_lines(project, capsys):
    regs = {(r["kind"], r["package"]): r for r in _draft(project, capsys)["registries"]}
    assert regs[("scan", "plat.backends")]["entries"] == {"alpha": 2, "beta": 5, "gamma": 2}
    assert regs[("dict", "plat.registry.BACKENDS")]["entries"] == {"alpha": 2, "beta": 5}
    assert regs[("decorator", "plat.registry.handler")]["entries"] == {"json": 3, "yaml": 4}
    assert regs[("call", "plat.registry.register")]["entries"] == {"csv": 2, "xml": 5}
    subclass = regs[("subclass", "plat.registry.Plugin")]
    assert subclass["entries"] == {"First": 2, "Second": 3}
    assert subclass["variable"] == "names" and subclass["keys"] == {"First": ["first", "one"], "Second": ["second"]}
    assert len(regs) == 5


def test_draft_is_commented_and_plan_accepts_it_as_written_and_uncommented(project, capsys, tmp_path):
    data = _draft(project, capsys)
    text = Path(data["out"]).read_text()
    assert re.search(r'^# "plat.compat.is_windows" = false +## 1 use: src/plat/cli.py:6$', text, re.M)
    assert re.search(r'^# os_name = "posix" +## 3 uses: src/plat/compat.py:5, src/plat/compat.py:24, src/plat/compat.py:32$', text, re.M)
    assert re.search(r"^## scan registry at src/plat/backends/__init__.py:4: 3 entries, 9 lines$", text, re.M)
    assert re.search(r'^#   "beta", +## 5 lines$', text, re.M)
    assert re.search(r'^# kind = "subclasses"\n# variable = "names" .*\n# keep = \[\n#   "First", +## 2 lines; names: '
                     r'first, one$', text, re.M)
    assert main(["plan", data["out"], "--no-progress"]) == 0
    capsys.readouterr()
    accepted = tmp_path / "accepted.toml"
    accepted.write_text(_uncomment(text))
    spec = tomllib.loads(accepted.read_text())
    assert spec["facts"]["os_name"] == "posix" and spec["facts"]["functions"]["plat.compat.is_windows"] is False
    assert {r["package"] for r in spec["registries"]} >= {"plat.backends", "plat.registry.BACKENDS"}
    assert main(["plan", str(accepted), "--json"]) == 0
    removed = {r["path"] for r in json.loads(capsys.readouterr().out)["removed"]}
    assert "src/plat/_impl/tool.py" in removed  # private and unreached
    assert "src/plat/backends/gamma.py" not in removed  # every key stays until the user deletes some
    assert "src/plat/winonly.py" in removed and "src/plat/posixonly.py" not in removed
    # the subclasses suggestion accepted with a key deleted: that subclass leaves the fork
    cut = accepted.read_text().replace('  "Second",', "")
    assert cut != accepted.read_text()
    accepted.write_text(cut)
    assert main(["shrink", str(accepted), "--out", str(tmp_path / "fork"), "--no-verify", "--json"]) == 0
    capsys.readouterr()
    registry = (tmp_path / "fork/src/plat/registry.py").read_text()
    assert "class First(Plugin)" in registry and "class Second" not in registry


def test_no_such_folder_is_exit_2(tmp_path, capsys):
    assert main(["init", str(tmp_path / "nope")]) == 2
    assert "error: source:" in capsys.readouterr().err


def test_sdist_with_a_dynamic_version_takes_it_from_pkg_info(tmp_path):
    from slimfork.source.layout import read_distribution

    (tmp_path / "pyproject.toml").write_text('[project]\nname = "dyn"\ndynamic = ["version"]\n')
    (tmp_path / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: dyn\nVersion: 0.4.6\n")
    assert read_distribution(tmp_path).version == "0.4.6"  # the corpus pins the project at it: "dyn==" fails
