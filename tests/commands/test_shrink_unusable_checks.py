"""A check that cannot run on the original (every root module fails to import: the project's dependencies are not
installed where the checks run) verified nothing; ``slimfork shrink`` says so on stderr with what to do, in text
and ``--json`` runs alike (stdout stays the JSON). It said nothing: python-slugify 8.0.4's verified fork came out
"0 uncertain, 0 warnings" with its import check unusable (no ``text_unidecode``)."""

from __future__ import annotations

import json

from slimfork.cli import main


def test_an_unusable_check_on_the_original_is_a_warning_with_a_hint(tmp_path, capsys):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("import not_installed_dependency_xyz\n")
    (root / "slimfork.toml").write_text('source = "."\nroots = ["pkg"]\ntests = []\n'
                                        '[checks]\nskip = ["install", "pytest"]\n')
    assert main(["shrink", str(root / "slimfork.toml"), "--out", str(tmp_path / "fork"), "--json"]) == 0
    out, err = capsys.readouterr()
    json.loads(out)
    assert "warning: check 'import-modules' could not run on the original" in err
    assert "not_installed_dependency_xyz" in err and "hint: " in err and "[verify]" in err


def test_the_projects_own_unbuilt_extension_gets_its_own_hint(capsys):
    from slimfork.commands.shrink import print_unusable

    note = "0 of 2 modules import in the original; not counted: bits (ModuleNotFoundError: No module named 'bits._ext')"
    print_unusable({"roots": [{"module": "bits", "reason": "root"}],
                    "batches": {"baselines": [{"check": "import-modules", "usable": False, "note": note}]}})
    err = capsys.readouterr().err
    assert "warning: check 'import-modules'" in err and "own bits._ext is not in the source tree" in err
    assert "a compiled extension, or a file its build writes" in err  # lz4 4.4.5's lz4._version: setuptools_scm


def test_an_unbuilt_extension_imported_from_its_package_gets_the_same_hint(capsys):
    """bcrypt 3.2.2's ``from . import _bcrypt`` (a cffi module its build writes) fails as "cannot import name", not
    "No module named": the hint said to add what the original needs to [verify] requirements."""
    from slimfork.commands.shrink import print_unusable

    note = ("0 of 2 modules import in the original; not counted: bits (ImportError: cannot import name '_ext' from "
            "partially initialized module 'bits' (most likely due to a circular import) (/x/bits/__init__.py))")
    print_unusable({"roots": [{"module": "bits", "reason": "root"}], "kept": [{"module": "bits"}],
                    "batches": {"baselines": [{"check": "import-modules", "usable": False, "note": note}]}})
    err = capsys.readouterr().err
    assert "own bits._ext is not in the source tree: a compiled extension, or a file its build writes" in err


def test_a_missing_dependency_is_named_in_the_hint_though_the_note_is_cut(capsys):
    from slimfork.commands.shrink import print_unusable

    note = ('pytest did not run (exit 1): File "/x/_pytest/config/__init__.py", line 885, in import_plugin | '
            + "x" * 200 + ' | ImportError: Error importing plugin "sphinx.testing.fixtures": No module named '
            "'sphinx'")
    print_unusable({"roots": [{"module": "sphinxcontrib.x", "reason": "root"}],
                    "batches": {"baselines": [{"check": "pytest", "usable": False, "note": note}]}})
    err = capsys.readouterr().err
    assert "..." in err and "which lacks sphinx;" in err  # the note is cut before the module; the hint names it


