"""`slimfork init` roots what the build configuration says it installs: hatch's wheel ``packages`` and
``only-include`` (through ``sources``), poetry's ``packages = [{include, from}]`` and ``include`` modules,
setuptools' literal ``packages``. A ``bench/`` or ``docs_src/`` package beside them was a root of every draft."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from slimfork.cli import main


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _init(root: Path, capsys) -> dict:
    assert main(["init", str(root), "--out", str(root.parent / "d.toml"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert tomllib.loads(Path(data["out"]).read_text())["roots"] == data["roots"]
    assert main(["plan", str(root.parent / "d.toml"), "--json"]) == 0  # the draft plans as written
    capsys.readouterr()
    return data


BESIDE = {"bench/__init__.py": "", "bench/run.py": "import foo\n", "docs_src/__init__.py": "",
          "docs_src/tutorial.py": "import foo\n", "foo/__init__.py": "X = 1\n", "foo/core.py": "Y = 2\n",
          "tests/test_foo.py": "import foo\n"}
HATCH = '[project]\nname = "foo-lib"\nversion = "1.0"\n[tool.hatch.build.targets.wheel]\n'


@pytest.mark.parametrize("wheel", ['packages = ["foo"]', 'only-include = ["foo"]', 'include = ["/foo"]'])
def test_hatch_lists(tmp_path, capsys, wheel):
    data = _init(_write(tmp_path / "p", {"pyproject.toml": HATCH + wheel + "\n", **BESIDE}), capsys)
    assert data["roots"] == ["foo.**"] and data["tests"] == ["tests"]
    assert data["not_installed"] == ["bench", "docs_src"]
    assert "## not in roots: bench, docs_src" in Path(data["out"]).read_text()


def test_hatch_only_include_below_sources(tmp_path, capsys):
    files = {"pyproject.toml": HATCH + 'only-include = ["lib/foo"]\nsources = ["lib"]\n',
             "lib/foo/__init__.py": "", "lib/foo/core.py": "", "lib/scratch/__init__.py": ""}
    data = _init(_write(tmp_path / "p", files), capsys)
    assert data["roots"] == ["foo.**"] and data["not_installed"] == ["scratch"]


def test_poetry_packages_and_include_modules(tmp_path, capsys):
    files = {"pyproject.toml": '[tool.poetry]\nname = "foo-lib"\nversion = "1.0"\n'
                               'packages = [{include = "foo"}, {include = "bar.py"}]\n'
                               'include = ["extra.py", "CHANGELOG.md"]\n',
             "bar.py": "", "extra.py": "", "helper.py": "", **BESIDE}
    data = _init(_write(tmp_path / "p", files), capsys)
    assert data["roots"] == ["bar", "extra", "foo.**"] and data["not_installed"] == ["bench", "docs_src"]


def test_poetry_from(tmp_path, capsys):
    files = {"pyproject.toml": '[tool.poetry]\nname = "foo-lib"\nversion = "1.0"\n'
                               'packages = [{include = "foo", from = "lib"}]\n',
             "lib/foo/__init__.py": "", "lib/scratch/__init__.py": "", "tools/__init__.py": ""}
    data = _init(_write(tmp_path / "p", files), capsys)
    assert data["roots"] == ["foo.**"] and data["not_installed"] == ["scratch"]


def test_setuptools_literal_packages(tmp_path, capsys):
    files = {"setup.py": "from setuptools import setup\nsetup(name='foo', packages=['foo', 'foo.sub'])\n",
             "foo/sub/__init__.py": "", **BESIDE}
    data = _init(_write(tmp_path / "p", files), capsys)
    assert data["roots"] == ["foo.**"] and data["not_installed"] == ["bench", "docs_src"]


def test_nothing_listed_keeps_every_package(tmp_path, capsys):
    files = {"setup.py": "from setuptools import setup, find_packages\nsetup(name='foo', packages=find_packages())\n",
             **BESIDE}
    data = _init(_write(tmp_path / "p", files), capsys)
    assert data["roots"] == ["bench.**", "docs_src.**", "foo.**"] and data["not_installed"] == []


def test_a_list_naming_nothing_found_keeps_every_package(tmp_path, capsys):
    data = _init(_write(tmp_path / "p", {"pyproject.toml": HATCH + 'packages = ["src/gone"]\n', **BESIDE}), capsys)
    assert data["roots"] == ["bench.**", "docs_src.**", "foo.**"]


def test_flit_installs_the_module_named_after_the_distribution(tmp_path, capsys):
    """flit with no ``[tool.flit.module]`` installs the distribution's name (``-`` as ``_``); asyncstdlib 3.12.5's
    sdist-only ``unittests`` package was a root, and its tests were no ``tests`` entry."""
    files = {"pyproject.toml": '[build-system]\nrequires = ["flit_core"]\nbuild-backend = "flit_core.buildapi"\n'
                               '[project]\nname = "foo-lib"\nversion = "1.0"\ndescription = "x"\n',
             "foo_lib/__init__.py": "X = 1\n", "foo_lib/core.py": "Y = 2\n", "unittests/__init__.py": "",
             "unittests/utility.py": "", "unittests/test_core.py": "import foo_lib.core\n"}
    data = _init(_write(tmp_path / "p", files), capsys)
    assert data["roots"] == ["foo_lib.**"] and data["tests"] == ["unittests"]


@pytest.mark.parametrize("wheel", ["", 'packages = ["foo"]\n'])
def test_hatch_force_include_of_a_top_level_module_is_a_root(tmp_path, capsys, wheel):
    """jupyter_core 5.9.1 installs ``jupyter.py`` beside its package through ``[tool.hatch.build.force-include]``
    (``python -m jupyter``): the draft's roots left it out."""
    files = {"pyproject.toml": HATCH + wheel + '[tool.hatch.build.force-include]\n"./launch.py" = "launch.py"\n',
             "launch.py": "if __name__ == '__main__':\n    import foo\n", "helper.py": "", **BESIDE}
    data = _init(_write(tmp_path / "p", files), capsys)
    assert "launch" in data["roots"] and "foo.**" in data["roots"] and "helper" not in data["roots"]


