"""A test passing the name of a module a scanned registry's cut removes tests a removed entry: transliterate
1.10.2's ``TranslipsumGenerator(language_code="ka")`` looks up the Georgian pack its directory scan registered; with
``keep = ["ru", "ru.*"]`` six such tests failed in the fork. They go, as tests naming a removed registry key; a name
a kept module of the package also has decides nothing."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

DISCOVER = """import importlib
import pkgutil

import pkg.langs

PACKS = {}


def discover():
    for _, name, _ in pkgutil.iter_modules(pkg.langs.__path__):
        PACKS[name] = importlib.import_module(f"pkg.langs.{name}.pack").CODE


def code_of(language):
    discover()
    return PACKS[language]
"""
FILES = {
    "pkg/__init__.py": "",
    "pkg/discover.py": DISCOVER,
    "pkg/langs/__init__.py": "",
    "pkg/langs/ru/__init__.py": "",
    "pkg/langs/ru/pack.py": "CODE = 'RU'\n",
    "pkg/langs/ka/__init__.py": "",
    "pkg/langs/ka/pack.py": "CODE = 'KA'\n",
    "tests/__init__.py": "",
    "tests/test_langs.py": "from pkg.discover import code_of\n\n\ndef test_ru():\n    assert code_of('ru') == 'RU'\n\n\n"
                           "def test_ka():\n    assert code_of('ka') == 'KA'\n",
}
SPEC = ('source = "."\nroots = ["pkg.discover:code_of"]\ntests = ["tests"]\n[[registries]]\npackage = "pkg.langs"\n'
        'kind = "scan"\nkeep = ["ru", "ru.*"]\n[symbols]\npublic_api = "roots"\npackage_api = false\n')


def test_a_test_naming_a_removed_scanned_module_goes(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pkg/langs/ka/pack.py").exists()
    assert "test_ka" not in (fork / "tests/test_langs.py").read_text()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]


def test_a_support_module_naming_a_removed_key_as_data_stays(tmp_path):
    """SQLAlchemy 2.1.9's ``testing/profiles_file.py`` (no test in it) maps ``"mssql": "mssql"``; a SQLite fork
    removed it whole as a test naming a removed dialect (its ``ProfilesFile.test_keys`` counted as a test), and
    ``testing/profiling.py``, kept, could not import it: pytest stopped with an INTERNALERROR. A module-level string
    of a file pytest collects no test from is data, and so is any string of a file pytest does not collect
    (``test/requirements.py``'s ``DefaultRequirements`` went for an ``only_on(["oracle"])`` in one method)."""
    files = {**FILES,
             "tests/names.py": "CODES = {'ru': 'RU', 'ka': 'KA'}\n\n\nclass Codes:\n    def test_keys(self):\n"
                               "        return CODES.keys()\n",
             "tests/helpers.py": "from tests.names import CODES\n\n\nclass Expect:\n    def only_on(self):\n"
                                 "        return ['ka']\n\n    def expected(self, lang):\n"
                                 "        return CODES[lang]\n\n\ndef expected(lang):\n"
                                 "    return Expect().expected(lang)\n",
             "tests/test_langs.py": "from pkg.discover import code_of\nfrom tests.helpers import expected\n\n\n"
                                    "def test_ru():\n    assert code_of('ru') == expected('ru')\n"}
    root = write_project(tmp_path, files, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert (fork / "tests/names.py").exists()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]
