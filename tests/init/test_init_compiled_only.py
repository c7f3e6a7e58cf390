"""A build that installs compiled extensions alone (pyahocorasick 2.3.1's ``Extension("ahocorasick", ...)``,
siphash24 1.9's meson ``py.extension_module('siphash24', ...)``) has no Python to fork: the draft rooted the Python
beside them, the project's tooling (``etc/``, ``check.py``, ``tempita.py``), as its public API. And a meson-python
build's ``install_sources(..., subdir: 'pkg')`` names what it installs, as the other builds' lists do."""

from __future__ import annotations

import json
import textwrap

from slimfork.cli import main


def _tree(root, files):
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text).lstrip())
    return root


def test_a_setuptools_extension_alone_is_exit_2_naming_it(tmp_path, capsys):
    root = _tree(tmp_path / "p", {
        "setup.py": 'from setuptools import setup, Extension\nsetup(name="aho", ext_modules=[\n'
                    '    Extension("aho", sources=["src/aho.c"])])\n',
        "src/aho.c": "int x;\n",
        "aho.egg-info/top_level.txt": "aho\n",  # what the sdist says it installs
        "etc/dump.py": "import aho\n",
        "etc/__init__.py": "",
        "tests/test_aho.py": "import aho\n",
    })
    assert main(["init", str(root)]) == 2
    err = capsys.readouterr().err
    assert "error: source: the build installs no Python code: aho (setup.py:3) is a compiled extension" in err
    assert "hint: the Python here (etc) is the project's own tooling" in err


def test_a_meson_extension_alone_is_exit_2(tmp_path, capsys):
    root = _tree(tmp_path / "p", {
        "pyproject.toml": '[build-system]\nbuild-backend = "mesonpy"\nrequires = ["meson-python"]\n',
        "meson.build": "py = import('python').find_installation()\n# py.install_sources('x.py')\n"
                       "py.extension_module(\n  'fasthash',\n  'fasthash.c',\n  install: true,\n)\n",
        "fasthash.c": "int x;\n",
        "check.py": "import fasthash\n",
    })
    assert main(["init", str(root)]) == 2
    assert "fasthash (meson.build:3) is a compiled extension" in capsys.readouterr().err


def test_meson_install_sources_name_the_installed_package(tmp_path, capsys):
    root = _tree(tmp_path / "p", {
        "pyproject.toml": '[build-system]\nbuild-backend = "mesonpy"\nrequires = ["meson-python"]\n',
        "meson.build": "py.install_sources('lib/__init__.py', 'lib/util.py', subdir: 'lib')\n"
                       "py.extension_module('_speed', 'speed.c', subdir: 'lib', install: true)\n",
        "lib/__init__.py": "from lib import util\n",
        "lib/util.py": "X = 1\n",
        "helper/__init__.py": "import lib\n",
    })
    assert main(["init", str(root), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["roots"] == ["lib.**"] and data["not_installed"] == ["helper"]
