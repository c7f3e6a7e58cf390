"""A console script, an entry point or an installed script file the spec drops (``drop = ["script:NAME",
"entry-point:GROUP:NAME", "bin/tool"]``) is no root, and its declaration leaves the fork's build files. Before, every
script the build metadata declares was a root whatever the spec kept (cssutils' three scripts, httpx's ``httpx``
command, bandit's formatters and plugins, petl's ``bin/petl``, vobject's ``ics_diff``/``change_tz``), and dropping
the script's module left a fork that declared a command whose code was gone."""

from __future__ import annotations

import configparser
import tomllib

import pytest

from slimfork.api import analyse, shrink
from slimfork.errors import SpecError
from tests.mapping.registrykit import write_project

LIB = {
    "pk/__init__.py": "",
    "pk/core.py": "def parse(text):\n    return text.split()\n",
    "pk/cli.py": "import argparse\nfrom pk.core import parse\nfrom pk.fmt import show\n\n\ndef main():\n"
                 "    show(parse(argparse.ArgumentParser().parse_args().text))\n",
    "pk/fmt.py": "def show(words):\n    print(words)\n",
    "pk/tool.py": "from pk.fmt import show\n\n\ndef main():\n    show([])\n",
    "pk/plugins.py": "from pk.fmt import show\n\n\ndef json_out(x):\n    show(x)\n\n\ndef csv_out(x):\n"
                     "    return x\n",
}
PYPROJECT = """\
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "pk"
version = "1.0"

[project.scripts]
pk = "pk.cli:main"
"pk-tool" = "pk.tool:main"  # a second command

[project.entry-points."pk.formats"]
json = "pk.plugins:json_out"
"""
ROOTS = 'source = "."\nroots = ["pk.core"]\n'


def _removed(analysis) -> set[str]:
    return {r.path for r in analysis.plan.removals}


def test_console_scripts_are_roots_unless_dropped(tmp_path):
    kept = analyse(write_project(tmp_path / "a", {**LIB, "pyproject.toml": PYPROJECT}, ROOTS) / "slimfork.toml",
                   jobs=1)
    assert not {"pk/cli.py", "pk/tool.py", "pk/fmt.py"} & _removed(kept)
    spec = ROOTS + 'drop = ["script:*", "entry-point:pk.formats:*"]\n'
    analysis = analyse(write_project(tmp_path / "b", {**LIB, "pyproject.toml": PYPROJECT}, spec) / "slimfork.toml",
                       jobs=1)
    assert {"pk/cli.py", "pk/tool.py", "pk/fmt.py", "pk/plugins.py"} <= _removed(analysis)
    assert "pk/core.py" not in _removed(analysis)
    assert analysis.tree.dist is not None and analysis.tree.dist.scripts == {}


def test_the_fork_declares_only_the_kept_scripts(tmp_path):
    spec = ROOTS + 'drop = ["script:pk-*"]\n'
    root = write_project(tmp_path, {**LIB, "pyproject.toml": PYPROJECT}, spec)
    fork = shrink(root / "slimfork.toml", tmp_path / "fork", verify=False).out
    project = tomllib.loads((fork / "pyproject.toml").read_text())["project"]
    assert project["scripts"] == {"pk": "pk.cli:main"}  # pk-tool's line left, the comment with it
    assert project["entry-points"] == {"pk.formats": {"json": "pk.plugins:json_out"}}
    assert project["version"] == "1.0+slimfork"  # the version batch starts from the cut file
    assert not (fork / "pk/tool.py").exists() and (fork / "pk/cli.py").exists()


SETUP_CFG = """\
[metadata]
name = pk
version = 1.0

[options]
packages = find:

[options.entry_points]
console_scripts =
    pk = pk.cli:main
    pk-tool = pk.tool:main
pk.formats =
    json = pk.plugins:json_out
    csv = pk.plugins:csv_out
"""


