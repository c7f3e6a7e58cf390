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


def _write(root, files):
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


_DEEP = {
    "pyproject.toml": '[project]\nname = "nsp"\nversion = "0.1.0"\n\n[build-system]\nrequires = ["setuptools"]\n'
                      'build-backend = "setuptools.build_meta"\n\n[tool.setuptools.packages.find]\nwhere = ["src"]\n'
                      'namespaces = true\n',
    "src/nsp/core/api.py": "import nsp.util.text\nfrom nsp.util import helpers\n\n\n"
                           "def shout(s):\n    return nsp.util.text.upper(helpers.strip(s))\n",
    "src/nsp/util/text.py": "def upper(s):\n    return s.upper()\n",
    "src/nsp/util/helpers.py": "def strip(s):\n    return s.strip()\n",
    "src/nsp/extra/deep/unused.py": "def nothing():\n    return 1\n",
    "src/nsp/extra/other.py": "from nsp.extra.deep import unused\n",
    "tests/test_api.py": "from nsp.core.api import shout\n\n\ndef test_shout():\n    assert shout(' a ') == 'A'\n",
    "tests/test_extra.py": "from nsp.extra.other import unused\n\n\ndef test_extra():\n"
                           "    assert unused.nothing() == 1\n",
}


def test_a_namespace_package_with_no_init_at_any_depth_is_found(tmp_path):
    """``src/nsp/core/api.py`` with no ``__init__.py`` anywhere: ``nsp`` is the source's package (it used to be
    refused: "no Python package found")."""
    _write(tmp_path, _DEEP)
    assert find_packages(tmp_path / "src") == ["nsp"]
    from slimfork.source.layout import open_tree
    assert open_tree(tmp_path).packages == ["nsp"]
    assert open_tree(tmp_path, packages=["nsp"]).packages == ["nsp"]


def test_the_deep_rule_applies_only_where_no_package_is_found(tmp_path):
    """A project with packages keeps a folder of scripts in subfolders (``tools/release/bump.py``) outside
    them: counting it a package would let unreached scripts go."""
    _write(tmp_path, {"app/__init__.py": "", "tools/release/bump.py": "print(1)\n"})
    assert find_packages(tmp_path) == ["app"]


def test_a_verified_fork_of_a_deep_namespace_package(tmp_path):
    """The fork of a PEP 420 package with no ``__init__.py`` at all: imports of ``nsp.util.text`` resolve, the
    unreached namespace folders (``nsp/extra/``, ``nsp/extra/deep/``) leave whole, the kept test passes, and
    every check of the verified run passes on each batch (no restore)."""
    import subprocess
    import sys

    from slimfork.api import shrink

    proj = tmp_path / "proj"
    _write(proj, {**_DEEP, "slimfork.toml": 'source = "."\nroots = ["nsp.core.api"]\ntests = ["tests"]\n'
                                            '[checks]\nskip = ["install"]\n'})
    fork = tmp_path / "fork"
    result = shrink(proj / "slimfork.toml", out=fork, jobs=1)
    files = sorted(p.relative_to(fork).as_posix() for p in fork.rglob("*") if ".git" not in p.parts)
    assert "src/nsp/extra" not in files and not any(f.startswith("src/nsp/extra/") for f in files)
    assert {"src/nsp/core/api.py", "src/nsp/util/text.py", "src/nsp/util/helpers.py",
            "tests/test_api.py"} <= set(files)
    assert "tests/test_extra.py" not in files
    assert result.apply is not None and result.apply.restored == [] and result.apply.batches
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                         capture_output=True, text=True, env={"PYTHONPATH": str(fork / "src"), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_deep_rule_sees_past_a_tests_package(tmp_path):
    """google-cloud-core's layout: ``google/cloud/client/__init__.py`` with no ``google/__init__.py`` nor
    ``google/cloud/__init__.py``, beside a regular ``tests`` package."""
    _write(tmp_path, {"google/cloud/client/__init__.py": "", "google/cloud/version.py": "V = 1\n",
                      "tests/__init__.py": "", "tests/unit/test_client.py": ""})
    assert find_packages(tmp_path) == ["google", "tests"]


def test_another_distributions_part_of_a_namespace_is_no_missing_import(tmp_path):
    """``jaraco/collections/__init__.py`` importing ``jaraco.text`` (jaraco.text's distribution): outside the
    tree, not missing from it; an import of a module a regular package lacks still is. (audit's orphaned-test
    said google-cloud-core's tests 'import what does not exist' for their ``google.auth`` imports.)"""
    from slimfork.api import analyse

    _write(tmp_path / "proj", {"jaraco/collections/__init__.py": "import jaraco.text\nfrom jaraco.text import x\n"
                                                                 "from jaraco.collections import gone\n",
                               "jaraco/sub/__init__.py": "from jaraco.sub import nothere\nimport jaraco.sub.absent\n"})
    (tmp_path / "ns.toml").write_text('source = "proj"\nroots = ["jaraco.collections", "jaraco.sub"]\n')
    graph = analyse(tmp_path / "ns.toml", jobs=1).graph
    assert sorted(m.target for m in graph.missing) == ["jaraco.sub.absent"]
