"""What a source declares as requirements outside its metadata: a setup.py project's checkout (or an older
sdist's PKG-INFO, with no Requires-Dist) gave the draft's ``[verify]`` none of its dependencies
(zope.deprecation 5.0, async-timeout 4.0.3)."""

from __future__ import annotations

import textwrap

from slimfork.source.declared_requirements import declared_requirements, is_test_group, read_requirement_file


def _write(root, files):
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text).lstrip())


def test_setup_py_literal_lists_and_extras(tmp_path):
    _write(tmp_path, {"setup.py": """
        from setuptools import setup
        REQUIRES = ["attrs>=20", "six"]
        setup(name="p", install_requires=REQUIRES, tests_require=["mock"],
              extras_require={"test": ["zope.testrunner"], "docs": ["Sphinx"],
                              "test:python_version < '3.8'": ["importlib_metadata"]})
        """})
    found = declared_requirements(tmp_path)
    assert found.runtime == ["attrs>=20", "six"]
    assert found.groups == {"tests_require": ["mock"], "test": ["zope.testrunner",
                            "importlib_metadata; python_version < '3.8'"], "docs": ["Sphinx"]}
    assert found.origins == ["setup.py"]


def test_setup_py_reading_a_requirements_file(tmp_path):
    _write(tmp_path, {
        "setup.py": """
            from setuptools import setup
            def reqs(name):
                with open(name) as f:
                    return f.read().splitlines()
            setup(name="p", install_requires=reqs("requirements/base.txt"))
            """,
        "requirements/base.txt": "# comment\nrequests>=2  # inline\n-r extra.txt\n-e .\n--index-url x\n",
        "requirements/extra.txt": "idna \\\n  ==3.6 --hash=sha256:abc\ngit+https://x/y.git\n",
        "requirements/test.txt": "pytest\n",
    })
    found = declared_requirements(tmp_path)
    assert found.runtime == ["requests>=2", "idna>=3.6"]  # extra.txt is read once; its pin a lower bound
    assert found.groups == {"test": ["pytest"]}


def test_setup_cfg_lists_and_file_directive(tmp_path):
    _write(tmp_path, {
        "setup.cfg": """
            [options]
            install_requires =
                typing_extensions>=3.6.5; python_version < "3.8"
                multidict>=4.0
            [options.extras_require]
            testing = pytest-asyncio
            Dev = file: dev-requirements.txt
            """,
        "dev-requirements.txt": "black\n",
    })
    found = declared_requirements(tmp_path)
    assert found.runtime == ['typing_extensions>=3.6.5; python_version < "3.8"', "multidict>=4.0"]
    assert found.groups == {"testing": ["pytest-asyncio"], "Dev": ["black"]}  # the file is read once


def test_a_one_line_setup_cfg_list_is_separated_by_semicolons(tmp_path):
    """stack_data 0.6.3's ``tests = pytest; typeguard; pygments; littleutils; cython``: setuptools reads a list
    on one line as separated by ';'; the draft had the whole line as one requirement, and pip failed on it."""
    _write(tmp_path, {
        "setup.cfg": """
            [options]
            tests_require = pytest; typeguard
            [options.extras_require]
            tests = pytest; cython; importlib-metadata; python_version < "3.8"
            """,
    })
    found = declared_requirements(tmp_path)
    assert found.groups == {"tests_require": ["pytest", "typeguard"],
                            "tests": ["pytest", "cython", 'importlib-metadata; python_version < "3.8"']}


def test_a_setup_cfg_line_ending_in_a_backslash_joins_the_next(tmp_path):
    """jaraco.path 3.5.0's ``pytest-flake8; \\`` over ``python_version < "3.12"``: setuptools joins the lines; the
    draft had the marker alone as a requirement, which pip cannot resolve. ``python_implementation`` (the marker's
    old name) starts a marker on one line too."""
    _write(tmp_path, {
        "setup.cfg": """
            [options.extras_require]
            testing =
                pytest >= 6
                pytest-black >= 0.3.7; \\
                python_implementation != "PyPy"
                pytest-cov
            other = flake8; python_implementation != "PyPy"
            """,
    })
    found = declared_requirements(tmp_path)
    assert found.groups == {"testing": ["pytest >= 6", 'pytest-black >= 0.3.7; python_implementation != "PyPy"',
                                        "pytest-cov"], "other": ['flake8; python_implementation != "PyPy"']}


def test_setuptools_dynamic_files_and_a_plain_requirements_txt(tmp_path):
    _write(tmp_path, {
        "pyproject.toml": """
            [project]
            name = "p"
            dynamic = ["dependencies", "optional-dependencies"]
            [tool.setuptools.dynamic]
            dependencies = {file = ["reqs.txt"]}
            optional-dependencies.test = {file = "test-reqs.txt"}
            """,
        "reqs.txt": "numpy\n", "test-reqs.txt": "hypothesis\n",
        "requirements.txt": "pinned==1.0\n",  # runtime is declared already: not the runtime list
    })
    found = declared_requirements(tmp_path)
    assert found.runtime == ["numpy"]
    assert found.groups == {"test": ["hypothesis"]}