def test_the_plans_warnings_are_printed_after_the_summary(tmp_path, capsys):
    """The terminal said "0 uncertain, 1 warnings" and nothing else (dunamai's warning was in report.md only)."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("X = 1\n")
    (root / "pkg" / "bad.py").write_text("def broken(:\n")
    (root / "slimfork.toml").write_text('source = "."\nroots = ["pkg.**"]\ntests = []\n')
    assert main(["shrink", str(root / "slimfork.toml"), "--out", str(tmp_path / "fork"), "--no-verify"]) == 0
    out, err = capsys.readouterr()
    assert "0 uncertain, 1 warning." in out
    assert "warning: " in err and "pkg/bad.py" in err


def test_pytest_stopping_and_a_failed_build_get_their_own_hints(capsys):
    """crcmod 1.7's test module calls ``unittest.main()`` at import (pytest: INTERNALERROR), and whitenoise
    6.12.0's build needed a newer setuptools: neither is a missing dependency, which the hint said."""
    from slimfork.commands.shrink import print_unusable

    print_unusable({"roots": [], "batches": {"baselines": [
        {"check": "pytest", "usable": False,
         "note": "0 of 1 tests pass in the original; ... (first: pytest::internal: internal error)"},
        {"check": "install", "usable": False, "note": "the original does not install: pip: ValueError: invalid "
                                                      "pyproject.toml config: `project.license`."}]}})
    err = capsys.readouterr().err
    first, second = err.split("warning: ")[1:]
    assert "INTERNALERROR" in first and 'skip = ["pytest"]' in first and "dependencies" not in first
    assert "does not build" in second and 'skip = ["install"]' in second and "dependencies" not in second


def test_python_dash_m_of_a_missing_module_is_named_in_the_hint(capsys):
    """``python -m pytest`` without pytest says ``No module named pytest``, unquoted: the hint said only "install
    the project's dependencies" (bottle 0.13.4, hyperframe 6.1.0, a fresh venv)."""
    from slimfork.commands.shrink import print_unusable

    note = "pytest did not run (exit 1): /venv/bin/python: No module named pytest"
    assert print_unusable({"roots": [{"module": "bottle", "reason": "root"}],
                           "batches": {"baselines": [{"check": "pytest", "usable": False, "note": note}]}}) == 1
    assert "which lacks pytest;" in capsys.readouterr().err


def test_a_filterwarnings_module_pytest_cannot_import_is_named_in_the_hint(capsys):
    """truststore 0.10.5's ``filterwarnings = ["error", "default::urllib3.exceptions.InsecureRequestWarning"]``
    stopped pytest in a venv without urllib3, and the hint said only "add what the original needs there"."""
    from slimfork.commands.shrink import print_unusable

    note = ("pytest did not run (exit 1): ... | pytest.PytestConfigWarning: Failed to import filter module 'urllib3': "
            "default::urllib3.exceptions.InsecureRequestWarning")
    assert print_unusable({"roots": [{"module": "truststore", "reason": "root"}],
                           "batches": {"baselines": [{"check": "pytest", "usable": False, "note": note}]}},
                          venv=True) == 1
    assert "the venv of [verify] requirements, which lacks urllib3" in capsys.readouterr().err