def test_setup_cfg_and_egg_info_lose_the_dropped_lines(tmp_path):
    files = {**LIB, "setup.cfg": SETUP_CFG, "setup.py": "from setuptools import setup\nsetup()\n",
             "pk.egg-info/PKG-INFO": "Metadata-Version: 2.1\nName: pk\nVersion: 1.0\n",
             "pk.egg-info/entry_points.txt": "[console_scripts]\npk = pk.cli:main\npk-tool = pk.tool:main\n\n"
                                             "[pk.formats]\ncsv = pk.plugins:csv_out\njson = pk.plugins:json_out\n"}
    spec = ROOTS + 'drop = ["script:pk", "entry-point:pk.formats:json"]\n'
    root = write_project(tmp_path, files, spec)
    analysis = analyse(root / "slimfork.toml", jobs=1)
    assert "pk/cli.py" in _removed(analysis) and "pk/tool.py" not in _removed(analysis)
    cuts = analysis.tree.entry_cuts
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(cuts["setup.cfg"].decode())
    assert parser.get("options.entry_points", "console_scripts").split() == ["pk-tool", "=", "pk.tool:main"]
    assert parser.get("options.entry_points", "pk.formats").split() == ["csv", "=", "pk.plugins:csv_out"]
    text = cuts["pk.egg-info/entry_points.txt"].decode()
    assert "pk.cli" not in text and "json_out" not in text and "pk-tool = pk.tool:main" in text


SETUP_PY = """\
from setuptools import setup

if False:
    console_scripts = []
else:
    console_scripts = ['pk = pk.cli:main', 'pk-tool = pk.tool:main']

setup(
    name='pk',
    version='1.0',
    scripts=['bin/pk-run'],
    entry_points={'console_scripts': console_scripts,
                  'pk.formats': ['json = pk.plugins:json_out']},
)
"""


def test_setup_py_literal_lists_and_installed_script_files(tmp_path):
    files = {**LIB, "setup.py": SETUP_PY, "PKG-INFO": "Metadata-Version: 2.1\nName: pk\nVersion: 1.0\n",
             "pk.egg-info/entry_points.txt": "[console_scripts]\npk = pk.cli:main\npk-tool = pk.tool:main\n",
             "bin/pk-run": "#!/usr/bin/env python\nimport pk.tool\npk.tool.main()\n"}
    spec = ROOTS + 'drop = ["script:*", "entry-point:pk.formats:json", "bin/pk-run"]\n'
    analysis = analyse(write_project(tmp_path, files, spec) / "slimfork.toml", jobs=1)
    assert {"pk/cli.py", "pk/tool.py", "pk/plugins.py", "pk/fmt.py"} <= _removed(analysis)
    text = analysis.tree.entry_cuts["setup.py"].decode()
    assert "console_scripts = []\n" in text and "scripts=[]" in text and "'pk.formats': []" in text
    assert text.count("console_scripts = []") == 2  # both arms of the if
    compile(text, "setup.py", "exec")


def test_a_computed_declaration_stops_the_run(tmp_path):
    setup = ("from setuptools import setup\nNAMES = ['pk']\n"
             "setup(name='pk', entry_points={'console_scripts': [n + ' = pk.cli:main' for n in NAMES]})\n")
    files = {**LIB, "setup.py": setup, "PKG-INFO": "Metadata-Version: 2.1\nName: pk\nVersion: 1.0\n",
             "pk.egg-info/PKG-INFO": "Metadata-Version: 2.1\nName: pk\nVersion: 1.0\n",
             "pk.egg-info/entry_points.txt": "[console_scripts]\npk = pk.cli:main\n"}
    root = write_project(tmp_path, files, ROOTS + 'drop = ["script:pk"]\n')
    with pytest.raises(SpecError, match="cannot cut"):
        analyse(root / "slimfork.toml", jobs=1)


def test_a_drop_naming_no_script_is_stale(tmp_path):
    root = write_project(tmp_path, {**LIB, "pyproject.toml": PYPROJECT}, ROOTS + 'drop = ["script:pk-tol"]\n')
    with pytest.raises(SpecError) as err:
        analyse(root / "slimfork.toml", jobs=1)
    assert "drop[0]" in err.value.render() and "pk-tool" in err.value.render()


def test_a_root_script_that_is_dropped_is_a_spec_error(tmp_path):
    spec = 'source = "."\nroots = ["script:pk"]\ndrop = ["script:pk"]\n'
    root = write_project(tmp_path, {**LIB, "pyproject.toml": PYPROJECT}, spec)
    with pytest.raises(SpecError) as err:
        analyse(root / "slimfork.toml", jobs=1)
    assert "roots[0]" in err.value.render() and "drop removes" in err.value.render()


