"""The draft suggests a ``[verify]`` table: without one the checks run with the interpreter running slimfork,
which a newcomer's venv gives no pytest, so the checked run verifies no test. It lists the project's dependencies,
its test extra, a dev group's pytest plugins and what the tests import, pytest, and the plugins pytest's
configuration needs: dacite 1.9.2's ``addopts`` asks for pytest-benchmark, nameparser 2.6.0's for pytest-xdist
(``-n``); with pytest alone pytest stops with "unrecognized arguments" on the original."""

from __future__ import annotations

import json
import re
import textwrap

from slimfork.cli import main

FILES = {
    "pkg/__init__.py": "X = 1\n",
    "tests/test_x.py": "import hypothesis\nimport pkg\n\ndef test_x():\n    assert pkg.X == 1\n",
    "pyproject.toml": """
        [project]
        name = "pkg"
        version = "1.0"
        dependencies = ["attrs>=20", "tzdata; platform_system == 'Windows'"]

        [project.optional-dependencies]
        test = ["coverage"]
        docs = ["sphinx"]

        [dependency-groups]
        dev = ["ruff", "hypothesis>=6", "pytest-timeout"]

        [tool.pytest.ini_options]
        addopts = "--benchmark-skip -n 2 -p pytest_cov"
        """,
}


def _project(tmp_path):
    for rel, text in FILES.items():
        (tmp_path / "p" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "p" / rel).write_text(textwrap.dedent(text).lstrip())
    return tmp_path / "p"


def test_the_draft_suggests_the_requirements_the_tests_need(tmp_path, capsys):
    root = _project(tmp_path)
    assert main(["init", str(root), "--json"]) == 0
    verify = json.loads(capsys.readouterr().out)["verify"]
    assert verify["requirements"] == ["attrs>=20", "tzdata; platform_system == 'Windows'", "coverage",
                                      "hypothesis>=6",
                                      "pytest-timeout", "pytest", "pytest-benchmark", "pytest-xdist", "pytest-cov"]
    assert verify["plugins"] == ["pytest-benchmark (pyproject.toml addopts: --benchmark-skip)",
                                 "pytest-xdist (pyproject.toml addopts: -n)",
                                 "pytest-cov (pyproject.toml addopts: -p pytest_cov)"]


def test_accepted_the_verify_table_is_what_plan_reads(tmp_path, capsys):
    root = _project(tmp_path)
    draft = tmp_path / "spec.toml"
    assert main(["init", str(root), "--out", str(draft)]) == 0
    assert "1 commented-out suggestion" in capsys.readouterr().err
    text = draft.read_text()
    assert "# [verify]\n# requirements = [" in text
    accepted = tmp_path / "accepted.toml"
    accepted.write_text(re.sub(r"^# ", "", text, flags=re.M))
    assert main(["plan", str(accepted), "--json"]) == 0