def test_a_check_that_ran_without_a_dependency_is_a_warning_and_the_summary_counts_it(tmp_path, capsys):
    """ftfy 6.3.1 without ``wcwidth``: "1 of 16 modules import in the original", the check usable, no warning, and
    the summary said "0 warnings" under a pytest warning. Now each check that verified less says so, and the
    summary counts the check warnings printed above it."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("X = 1\n")
    (root / "pkg" / "extra.py").write_text("import not_installed_dependency_xyz\n")
    (root / "slimfork.toml").write_text('source = "."\nroots = ["pkg.**"]\ntests = []\n'
                                        '[checks]\nskip = ["install", "pytest"]\n')
    assert main(["shrink", str(root / "slimfork.toml"), "--out", str(tmp_path / "fork")]) == 0
    out, err = capsys.readouterr()
    assert "warning: check 'import-modules' ran on the original without not_installed_dependency_xyz" in err
    assert "which lacks not_installed_dependency_xyz" in err
    assert "0 uncertain, 0 warnings, 1 check warning (above)." in " ".join(out.split())


def test_with_verify_requirements_the_hint_names_their_venv(capsys):
    """zope.deprecation 5.0's accepted draft (``requirements = ["setuptools"]``): the venv's setuptools has no
    ``pkg_resources``, and the hint said the interpreter running slimfork lacked it and to name it in [verify]
    requirements, which the spec did."""
    from slimfork.commands.shrink import print_unusable

    note = ("0 of 5 modules import in the original; not counted: zope (ModuleNotFoundError: No module named "
            "'pkg_resources')")
    baselines = {"batches": {"baselines": [{"check": "import-modules", "usable": False, "note": note}]},
                 "roots": [{"module": "zope.deprecation", "reason": "root"}]}
    assert print_unusable(baselines, venv=True) == 1
    err = capsys.readouterr().err
    assert "the venv of [verify] requirements, which lacks pkg_resources" in err
    assert "interpreter running slimfork" not in err
    print_unusable(baselines)
    assert "interpreter running slimfork, which lacks pkg_resources" in capsys.readouterr().err


def test_what_the_checks_put_back_is_said_on_the_terminal(tmp_path, capsys):
    """pytest-httpserver 1.1.0 with ``drop = ["entry-point:pytest11:*"]``: its tests need the plugin's fixture, the
    checks put the entry point back, and the terminal said only "0 uncertain, 1 warning" (report.md's Restored
    section was the one place that said so)."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("X = 1\n")
    (root / "pkg" / "extra.py").write_text("def f():\n    return 2\n")
    (root / "tests").mkdir()
    (root / "tests" / "test_extra.py").write_text(
        "import codecs, importlib\n\ndef test_f():\n"  # a name no analysis works out (rot13 of pkg.extra)
        "    assert importlib.import_module(codecs.decode('cxt.rkgen', 'rot13')).f() == 2\n")
    (root / "slimfork.toml").write_text('source = "."\nroots = ["pkg"]\ntests = ["tests"]\n'
                                        '[checks]\nskip = ["install"]\n')
    assert main(["shrink", str(root / "slimfork.toml"), "--out", str(tmp_path / "fork")]) == 0
    out, err = capsys.readouterr()
    assert "put back: pkg/extra.py (" in err and "failed without it: tests" in err and "test_extra" in err
    assert "1 planned edit put back by the checks (above)." in out
    assert (tmp_path / "fork" / "pkg" / "extra.py").is_file()


def test_no_restore_no_line(capsys):
    from slimfork.commands.shrink import print_restored

    assert print_restored({"batches": {"batches": [{"restored": []}]}}) == 0 and capsys.readouterr().err == ""


def test_an_own_folder_shadowed_by_an_installed_distribution_is_said(capsys):
    """yarl 1.9.4's in-tree build backend is the namespace folder ``packaging/pep517_backend``; in the venv PyPI's
    ``packaging`` wins, so "4 of 12 modules import in the original" and the check verified the rest silently
    (its missing modules were the project's own, which the "not built" hint is for only when unusable)."""
    from slimfork.commands.shrink import print_unusable

    note = ("4 of 12 modules import in the original; not counted: packaging.pep517_backend (ModuleNotFoundError: "
            "No module named 'packaging.pep517_backend'); packaging.pep517_backend.hooks (ModuleNotFoundError: "
            "No module named 'packaging.pep517_backend')")
    data = {"roots": [{"module": "yarl"}, {"module": "packaging.pep517_backend.hooks"}],
            "kept": [{"module": "packaging.pep517_backend", "path": "packaging/pep517_backend/__init__.py"}],
            "batches": {"baselines": [{"check": "import-modules", "usable": True, "note": note}]}}
    assert print_unusable(data, venv=True) == 1
    err = capsys.readouterr().err
    assert "ran on the original without the project's own packaging.pep517_backend, so it verified only the rest" in err
    assert "packaging imports from an installed distribution of that name" in err and "lacks" not in err
    data["kept"] = []  # not in the source (a module its build writes): the usable check stays quiet
    assert print_unusable(data, venv=True) == 0