def test_init_suggests_the_drop(tmp_path):
    """``slimfork init`` keeps every script (``script:*``) and says how to drop them: the suggestion, uncommented
    with the roots narrowed to one module, plans, and the scripts' code leaves."""
    from slimfork.init.draft import draft_spec

    root = write_project(tmp_path, {**LIB, "pyproject.toml": PYPROJECT}, ROOTS)
    text, _ = draft_spec(str(root))
    line = '# drop = ["script:pk", "script:pk-tool", "entry-point:pk.formats:*"]'
    assert line in text.splitlines()
    spec = "\n".join(line[2:] if line == l else l for l in text.splitlines()
                     if not l.startswith("roots ="))
    (root / "narrow.toml").write_text(spec + '\nroots = ["script:*", "pk.core"]\n')
    analysis = analyse(root / "narrow.toml", jobs=1)
    assert {"pk/cli.py", "pk/tool.py", "pk/plugins.py"} <= _removed(analysis)


SETUP_PARAMS = """\
from setuptools import setup

classifiers = {"classifiers": ["Programming Language :: Python :: 3"]}
setup_params = dict(
    name='pk',
    version='1.0',
    entry_points={'console_scripts': ['pk = pk.cli:main', 'pk-tool = pk.tool:main']},
    **classifiers,
)

if __name__ == "__main__":
    setup(**setup_params)
"""


def test_setup_of_a_dict_of_literal_keywords_is_cut(tmp_path):
    """fontTools 4.68.0's ``setup(**setup_params)``, ``setup_params = dict(..., entry_points={...},
    **classifiers)``: every keyword is known, so dropping ``ttx`` cuts its line; ``drop`` stopped with "cannot cut
    (computed)". A ``**`` of a dict something changes later stays unknown and stops the run."""
    files = {**LIB, "setup.py": SETUP_PARAMS, "PKG-INFO": "Metadata-Version: 2.1\nName: pk\nVersion: 1.0\n"}
    analysis = analyse(write_project(tmp_path / "a", files, ROOTS + 'drop = ["script:pk-tool"]\n') / "slimfork.toml",
                       jobs=1)
    text = analysis.tree.entry_cuts["setup.py"].decode()
    assert "pk-tool" not in text and "'pk = pk.cli:main'" in text and "**classifiers" in text
    compile(text, "setup.py", "exec")
    changed = SETUP_PARAMS.replace("\nif __name__", '\nclassifiers["entry_points"] = {}\n\nif __name__')
    files = {**files, "setup.py": changed}
    with pytest.raises(SpecError, match="cannot cut"):
        analyse(write_project(tmp_path / "b", files, ROOTS + 'drop = ["script:pk-tool"]\n') / "slimfork.toml", jobs=1)


def test_init_suggests_no_drop_it_cannot_make(tmp_path):
    """fabric 3.2.3's ``"{} = {}.main:program.run".format(binary_name, package_name)``: the draft suggested
    ``drop = ["script:fab"]``, and accepting it stopped `shrink` with exit 2 ("computed entry_points"). Such a
    script is named in a note instead (with the entry points of the same computed ``entry_points=``)."""
    from slimfork.init.draft import draft_spec

    setup = ("from setuptools import setup\nNAME = 'pk'\n"
             "setup(name='pk', version='1.0', entry_points={'console_scripts': "
             "['{} = pk.cli:main'.format(NAME)], 'pk.formats': ['json = pk.plugins:json_out']})\n")
    files = {**LIB, "setup.py": setup, "PKG-INFO": "Metadata-Version: 2.1\nName: pk\nVersion: 1.0\n",
             "pk.egg-info/entry_points.txt": "[console_scripts]\npk = pk.cli:main\n\n[pk.formats]\n"
                                             "json = pk.plugins:json_out\n"}
    root = write_project(tmp_path, files, ROOTS)
    text, _ = draft_spec(str(root))
    assert "## not droppable as the build declares them: script:pk, entry-point:pk.formats:* (a computed" in text
    assert not any(line.startswith("# drop = ") and "script:pk" in line for line in text.splitlines())
