"""Entry points declared by setup.cfg, setup.py or poetry reach the distribution a git checkout has no metadata
for: its scripts and plugins are roots."""

from __future__ import annotations

from slimfork.source.layout import read_distribution


def test_setup_cfg_and_setup_py_entry_points(tmp_path):
    (tmp_path / "setup.cfg").write_text("[metadata]\nname = demo\nversion = 2.0\n\n[options.entry_points]\n"
                                        "console_scripts =\n    demo = demo.cli:main\n"
                                        "demo.plugins =\n    a = demo.plugins.a\n")
    (tmp_path / "setup.py").write_text("from setuptools import setup\nsetup(entry_points={"
                                       "'demo.plugins': ['b = demo.plugins.b:B'], 'pytest11': 'demo = demo.pt'})\n")
    dist = read_distribution(tmp_path)
    assert (dist.name, dist.version, dist.scripts) == ("demo", "2.0", {"demo": "demo.cli:main"})
    assert dist.entry_points == {"demo.plugins": {"a": "demo.plugins.a", "b": "demo.plugins.b:B"},
                                 "pytest11": {"demo": "demo.pt"}}


def test_poetry_scripts_and_plugins_join_pep621_metadata(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "demo"\nversion = "1"\n[project.scripts]\nfirst = "demo.a:main"\n'
        '[tool.poetry.scripts]\nsecond = "demo.b:main"\nthird = {reference = "demo.c:main", type = "console"}\n'
        '[tool.poetry.plugins."demo.hooks"]\nh = "demo.hooks.h"\n')
    dist = read_distribution(tmp_path)
    assert dist.scripts == {"first": "demo.a:main", "second": "demo.b:main", "third": "demo.c:main"}
    assert dist.entry_points == {"demo.hooks": {"h": "demo.hooks.h"}}


def test_setup_py_entry_points_through_a_module_constant(tmp_path):
    (tmp_path / "setup.py").write_text("from setuptools import setup\nEPS = {'console_scripts': ['x = demo.x:main']}\n"
                                       "setup(name='demo', entry_points=EPS)\n")
    assert read_distribution(tmp_path).scripts == {"x": "demo.x:main"}


def test_no_declarations_no_distribution(tmp_path):
    (tmp_path / "setup.py").write_text("from setuptools import setup\nsetup(name='x', entry_points=EPS)\n")
    assert read_distribution(tmp_path) is None


def test_setup_py_entry_points_as_an_ini_string(tmp_path):
    """setuptools also takes ``entry_points=`` as the ``entry_points.txt`` text: its plugins are roots (session 37:
    the fork lost ``bepini.fmt_csv`` and the installed fork's plugin failed to load)."""
    (tmp_path / "setup.py").write_text("from setuptools import setup\nsetup(name='demo', version='1.0',\n"
                                       "      entry_points='''\n[demo.plugins]\nCsv = demo.fmt_csv:load\n"
                                       "[console_scripts]\ndemo = demo.cli:main\n''')\n")
    dist = read_distribution(tmp_path)
    assert dist.scripts == {"demo": "demo.cli:main"}
    assert dist.entry_points == {"demo.plugins": {"Csv": "demo.fmt_csv:load"}}


def test_entry_points_setup_py_builds_at_run_time_are_patterns(tmp_path):
    """``["%s = demo.plugins.%s:load" % (n, n) for n in os.listdir(...)]``: no literal to read, so every module
    the template may name is an entry point (session 37: the fork lost both plugins and the installed fork's
    group was empty)."""
    from slimfork.source.declared_entry_points import computed_entry_points
    (tmp_path / "setup.py").write_text(
        "import os\nfrom setuptools import setup\nNAMES = [f[:-3] for f in os.listdir('demo/plugins')]\n"
        "setup(name='demo', entry_points={'demo.plugins': ['%s = demo.plugins.%s:load' % (n, n) for n in NAMES],\n"
        "      'demo.hooks': [f'{n} = demo.hooks_{n}:run' for n in NAMES]})\nprint('%s = not a template')\n")
    assert sorted(computed_entry_points(tmp_path)) == ["demo.hooks_*", "demo.plugins.*"]
    (tmp_path / "setup.py").write_text("from setuptools import setup\nsetup(entry_points={'g': ['a = demo.a:x']})\n"
                                       "X = '%s = demo.%s:y'\n")
    assert computed_entry_points(tmp_path) == []


def test_a_setup_py_checkout_is_named_by_its_setup_call(tmp_path):
    """records' git checkout (setup.py, a console script, no PKG-INFO): the draft said "a keep spec for proj ."
    (the folder's name and an empty version); setup.py's literal name and version (through a module-level
    name) name it now."""
    from slimfork.source.declared_entry_points import setup_py_metadata
    from slimfork.source.layout import read_distribution

    (tmp_path / "setup.py").write_text(
        'from setuptools import setup\nversion = "0.6.0"\n'
        'setup(name="records", version=version, py_modules=["records"],\n'
        '      entry_points={"console_scripts": ["records=records:cli"]})\n')
    dist = read_distribution(tmp_path)
    assert dist is not None and (dist.name, dist.version, dist.origin) == ("records", "0.6.0", "setup.py")
    assert dist.scripts == {"records": "records:cli"}
    (tmp_path / "setup.py").write_text("import x\nsetup(name=x.NAME, version=x.v())\n")
    assert setup_py_metadata(tmp_path) == ("", "")


def test_an_egg_info_of_the_checkout_adds_its_entry_points(tmp_path):
    """``src/demo.egg-info/entry_points.txt`` (a checkout installed with ``pip install -e .``): ``importlib.metadata``
    finds it on ``sys.path``, so its plugins are roots beside pyproject's. Before, a pyproject.toml hid it: the plugin
    left the fork, exit 0 (session 42)."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "1"\n'
                                            '[project.scripts]\nfirst = "demo.a:main"\n')
    (tmp_path / "src/demo.egg-info").mkdir(parents=True)
    (tmp_path / "src/demo.egg-info/entry_points.txt").write_text(
        "[console_scripts]\nfirst = demo.other:main\n\n[demo.plugins]\nalpha = demo.plugins.alpha:Plugin\n")
    dist = read_distribution(tmp_path)
    assert dist.scripts == {"first": "demo.a:main"}  # pyproject's declaration wins
    assert dist.entry_points == {"demo.plugins": {"alpha": "demo.plugins.alpha:Plugin"}}