def test_another_platforms_standard_library_is_no_requirement_to_add(capsys):
    """findpython 0.6.2's ``pep514tools`` imports ``_winreg`` (winreg's Python 2 name): the hint said to add what
    provides it to [verify] requirements ("yaml is PyYAML's"); nothing does, on Linux."""
    from slimfork.commands.shrink import print_unusable

    note = ("14 of 18 modules import in the original; not counted: pkg.win (ModuleNotFoundError: No module named "
            "'_winreg'); pkg.reg (ModuleNotFoundError: No module named 'winreg')")
    data = {"roots": [{"module": "pkg"}], "batches": {"baselines": [{"check": "import-modules", "note": note}]}}
    assert print_unusable(data, venv=True) == 1
    err = capsys.readouterr().err
    assert "ran on the original without _winreg, winreg, the standard library's on another platform" in err
    assert "nothing provides _winreg, winreg on this platform" in err and "PyYAML" not in err
    data["batches"]["baselines"][0]["note"] = note + "; pkg.y (ModuleNotFoundError: No module named 'yaml')"
    assert print_unusable(data, venv=True) == 1
    assert "lacks yaml" in capsys.readouterr().err
    # httplib2 0.32.1's Python 2 tests: BaseHTTPServer is Python 2's; only nose is a requirement to add
    data["batches"]["baselines"][0]["note"] = note.replace("'winreg'", "'BaseHTTPServer'") + (
        "; pkg.z (ModuleNotFoundError: No module named 'nose')")
    assert print_unusable(data, venv=True) == 1
    err = capsys.readouterr().err
    assert "lacks nose:" in err and "BaseHTTPServer" not in err.partition("hint:")[2]


def test_a_plugin_written_for_an_older_pytest_gets_its_own_hint(capsys):
    """tldextract 5.1.2's drafted test extra brings pytest-gitignore 1.3, whose ``pytest_ignore_collect(path,
    config)`` pytest 9 no longer calls: pytest stopped before collecting, and the hint said only "add what the
    original needs there"."""
    from slimfork.commands.shrink import print_unusable

    note = ("pytest did not run (exit 3): pluggy._manager.PluginValidationError: Plugin 'gitignore' for hook "
            "'pytest_ignore_collect' | hookimpl definition: pytest_ignore_collect(path, config) | Argument(s) "
            "{'path'} are declared in the hookimpl but can not be found in the hookspec")
    data = {"roots": [{"module": "pkg"}], "batches": {"baselines": [{"check": "pytest", "usable": False,
                                                                     "note": note}]}}
    assert print_unusable(data, venv=True) == 1
    err = capsys.readouterr().err
    assert "pytest cannot load its plugin gitignore: a plugin written for an older pytest" in err
    assert "add pytest<9 to [verify] requirements, or leave the plugin out" in err


def test_a_public_module_of_a_shared_namespace_is_not_only_called_unbuilt(capsys):
    """zope.schema 7.0.1: ``zope.interface`` (another distribution's part of the ``zope`` namespace) was "the
    project's own zope.interface ... a compiled extension, or a file its build writes" and nothing else."""
    from slimfork.commands.shrink import print_unusable

    note = ("1 of 24 modules import in the original; not counted: zope.schema (ModuleNotFoundError: No module named "
            "'zope.interface')")
    data = {"roots": [{"module": "zope"}, {"module": "zope.schema"}],
            "batches": {"baselines": [{"check": "import-modules", "usable": False, "note": note}]}}
    assert print_unusable(data, venv=True) == 1
    err = capsys.readouterr().err
    assert "a compiled extension, or a file its build writes" in err
    assert "or, where zope is a namespace package other distributions share, it is theirs" in err
    data["batches"]["baselines"][0]["note"] = note.replace("zope.interface", "zope._ext")
    assert print_unusable(data, venv=True) == 1
    assert "namespace" not in capsys.readouterr().err  # a private name: an extension or a built file


def test_options_of_a_plugin_not_installed_name_the_plugin(capsys):
    """pydash 8.1.0's pyproject addopts pass --cov options: without pytest-cov, pytest stops on them ("unrecognized
    arguments"), and the hint said only "add what the original needs"."""
    from slimfork.commands.shrink import print_unusable

    note = ("pytest did not run (exit 4): python -m pytest: error: unrecognized arguments: --no-cov-on-fail "
            "--cov-fail-under=100 -n4 | inifile: /x/pyproject.toml")
    print_unusable({"roots": [], "batches": {"baselines": [{"check": "pytest", "usable": False, "note": note}]}},
                   venv=True)
    err = capsys.readouterr().err
    assert "need pytest-cov, pytest-xdist: add them to [verify] requirements" in err
    assert "--no-cov-on-fail" in err and "-n4" in err


