"""The warning of a fork whose version stays the original's said "pyproject.toml has no static version", though
async-timeout 4.0.3's pyproject.toml holds only [build-system]: its version is setup.cfg's ``attr:``."""

from __future__ import annotations

from slimfork.cli import main


def _project(root, files):
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_the_warning_names_where_the_version_comes_from(tmp_path, capsys):
    root = _project(tmp_path / "p", {
        "pkg/__init__.py": "__version__ = '1.0'\n",
        "pkg/extra.py": "X = 1\n",
        "pyproject.toml": '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n',
        "setup.cfg": "[metadata]\nname = pkg\nversion = attr: pkg.__version__\n",
        "setup.py": "from setuptools import setup\nsetup()\n",
        "slimfork.toml": 'source = "."\nroots = ["pkg"]\ntests = []\n',
    })
    assert main(["shrink", str(root / "slimfork.toml"), "--out", str(tmp_path / "fork"), "--no-verify"]) == 0
    err = capsys.readouterr().err
    assert ("warning: the version comes from setup.cfg ([metadata] version = attr: pkg.__version__), not a static "
            "pyproject.toml one: the fork keeps the original's version") in err


def test_without_setup_files_a_dynamic_version_is_said_so(tmp_path, capsys):
    from slimfork.apply.batches import _version_source

    root = _project(tmp_path / "p", {"pyproject.toml": '[project]\nname = "p"\ndynamic = ["version"]\n'})
    assert _version_source(root).startswith("pyproject.toml has no static version (a dynamic one")
    (root / "setup.py").write_text("")
    assert _version_source(root) == "the version comes from setup.py, not a static pyproject.toml one"
