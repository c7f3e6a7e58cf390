"""Every kept file has a typed kind and a confidence, its reason text is rendered from them in one place, and the
reports (plan --json, report.md, why --json) carry them."""

from __future__ import annotations

import json

from tests.mapping.registrykit import write_project

from slimfork.api import analyse
from slimfork.cli import main
from slimfork.decisions import KEPT_CONFIDENCE, Kept, KeptKind, Removal, RemovalKind, kept_reason

FILES = {
    "pkg/__init__.py": "",
    "pkg/cli.py": "import importlib\nfrom pkg import core\nimportlib.import_module('pkg.dyn')\n",
    "pkg/core.py": "X = 1\n",
    "pkg/dyn.py": "Y = 2\n",
    "pkg/broken.py": "def f(:\n",
    "pkg/extra/keepme.py": "Z = 3\n",
    "pkg/extra/__init__.py": "",
    "pkg/gone.py": "W = 4\n",
    "data/table.csv": "a,b\n",
}
SPEC = 'source = "."\nroots = ["pkg.cli"]\nkeep = ["pkg/extra/keepme.py"]\n'


def _kept(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    return root, {k.path: k for k in analyse(root / "slimfork.toml").plan.kept}


def test_each_kept_file_has_its_kind_and_confidence(tmp_path):
    _, kept = _kept(tmp_path)
    kinds = {path: k.kind for path, k in kept.items()}
    assert kinds["pkg/cli.py"] == KeptKind.ROOT
    assert kinds["pkg/core.py"] == KeptKind.IMPORTED
    assert kinds["pkg/__init__.py"] == KeptKind.PARENT
    assert kinds["pkg/dyn.py"] == KeptKind.DYNAMIC
    assert kinds["pkg/broken.py"] == KeptKind.UNPARSABLE
    assert kinds["pkg/extra/keepme.py"] == KeptKind.KEEP_GLOB
    assert kinds["data/table.csv"] == KeptKind.NON_PYTHON
    assert "pkg/gone.py" not in kept
    assert kept["pkg/core.py"].confidence == 100
    assert kept["pkg/dyn.py"].confidence < 100 and kept["pkg/broken.py"].confidence < kept["pkg/dyn.py"].confidence


def test_reason_text_is_rendered_from_the_kind(tmp_path):
    _, kept = _kept(tmp_path)
    assert kept["pkg/core.py"].reason.startswith("imported by pkg.cli (pkg/cli.py:2)")
    assert kept["pkg/extra/keepme.py"].reason == "kept by keep[0] 'pkg/extra/keepme.py'"
    assert kept["data/table.csv"].reason == "non-Python file (kept unless dropped)"
    assert kept["pkg/broken.py"].reason.startswith("kept: ") and kept["pkg/broken.py"].reason.endswith(
        "(unknown means keep)")
    for k in kept.values():
        assert k.reason == kept_reason(k.kind, k.detail)


def test_every_kind_renders_and_has_a_confidence():
    for kind in KeptKind:
        text = kept_reason(kind, "DETAIL")
        assert text and "{" not in text
        assert 0 <= KEPT_CONFIDENCE[kind] <= 100
        assert Kept("p", None, kind).confidence == KEPT_CONFIDENCE[kind]
    assert Kept("p", None, KeptKind.ROOT, "r", confidence=40).confidence == 40
    assert Kept("p", None, "keep-glob", "x").kind is KeptKind.KEEP_GLOB  # a str of a known kind is accepted


def test_removals_have_a_confidence():
    for kind in RemovalKind:
        assert 0 < Removal(kind, "p", "why").confidence <= 100
    assert Removal(RemovalKind.DROPPED, "p", "why").confidence == 100
    assert Removal(RemovalKind.SYMBOL, "p", "why", confidence=55).confidence == 55


def test_reports_carry_kind_and_confidence(tmp_path, capsys):
    root, _ = _kept(tmp_path)
    spec = str(root / "slimfork.toml")
    assert main(["plan", spec, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    core = next(k for k in data["kept"] if k["path"] == "pkg/core.py")
    assert list(core)[:3] == ["path", "module", "reason"]  # the fields report.json always had come first
    assert core["kind"] == "imported" and core["confidence"] == 100
    assert all("confidence" in r for r in data["removed"])
    assert main(["why", spec, "pkg.dyn", "--json"]) == 0
    why = json.loads(capsys.readouterr().out)
    assert why["kind"] == "dynamic" and why["confidence"] == KEPT_CONFIDENCE[KeptKind.DYNAMIC]
    assert main(["why", spec, "pkg.gone", "--json"]) == 0
    why = json.loads(capsys.readouterr().out)
    assert why["kind"] == "unreachable" and not why["kept"]


def test_report_md_counts_kept_files_by_kind(tmp_path):
    from slimfork.report.markdown import summary_markdown

    _, kept = _kept(tmp_path)
    data = {"source": {"distribution": None, "spec": "s"}, "spec": "s", "out": "o",
            "reduction": {"python_lines": 0, "lines": 0, "files": 0}, "roots": [],
            "before": {"by_language": {}, "by_folder": {}, "files": 0, "lines": 0},
            "after": {"by_language": {}, "by_folder": {}, "files": 0, "lines": 0},
            "removed": [], "kept": [k.to_dict() for k in kept.values()], "uncertain": [],
            "missing_in_original": [], "warnings": []}
    md = summary_markdown(data)
    assert "## Kept, by kind" in md
    assert "| imported | 1 | 100 |" in md
    assert f"| unparsable | 1 | {KEPT_CONFIDENCE[KeptKind.UNPARSABLE]} |" in md
