"""A ``setup.py`` outside the packages that looks nothing up by name: a module name in its strings (asn1crypto's
``PACKAGE_NAME = 'asn1crypto'``, used for ``'%s_tests' % PACKAGE_NAME`` and the egg-info path) names what to build, not
a namespace to read. It used to keep every name of the package's ``__init__`` ("may be looked up by name"), and so
``load_order()``, whose strings name every module: with ``public_api = "roots"`` the fork kept the whole library.
A setup.py that does look names up (``import_module(NAME).__version__``, ``getattr``, ``exec``) keeps the old rule."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

SETUP = """
import os
from setuptools import setup

PACKAGE_NAME = 'apkg'
ROOT = os.path.dirname(os.path.abspath(__file__))
tests_require = ['%s_tests' % PACKAGE_NAME]
{extra}
setup(name=PACKAGE_NAME, version='1.0', packages=[PACKAGE_NAME], tests_require=tests_require)
"""

FILES = {
    "apkg/__init__.py": """
        __all__ = ['load_order']


        def load_order():
            return ['apkg.core', 'apkg.x509', 'apkg.cms', 'apkg']
    """,
    "apkg/core.py": "def parse(data):\n    return data[::-1]\n",
    "apkg/x509.py": "from apkg.core import parse\n\n\ndef load(data):\n    return parse(data)\n",
    "apkg/cms.py": "from apkg.core import parse\n\n\ndef signed(data):\n    return parse(data) + '!'\n",
}

SPEC = 'source = "."\nroots = ["apkg.x509"]\n\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def _fork(tmp_path, extra: str = ""):
    files = dict(FILES, **{"setup.py": SETUP.format(extra=extra)})
    root = write_project(tmp_path, files, SPEC)
    shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    return tmp_path / "fork"


def test_a_package_name_in_setup_py_reads_no_name(tmp_path):
    fork = _fork(tmp_path)
    assert not (fork / "apkg/cms.py").exists()
    assert "load_order" not in (fork / "apkg/__init__.py").read_text()
    run = subprocess.run([sys.executable, "-c", "from apkg import x509; print(x509.load('ab'))"], cwd=fork,
                         capture_output=True, text=True)
    assert run.stdout.strip() == "ba", run.stderr


def test_a_setup_py_that_looks_names_up_keeps_them(tmp_path):
    fork = _fork(tmp_path, "import importlib\nORDER = importlib.import_module(PACKAGE_NAME).load_order()\n")
    assert (fork / "apkg/cms.py").exists()
    assert "load_order" in (fork / "apkg/__init__.py").read_text()


def test_getattr_in_setup_py_keeps_every_name(tmp_path):
    fork = _fork(tmp_path, "import sys\nimport apkg\nVALUE = getattr(apkg, sys.argv[-1], None)\n")
    assert "load_order" in (fork / "apkg/__init__.py").read_text()


TASKS = """
from invoke import task

PACKAGE_NAME = "apkg"
PACKAGE_SOURCE = f"src/{PACKAGE_NAME}"
{extra}

@task()
def lint(ctx):
    ctx.run(f"ruff check {PACKAGE_SOURCE} tests")
"""


def _tasks_fork(tmp_path, extra: str = ""):
    files = dict(FILES, **{"tasks.py": TASKS.replace("{extra}", extra)})
    root = write_project(tmp_path, files, SPEC)
    shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    return tmp_path / "fork"


def test_a_package_name_in_a_task_runners_script_reads_no_name(tmp_path):
    """pydash 8.1.0's invoke ``tasks.py``: ``PACKAGE_NAME = "pydash"`` for paths and commands kept every name of
    ``pydash/__init__.py`` (noxfile.py, fabfile.py, dodo.py and pavement.py are read the same way)."""
    fork = _tasks_fork(tmp_path)
    assert not (fork / "apkg/cms.py").exists() and (fork / "tasks.py").exists()
    assert "load_order" not in (fork / "apkg/__init__.py").read_text()


def test_a_task_runners_script_that_looks_names_up_keeps_them(tmp_path):
    fork = _tasks_fork(tmp_path, "ORDER = getattr(__import__(PACKAGE_NAME), 'load_order')()\n")
    assert (fork / "apkg/cms.py").exists()


PURGE = """
import sys
if "setuptools" not in sys.modules:
    raise SystemExit("setuptools not available")
VERSION = sys.modules["setuptools"].__version__
for key in list(sys.modules.keys()):
    if key.startswith(PACKAGE_NAME):
        del sys.modules[key]
"""


def test_a_purge_of_the_module_cache_reads_no_name(tmp_path):
    """mutagen 1.47.0's setup.py tests ``"setuptools" not in sys.modules``, reads ``sys.modules["setuptools"]`` and
    deletes every ``mutagen*`` module before a coverage run: ``sys.modules`` made it a script that looks names up,
    and its ``'mutagen'`` kept every name of the package (``File``, and every format). A membership test, a literal
    key and a ``del`` read no computed module's names; any other read of ``sys.modules`` still does."""
    fork = _fork(tmp_path, PURGE)
    assert not (fork / "apkg/cms.py").exists()
    fork = _fork(tmp_path / "read", PURGE + "MODULE = sys.modules[PACKAGE_NAME]\n")
    assert (fork / "apkg/cms.py").exists()