def test_an_extension_the_build_makes_is_the_projects_own_whatever_the_roots(tmp_path, capsys):
    """pyahocorasick 2.3.1 with a hand-written ``roots = ["etc.**"]`` (its Python is tooling; setup.py builds the
    extension ``ahocorasick`` alone): the tests import the unbuilt extension, and the hint said to add what provides
    ahocorasick, as though it were a dependency."""
    root = tmp_path / "proj"
    (root / "etc").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "etc" / "__init__.py").write_text("")
    (root / "etc" / "tool.py").write_text("X = 1\n")
    (root / "tests" / "test_fast.py").write_text("import fastmod_xyz\n\n\ndef test_x():\n    assert fastmod_xyz\n")
    (root / "setup.py").write_text('from setuptools import Extension, setup\n\n'
                                   'setup(name="fastmod", ext_modules=[Extension("fastmod_xyz", ["fast.c"])])\n')
    (root / "fast.c").write_text("int x;\n")
    (root / "slimfork.toml").write_text('source = "."\nroots = ["etc.**"]\ntests = ["tests"]\n'
                                        '[checks]\nskip = ["install", "import-modules"]\n')
    assert main(["shrink", str(root / "slimfork.toml"), "--out", str(tmp_path / "fork"), "--json"]) == 0
    err = capsys.readouterr().err
    assert "warning: check 'pytest' could not run on the original" in err, err
    assert "own fastmod_xyz (an extension its build makes: setup.py:3) is not in the source tree" in err
    assert "add what provides" not in err and "lacks fastmod_xyz" not in err


def test_pywin32s_modules_are_another_platforms(capsys):
    """execnet 2.1.2's ``script/socketserverservice.py`` imports pywin32's ``servicemanager``: the hint said to add
    what provides it to [verify] requirements; pip installs pywin32 on Windows alone."""
    from slimfork.commands.shrink import print_unusable

    note = ("14 of 15 modules import in the original; not counted: pkg.service (ModuleNotFoundError: No module "
            "named 'servicemanager')")
    data = {"roots": [{"module": "pkg"}], "batches": {"baselines": [{"check": "import-modules", "note": note}]}}
    assert print_unusable(data, venv=True) == 1
    err = capsys.readouterr().err
    assert "nothing provides servicemanager on this platform" in err and "add what provides" not in err