def test_no_tests_no_verify_suggestion(tmp_path, capsys):
    (tmp_path / "p" / "pkg").mkdir(parents=True)
    (tmp_path / "p" / "pkg" / "__init__.py").write_text("X = 1\n")
    assert main(["init", str(tmp_path / "p"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verify"]["requirements"] == []


def _tree(root, files):
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text).lstrip())
    return root


def test_a_setup_py_checkout_gets_its_install_requires(tmp_path, capsys):
    """zope.deprecation 5.0, async-timeout 4.0.3: requirements in setup.py or setup.cfg only (no Requires-Dist in
    PKG-INFO, none at all in a checkout), so the draft suggested pytest alone, or nothing."""
    root = _tree(tmp_path / "p", {
        "pkg/__init__.py": "import attr\n",
        "tests/test_x.py": "import freezegun\nimport pkg\n\ndef test_x():\n    pass\n",
        "setup.py": """
            from setuptools import setup
            setup(name="pkg", install_requires=["attrs>=20"],
                  extras_require={"testing": ["pytest-mock"], "docs": ["sphinx"], "dev": ["freezegun", "black"]})
            """,
        "setup.cfg": "[options.extras_require]\ncli = click\n",
        "requirements-test.txt": "hypothesis\n",
    })
    assert main(["init", str(root), "--json"]) == 0
    verify = json.loads(capsys.readouterr().out)["verify"]
    assert verify["requirements"] == ["attrs>=20", "pytest-mock", "freezegun", "hypothesis", "pytest"]


def test_without_tests_the_draft_suggests_the_dependencies_alone(tmp_path, capsys):
    """The import and install checks need the dependencies too: a project whose tests slimfork does not find
    (zope.deprecation's ``tests.py`` inside the package) got no ``[verify]`` suggestion."""
    root = _tree(tmp_path / "p", {
        "pkg/__init__.py": "import six\n",
        "setup.cfg": "[metadata]\nname = pkg\n[options]\ninstall_requires =\n    six\n",
    })
    draft = tmp_path / "spec.toml"
    assert main(["init", str(root), "--out", str(draft)]) == 0
    text = draft.read_text()
    assert '# requirements = ["six"]' in text
    assert "(the tests included)" not in text and "pytest" not in text
    accepted = tmp_path / "accepted.toml"
    accepted.write_text(re.sub(r"^# ", "", text, flags=re.M))
    assert main(["plan", str(accepted), "--json"]) == 0


def test_dynamic_dependencies_come_from_pkg_info(tmp_path, capsys):
    """A pyproject.toml with ``dynamic = ["dependencies"]``: the sdist's PKG-INFO has them."""
    root = _tree(tmp_path / "p", {
        "pkg/__init__.py": "X = 1\n",
        "tests/test_x.py": "def test_x():\n    pass\n",
        "pyproject.toml": '[project]\nname = "pkg"\nversion = "1"\ndynamic = ["dependencies"]\n',
        "PKG-INFO": "Metadata-Version: 2.1\nName: pkg\nVersion: 1\nRequires-Dist: numpy>=1.20\n",
    })
    assert main(["init", str(root), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verify"]["requirements"] == ["numpy>=1.20", "pytest"]


def test_coverage_plugins_come_with_pytest_cov(tmp_path, capsys):
    """yarl 1.9.4: ``addopts = --cov`` and ``.coveragerc``'s ``plugins = Cython.Coverage``: coverage imports the
    plugin when pytest starts, and without Cython pytest did not run at all on the original."""
    root = _tree(tmp_path / "p", {
        "pkg/__init__.py": "X = 1\n",
        "tests/test_x.py": "def test_x():\n    pass\n",
        "setup.cfg": "[tool:pytest]\naddopts = --cov=pkg\n[coverage:run]\nplugins =\n    Cython.Coverage\n",
        "pyproject.toml": '[tool.coverage.run]\nplugins = ["covdefaults"]\n',
    })
    assert main(["init", str(root), "--json"]) == 0
    verify = json.loads(capsys.readouterr().out)["verify"]
    assert verify["requirements"] == ["pytest", "pytest-cov", "Cython", "covdefaults"]
    assert "Cython (setup.cfg [coverage:run] plugins: Cython.Coverage)" in verify["plugins"]


def test_an_extras_marker_leaves_no_dangling_and(tmp_path, capsys):
    """send2trash 2.2.0's PKG-INFO: ``Requires-Dist: pytest>=8; extra == "test"`` was drafted ``pytest>=8; and``,
    which pip cannot read."""
    root = _tree(tmp_path / "p", {
        "pkg/__init__.py": "X = 1\n",
        "tests/test_x.py": "def test_x():\n    pass\n",
        "PKG-INFO": "Metadata-Version: 2.1\nName: pkg\nVersion: 1\n"
                    'Requires-Dist: pytest>=8; extra == "test"\n'
                    'Requires-Dist: mock; python_version < "3.3" and extra == "test" and os_name == "nt"\n'
                    'Requires-Dist: pywin32; sys_platform == "win32" and extra == "nativelib"\n',
    })
    assert main(["init", str(root), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verify"]["requirements"] == [
        "pytest>=8", 'mock; python_version < "3.3" and os_name == "nt"']


def test_a_requirements_file_pin_is_a_lower_bound(tmp_path, capsys):
    """yarl 1.9.4's ``requirements/test.txt`` pins ``pytest==7.4.3``: the draft copied the pin, which an old
    release may not install on today's Python; the build files' own ranges (``attrs==21.1``) stay as declared."""
    root = _tree(tmp_path / "p", {
        "pkg/__init__.py": "import attr\n",
        "tests/test_x.py": "def test_x():\n    pass\n",
        "setup.py": 'from setuptools import setup\nsetup(name="pkg", install_requires=["attrs==21.1"])\n',
        "requirements/test.txt": "pytest==7.4.3\ncoverage[toml]==7.3.2 ; python_version >= '3.8'\nmock>=4\n",
    })
    draft = tmp_path / "spec.toml"
    assert main(["init", str(root), "--out", str(draft), "--json"]) == 0
    verify = json.loads(capsys.readouterr().out)["verify"]
    assert verify["requirements"] == ["attrs==21.1", "pytest>=7.4.3", "coverage[toml]>=7.3.2; python_version >= '3.8'",
                                      "mock>=4"]
    assert "## pytest>=7.4.3: pytest==7.4.3 in a requirements file, as a lower bound" in draft.read_text()


def test_code_importing_pkg_resources_gets_a_setuptools_below_81(tmp_path, capsys):
    """PasteDeploy 2.1.1 imports ``pkg_resources`` (and zope.event 5.0's namespace ``__init__`` does through
    ``__import__``); the draft's ``setuptools`` installs a release without it, and every test failed to collect."""
    files = {"tests/test_x.py": "def test_x():\n    pass\n",
             "setup.py": 'from setuptools import setup\nsetup(name="pkg", install_requires=["setuptools>=40"])\n'}
    root = _tree(tmp_path / "p", {**files, "pkg/__init__.py": "import pkg_resources\n"})
    assert main(["init", str(root), "--json"]) == 0
    verify = json.loads(capsys.readouterr().out)["verify"]
    assert verify["requirements"] == ["setuptools>=40,<81", "pytest"]
    assert verify["notes"] == ["setuptools>=40,<81: pkg/__init__.py:1 imports pkg_resources, which setuptools 81 "
                               "and later lack"]
    bare = _tree(tmp_path / "q", {"tests/test_x.py": "def test_x():\n    pass\n",
                                  "ns/__init__.py": "__import__('pkg_resources').declare_namespace(__name__)\n",
                                  "ns/mod.py": "X = 1\n"})
    assert main(["init", str(bare), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verify"]["requirements"] == ["pytest", "setuptools<81"]



def test_the_tests_import_of_pkg_resources_is_provided_by_the_added_setuptools(tmp_path, capsys):
    """click-plugins 1.1.1.2's tests import ``pkg_resources``: the draft added ``setuptools<81`` for it and still
    noted "the tests import pkg_resources ..., which no line here provides" (the note was made before the line)."""
    root = _tree(tmp_path / "p", {"tests/test_x.py": "import pkg_resources\n\ndef test_x():\n    pass\n",
                                  "pkg/__init__.py": "X = 1\n"})
    assert main(["init", str(root), "--json"]) == 0
    verify = json.loads(capsys.readouterr().out)["verify"]
    assert "setuptools<81" in verify["requirements"]
    assert not [n for n in verify["notes"] if "no line here provides" in n], verify["notes"]


def test_setuptools_bounds_keep_extras_markers_and_old_parentheses():
    from slimfork.init.verify import _setuptools_below_81

    assert _setuptools_below_81(["setuptools (>=40)"]) == (["setuptools>=40,<81"], "setuptools>=40,<81")
    assert _setuptools_below_81(['setuptools[ssl]>=40; python_version > "3"'])[0] == [
        'setuptools[ssl]>=40,<81; python_version > "3"']
    assert _setuptools_below_81(["setuptools<70", "pytest"]) == (["setuptools<70", "pytest"], None)


def test_standard_library_backports_and_coverage_uploaders_are_not_drafted(tmp_path, capsys):
    """pyhocon 0.3.63's setup.py ``tests_require`` lists ``typing`` (pip finds no release of it for Python 3.5 and
    later, so the checks' venv would not build) and ``coveralls`` (an upload a CI runs after the tests); a note
    says why each is left out."""
    root = _tree(tmp_path / "p", {
        "pkg/__init__.py": "import pyparsing\n",
        "tests/test_x.py": "import mock\n\ndef test_x():\n    pass\n",
        "setup.py": """
            from setuptools import setup
            setup(name="pkg", install_requires=["pyparsing>=2", "enum34"],
                  tests_require=["pytest", "mock", "typing>=3.6", "coveralls", "argparse"])
            """,
    })
    draft = tmp_path / "spec.toml"
    assert main(["init", str(root), "--out", str(draft), "--json"]) == 0
    verify = json.loads(capsys.readouterr().out)["verify"]
    assert verify["requirements"] == ["pyparsing>=2", "pytest", "mock"]
    text = draft.read_text()
    assert "## not drafted: typing>=3.6 (a backport of the standard library's typing, which Python 3 has)" in text
    assert "## not drafted: enum34 (a backport of the standard library's enum" in text
    assert "## not drafted: coveralls (uploads coverage from a CI run; the tests do not import it)" in text


def test_a_line_per_python_version_all_stay_and_a_tests_require_file_pin_is_a_lower_bound(tmp_path, capsys):
    """httplib2 0.32.1: setup.py's ``tests_require=read_requirements("requirements-test.txt")`` pins pytest once per
    Python (``pytest==6.2.5;python_version<"3.9"``, ..., ``pytest==8.2.2;python_version>="3.10"``): the draft kept
    the first line of each package, so the checks' venv on Python 3.11 had no pytest, and the file's pins stayed
    exact (only the requirements files no build file names were lower bounds)."""
    root = _tree(tmp_path / "p", {
        "pkg/__init__.py": "X = 1\n",
        "tests/test_x.py": "def test_x():\n    pass\n",
        "setup.py": """
            from setuptools import setup
            def read_requirements(name):
                return open(name).read().splitlines()
            setup(name="pkg", tests_require=read_requirements("requirements-test.txt"))
            """,
        "requirements-test.txt": 'pysocks==1.7.1\npytest==6.2.5;python_version<"3.9"\n'
                                 'pytest==8.2.2;python_version>="3.10"\n',
    })
    assert main(["init", str(root), "--json"]) == 0
    verify = json.loads(capsys.readouterr().out)["verify"]
    assert verify["requirements"] == ["pysocks>=1.7.1", 'pytest>=6.2.5; python_version<"3.9"',
                                      'pytest>=8.2.2; python_version>="3.10"', "pytest"]


def test_linters_and_their_pytest_plugins_in_a_test_extra_are_not_drafted(tmp_path, capsys):
    """jaraco's ``testing`` extra (portend 3.2.1: ``pytest-mypy``, ``pytest-ruff``, ``pytest-checkdocs``) and
    httplib2 0.32.1's ``flake8`` were drafted whole: they check the project's style, not what the tests test. One
    that pytest's configuration turns on (``addopts = --flake8``), that the tests import, or that the project
    depends on stays."""
    root = _tree(tmp_path / "p", {
        "pkg/__init__.py": "import pyflakes\n",
        "tests/test_x.py": "import black\n\ndef test_x():\n    pass\n",
        "pytest.ini": "[pytest]\naddopts = --flake8\n",
        "setup.py": """
            from setuptools import setup
            setup(name="pkg", install_requires=["pyflakes"],
                  extras_require={"testing": ["pytest>=6", "pytest-mypy", "pytest-ruff>=0.2", "pytest-checkdocs",
                                              "pytest-flake8", "pytest-cov", "mypy", "flake8", "black", "pyflakes",
                                              "pre-commit", "pytest-mypy-plugins"]})
            """,
    })
    draft = tmp_path / "spec.toml"
    assert main(["init", str(root), "--out", str(draft), "--json"]) == 0
    verify = json.loads(capsys.readouterr().out)["verify"]
    assert verify["requirements"] == ["pyflakes", "pytest>=6", "pytest-flake8", "pytest-cov", "black",
                                      "pytest-mypy-plugins"]
    text = draft.read_text()
    assert ("## not drafted: pytest-mypy (a pytest plugin that adds its own lint or type checks beside the tests, "
            "which pytest's configuration does not turn on)") in text
    assert "## not drafted: pytest-ruff>=0.2 (a pytest plugin" in text
    assert "## not drafted: pytest-checkdocs (a pytest plugin" in text
    assert "## not drafted: mypy (checks the code's style or types: the tests do not import it)" in text
    assert "## not drafted: flake8 (checks" in text and "## not drafted: pre-commit (checks" in text


def test_reporter_pytest_plugins_are_not_drafted(tmp_path, capsys):
    """pytest-timeout 2.4.0's tox deps drafted ``pytest-github-actions-annotate-failures``, a plugin that only
    annotates a GitHub run: the tests run the same without it. One that pytest's configuration asks for
    (``addopts = --html=r.html``) stays."""
    root = _tree(tmp_path / "p", {
        "pkg/__init__.py": "",
        "tests/test_x.py": "def test_x():\n    pass\n",
        "pytest.ini": "[pytest]\naddopts = --html=report.html\n",
        "setup.py": """
            from setuptools import setup
            setup(name="pkg", extras_require={"test": ["pytest", "pytest-github-actions-annotate-failures",
                                                       "pytest-sugar>=1", "pytest-html", "pytest-xdist"]})
            """,
    })
    draft = tmp_path / "spec.toml"
    assert main(["init", str(root), "--out", str(draft), "--json"]) == 0
    verify = json.loads(capsys.readouterr().out)["verify"]
    assert verify["requirements"] == ["pytest", "pytest-html", "pytest-xdist"]
    text = draft.read_text()
    assert ("## not drafted: pytest-github-actions-annotate-failures (a pytest plugin that only reports the "
            "results") in text
    assert "## not drafted: pytest-sugar>=1 (a pytest plugin that only reports" in text


def test_one_requirement_quoted_two_ways_is_drafted_once(tmp_path, capsys):
    """fontTools 4.68.0: PKG-INFO's ``brotli>=1.2.1; platform_python_implementation == "CPython"`` and setup.py's
    ``"brotli >= 1.2.1; platform_python_implementation == 'CPython'"`` (the ``all`` extra) were drafted both: the
    markers differ only in their quotes and spaces, as packaging writes them."""
    root = _tree(tmp_path / "p", {
        "pkg/__init__.py": "X = 1\n",
        "tests/test_x.py": "import brotli\n\ndef test_x():\n    pass\n",
        "PKG-INFO": "Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\n"
                    'Requires-Dist: brotli>=1.2.1; platform_python_implementation == "CPython" and extra == "woff"\n',
        "setup.py": """
            from setuptools import setup
            extras = {"woff": ["brotli >= 1.2.1; platform_python_implementation == 'CPython'"]}
            extras["all"] = sum(extras.values(), [])
            setup(name="pkg", extras_require=extras)
            """,
    })
    assert main(["init", str(root), "--json"]) == 0
    verify = json.loads(capsys.readouterr().out)["verify"]
    assert [r for r in verify["requirements"] if r.startswith("brotli")] == [
        'brotli>=1.2.1; platform_python_implementation == "CPython"']


def test_the_oldest_releases_list_is_named_not_drafted(tmp_path, capsys):
    """flask-sqlalchemy 3.1.1: ``requirements/tests-min.in`` (``werkzeug<2.3``) beside ``tests.in`` joined the draft's
    venv; it is a CI run of its own, named in a note."""
    root = _tree(tmp_path / "p", {
        "pkg/__init__.py": "X = 1\n", "tests/test_x.py": "import pkg\n\ndef test_x():\n    pass\n",
        "pyproject.toml": '[project]\nname = "pkg"\nversion = "1"\ndependencies = ["flask>=2.2.5"]\n',
        "requirements/tests.in": "pytest\nblinker\n", "requirements/tests-min.in": "werkzeug<2.3\nflask==2.2.5\n",
    })
    assert main(["init", str(root), "--json"]) == 0
    verify = json.loads(capsys.readouterr().out)["verify"]
    assert verify["requirements"] == ["flask>=2.2.5", "pytest", "blinker"]
    assert any(n.startswith("not drafted: requirements/tests-min.in (the oldest releases") for n in verify["notes"])