def test_poetry_tables(tmp_path):
    _write(tmp_path, {"pyproject.toml": """
        [tool.poetry.dependencies]
        python = "^3.8"
        pastel = "^0.2.0"
        Werkzeug = ">= 2.0.0"
        crashtest = { version = "^0.3.0", python = "^3.6" }
        enum34 = { version = "^1.1", python = "~2.7" }
        typing = { version = "^3.6", python = "~2.7 || ~3.4", markers = "implementation_name == 'cpython'" }
        odd = { version = "1", python = "2.7 | 3" }
        extra-thing = { version = "1.2", optional = true }
        local = { path = "../local" }
        either = "^1.0 || ^2.0"
        [tool.poetry.extras]
        more = ["extra-thing"]
        [tool.poetry.dev-dependencies]
        pytest = "~4.0"
        [tool.poetry.group.test.dependencies]
        requests = { version = "*", extras = ["socks"], markers = "python_version >= '3.8'" }
        """})
    found = declared_requirements(tmp_path)
    assert found.runtime == [
        "pastel>=0.2.0", "Werkzeug>=2.0.0", 'crashtest>=0.3.0; python_version >= "3.6" and python_version < "4"',
        'enum34>=1.1; python_version >= "2.7" and python_version < "2.8"',  # clikit 0.6.2: not on Python 3
        'typing>=3.6; ((python_version >= "2.7" and python_version < "2.8") or (python_version >= "3.4" and '
        "python_version < \"3.5\")) and implementation_name == 'cpython'", "either"]  # odd's Python: not read
    assert found.groups == {"more": ["extra-thing==1.2"], "dev": ["pytest>=4.0"],
                            "test": ["requests[socks]; python_version >= '3.8'"]}


def test_pdm_and_uv_dev_dependencies(tmp_path):
    """unearth 0.17.2 lists its test dependencies in pdm's ``[tool.pdm.dev-dependencies] test`` only: the draft's
    ``[verify]`` had pytest alone, and the tests import flask and pytest-httpserver's fixture."""
    _write(tmp_path, {"pyproject.toml": """
        [tool.pdm.dev-dependencies]
        test = ["pytest>=6.1", "flask>=2.1.2", "-e file:///${PROJECT_ROOT}/../plugin#egg=plugin"]
        doc = ["sphinx"]
        [tool.uv]
        dev-dependencies = ["hypothesis"]
        """})
    found = declared_requirements(tmp_path)
    assert found.groups == {"test": ["pytest>=6.1", "flask>=2.1.2"], "doc": ["sphinx"], "dev": ["hypothesis"]}
    assert "pyproject.toml [tool.pdm.dev-dependencies]" in found.origins


def test_tox_deps_and_test_group_names(tmp_path):
    _write(tmp_path, {"tox.ini": """
        [testenv]
        deps =
            pytest-mock
            py38: backports.zoneinfo
            {env:EXTRA:}
            -rtest-requirements.txt
        """, "test-requirements.txt": "freezegun\n"})
    found = declared_requirements(tmp_path)
    assert found.groups == {"test": ["freezegun"], "tox": ["pytest-mock"]}  # the file is read once
    assert [n for n in ("test", "tests_require", "tox", "testing", "unit-tests", "dev", "docs", "contest")
            if is_test_group(n)] == ["test", "tests_require", "tox", "testing", "unit-tests"]


def test_a_requirements_file_that_includes_itself(tmp_path):
    (tmp_path / "r.txt").write_text("-r r.txt\nsix\n")
    assert read_requirement_file(tmp_path / "r.txt") == ["six"]
    assert read_requirement_file(tmp_path / "missing.txt") == []


def test_nothing_declared_and_broken_files(tmp_path):
    _write(tmp_path, {"setup.py": "setup(", "setup.cfg": "[options\n", "pyproject.toml": "[", "tox.ini": "x"})
    found = declared_requirements(tmp_path)
    assert (found.runtime, found.groups) == ([], {})


def test_an_included_file_is_read_with_its_includer(tmp_path):
    """yarl 1.9.4: ``requirements/test.txt`` says ``-r cython.txt``; the test list must hold the Cython that
    coverage's ``Cython.Coverage`` plugin needs, though ``cython.txt`` is also a list of its own, read first."""
    _write(tmp_path, {"requirements/cython.txt": "cython==3.0.6\n", "requirements/test.txt": "-r cython.txt\npytest\n",
                      "requirements/doc.txt": "sphinx\n"})
    found = declared_requirements(tmp_path)
    assert found.groups == {"cython": ["cython>=3.0.6"], "doc": ["sphinx"], "test": ["cython>=3.0.6", "pytest"]}


def test_the_oldest_releases_list_beside_a_test_list_is_not_read(tmp_path):
    """flask-sqlalchemy 3.1.1's ``requirements/tests-min.txt`` (``werkzeug<2.3``, ``flask==2.2.5``: the oldest
    releases it supports, a CI run of its own) joined ``tests.txt`` in the draft's venv, which then resolved an old
    werkzeug for every check. A ``-min`` list without its plain sibling is read as before."""
    _write(tmp_path, {
        "requirements/tests.txt": "pytest\nblinker\n",
        "requirements/tests-min.txt": "werkzeug<2.3\nflask==2.2.5\n",
        "requirements/docs-minimal.txt": "sphinx\n",
    })
    found = declared_requirements(tmp_path)
    assert found.groups == {"tests": ["pytest", "blinker"], "docs-minimal": ["sphinx"]}
    assert found.oldest == ["requirements/tests-min.txt"]