def test_tests_failing_on_an_unbuilt_extension_of_a_package_are_said(tmp_path, capsys):
    """zope.hookable 8.4: the C extension ``zope.hookable._zope_hookable`` beside its Python fallback; its tests
    of the extension failed on the unbuilt original (21 of 42) and the checked run said nothing."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "pkg" / "__init__.py").write_text("try:\n    from pkg._speedups import f\nexcept ImportError:\n"
                                              "    def f():\n        return 1\n")
    (root / "pkg" / "_speedups.c").write_text("int x;\n")
    (root / "tests" / "test_f.py").write_text("import pkg\n\n\ndef test_python():\n    assert pkg.f() == 1\n\n\n"
                                              "def test_c():\n    from pkg import _speedups\n")
    (root / "setup.py").write_text('from setuptools import Extension, setup\n\n'
                                   'setup(name="pkg", ext_modules=[Extension("pkg._speedups", ["pkg/_speedups.c"])])\n')
    (root / "slimfork.toml").write_text('source = "."\nroots = ["pkg"]\ntests = ["tests"]\n'
                                        '[checks]\nskip = ["install"]\n')
    assert main(["shrink", str(root / "slimfork.toml"), "--out", str(tmp_path / "fork"), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "warning: check 'pytest' ran on the original with 1 of 2 tests failing" in err, err
    assert "own extension pkg._speedups (setup.py:3) is not built in the source tree" in err
    (root / "pkg" / "_speedups.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")  # built: nothing to say
    from slimfork.source.compiled_modules import unbuilt_extensions
    assert unbuilt_extensions(root) == {}


def test_what_only_a_folder_with_its_own_requirements_lacks_is_said(tmp_path, capsys):
    """parse_type 0.6.6's invoke ``tasks/`` import ``path``, which ``tasks/py.requirements.txt`` lists: the hint
    said to add what provides ``path`` as though the project needed it."""
    from slimfork.commands.shrink import print_unusable

    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "py.requirements.txt").write_text("invoke >=1.7.0\npath >= 13.1.0; python_version >= '3.5'\n")
    note = ("35 of 42 modules import in the original; not counted: tasks (ModuleNotFoundError: No module named "
            "'path'); tasks._path (ModuleNotFoundError: No module named 'path')")
    data = {"roots": [{"module": "pkg"}], "batches": {"baselines": [{"check": "import-modules", "note": note}]}}
    assert print_unusable(data, venv=True, root=tmp_path) == 1
    err = capsys.readouterr().err
    assert "the modules named that lack path are all in tasks/, whose tasks/py.requirements.txt lists it" in err
    assert "add its lines to [verify] requirements to check tasks/ too" in err
    assert "add what provides" not in err
    note += "; tools.x (ModuleNotFoundError: No module named 'path')"  # another folder too: the plain hint
    data["batches"]["baselines"][0]["note"] = note
    assert print_unusable(data, venv=True, root=tmp_path) == 1
    assert "add what provides" in capsys.readouterr().err


def test_modules_one_error_names_together_are_alternatives(capsys):
    """qtconsole 5.7.2's tests stopped on one error naming the three Qt bindings qtpy tries in turn; the hint said
    to add all three, where one is enough."""
    from slimfork.commands.shrink import print_unusable

    note = ("pytest did not run (exit 4): PyQt5.QtCore: No module named 'PyQt5' | PyQt6.QtCore: No module named "
            "'PyQt6' | PySide6.QtCore: No module named 'PySide6'")
    print_unusable({"roots": [{"module": "qtc", "reason": "root"}],
                    "batches": {"baselines": [{"check": "pytest", "usable": False, "note": note}]}}, venv=True)
    err = capsys.readouterr().err
    assert "which lacks one of PyQt5, PyQt6, PySide6 (the one error that stopped the check names each" in err, err
    assert "add what provides one there" in err
    note = ("0 of 2 modules import in the original; not counted: a (ModuleNotFoundError: No module named 'xa'), "
            "b (ModuleNotFoundError: No module named 'xb')")
    print_unusable({"roots": [{"module": "a", "reason": "root"}],
                    "batches": {"baselines": [{"check": "import-modules", "usable": False, "note": note}]}}, venv=True)
    err = capsys.readouterr().err
    assert "which lacks xa, xb: add what provides them" in err, err  # two modules' errors: both are needed


def test_a_missing_module_that_is_a_fixture_folder_of_the_tree_is_no_dependency(tmp_path, capsys):
    """argcomplete 3.7.2's ``test/test_package/`` (its own ``setup.py``), which its tests install: the hint said to
    add what provides ``test_package`` to [verify] requirements."""
    from slimfork.commands.shrink import print_unusable

    (tmp_path / "test" / "test_package").mkdir(parents=True)
    (tmp_path / "test" / "test_package" / "setup.py").write_text("")
    note = ("20 of 22 modules import in the original; not counted: test.test_package.setup (ModuleNotFoundError: "
            "No module named 'setuptools'); test.test_package.test_module (ModuleNotFoundError: No module named "
            "'test_package')")
    baselines = {"batches": {"baselines": [{"check": "import-modules", "usable": True, "note": note}]},
                 "roots": [{"module": "argcomplete", "reason": "root"}]}
    assert print_unusable(baselines, venv=True, root=tmp_path) == 1
    err = capsys.readouterr().err
    assert "which lacks setuptools: add what provides it there" in err
    assert "test_package is the source's own test/test_package/, a test fixture" in err
    assert "lacks setuptools, test_package" not in err.split("hint:")[1]
