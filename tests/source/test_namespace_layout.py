"""A PEP 420 namespace package whose folder holds only regular packages (jaraco/functools/__init__.py, no
jaraco/__init__.py) is a package of the source, and a plan over it keeps what its roots reach."""

from __future__ import annotations

import json

from slimfork.cli import main
from slimfork.source.layout import find_packages


def test_a_namespace_folder_of_packages_is_found(tmp_path, capsys):
    proj = tmp_path / "proj"
    (proj / "jaraco/functools").mkdir(parents=True)
    (proj / "jaraco/functools/__init__.py").write_text("from . import helper\n")
    (proj / "jaraco/functools/helper.py").write_text("X = 1\n")
    (proj / "jaraco/functools/unused.py").write_text("Y = 2\n")
    (proj / "docs/conf").mkdir(parents=True)
    (proj / "docs/conf/__init__.py").write_text("")
    assert find_packages(proj) == ["jaraco"]
    (tmp_path / "ns.toml").write_text('source = "proj"\nroots = ["jaraco.functools"]\n')
    assert main(["plan", str(tmp_path / "ns.toml"), "--json"]) == 0
    removed = {r["path"] for r in json.loads(capsys.readouterr().out)["removed"]}
    assert removed == {"jaraco/functools/unused.py"}