SETUP_PY = "from setuptools import setup\nsetup()\n"


@pytest.mark.parametrize("config", [
    {"setup.cfg": "[metadata]\nname = foo\n[options]\npackages = find:\n[options.packages.find]\ninclude =\n"
                  "    foo\n    foo.*\n"},
    {"setup.cfg": "[options]\npackages = find:\n[options.packages.find]\ninclude = foo, foo.*\n"},
    {"setup.cfg": "[options]\npackages = find:\n[options.packages.find]\nexclude =\n    bench*\n    docs_src\n"},
    {"pyproject.toml": '[project]\nname = "foo"\nversion = "1"\n[tool.setuptools.packages.find]\n'
                       'exclude = ["bench", "docs_src*"]\n'},
    {"setup.py": "from setuptools import setup, find_packages\n"
                 "setup(packages=find_packages(exclude=['bench', 'docs_src']))\n"},
])
def test_setuptools_finder_include_and_exclude(tmp_path, capsys, config):
    """A git checkout has no ``top_level.txt``: setuptools' finder's ``include`` and ``exclude`` (``setup.cfg``'s
    ``[options.packages.find]``, pyproject's ``[tool.setuptools.packages.find]``, ``find_packages(...)``) say what
    is installed. Before, ``bench`` and ``docs_src`` were roots of every such draft."""
    data = _init(_write(tmp_path / "p", {"setup.py": SETUP_PY, **config, **BESIDE}), capsys)
    assert data["roots"] == ["foo.**"] and data["not_installed"] == ["bench", "docs_src"]


PDM = ('[build-system]\nrequires = ["pdm-backend"]\nbuild-backend = "pdm.backend"\n'
       '[project]\nname = "foo"\nversion = "1"\n[tool.pdm.build]\n')


@pytest.mark.parametrize("build", ['source-includes = ["tests/", "bench/", "docs_src/"]\n', 'includes = ["foo"]\n',
                                   'excludes = ["bench", "docs_src"]\n'])
def test_pdm_backend_installs_what_source_includes_leave_out(tmp_path, capsys, build):
    """pdm-backend puts every top-level package in the wheel but those ``source-includes`` names (sdist only) and
    ``excludes``, or its ``includes``: typer 0.29.2's sdist-only ``docs_src/`` package was a root of its draft."""
    data = _init(_write(tmp_path / "p", {"pyproject.toml": PDM + build, **BESIDE}), capsys)
    assert data["roots"] == ["foo.**"] and data["not_installed"] == ["bench", "docs_src"]


def test_a_tests_folder_without_init_inside_the_package_is_no_root(tmp_path, capsys):
    """pycountry 26.2.16's ``src/pycountry/tests/`` has no ``__init__.py``: ``pycountry.tests.**`` was a root of
    its draft beside ``tests = ["src/pycountry/tests"]``."""
    files = {"pyproject.toml": '[project]\nname = "foo"\nversion = "1"\n', "src/foo/__init__.py": "",
             "src/foo/db.py": "", "src/foo/tests/test_db.py": "import foo.db\n"}
    data = _init(_write(tmp_path / "p", files), capsys)
    assert data["roots"] == ["foo", "foo.db"] and data["tests"] == ["src/foo/tests"]
