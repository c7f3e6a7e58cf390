"""A module that leaves the fork only after symbol pruning (reached in the original through a name the roots do not
need: asn1crypto's ``load_order()`` names ``asn1crypto.pem`` in a string) can stay as test support like a module no
root reached: before, a test class's helper method that used it (``X509Tests._load_cert`` calls ``pem.unarmor``)
took every test of kept code through it out of the fork (40 of asn1crypto's ``test_x509.py`` tests)."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "sap"\nversion = "1.0"\n',
    "sap/__init__.py": "def load_order():\n    return ['sap.core', 'sap.pem', 'sap.cms']\n",
    "sap/core.py": "def load(data):\n    return data.upper()\n",
    "sap/pem.py": "def unarmor(data):\n    return data.strip('-')\n",
    "sap/cms.py": "from sap.core import load\n\n\ndef signed(data):\n    return load(data) + '!'\n",
    "tests/__init__.py": "",
    "tests/test_core.py": """
        import unittest

        from sap import core, pem


        class CoreTests(unittest.TestCase):
            def _load(self, data):
                return core.load(pem.unarmor(data))

            def test_load(self):
                self.assertEqual(self._load('--ab--'), 'AB')

            def test_plain(self):
                self.assertEqual(core.load('x'), 'X')
    """,
    "tests/test_cms.py": "from sap import cms\n\n\ndef test_signed():\n    assert cms.signed('a') == 'A!'\n",
}
SPEC = ('source = "."\nroots = ["sap.core"]\ntests = ["tests"]\n\n[symbols]\npublic_api = "roots"\n'
        'package_api = false\n')


def test_a_module_gone_after_symbol_pruning_stays_as_test_support(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert "load_order" not in (fork / "sap/__init__.py").read_text()
    assert not (fork / "sap/cms.py").exists() and not (fork / "tests/test_cms.py").exists()
    assert (fork / "sap/pem.py").is_file()  # test support: the helper of tests of kept code uses it
    assert "def test_load" in (fork / "tests/test_core.py").read_text()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "2 passed" in done.stdout, done.stdout[-2000:]


REGISTRY = {
    "pyproject.toml": '[project]\nname = "nwr"\nversion = "1.0"\n',
    "nwr/__init__.py": "from . import lang_en, lang_tt\n\nCONVERTERS = {'en': lang_en.En(), 'tt': lang_tt.Tt()}\n\n\n"
                       "def words(n, lang='en'):\n    return CONVERTERS[lang].words(n)\n",
    "nwr/lang_en.py": "class En:\n    def words(self, n):\n        return 'one' if n == 1 else '?'\n",
    "nwr/lang_tt.py": "class Tt:\n    def words(self, n):\n        return 'ida' if n == 1 else '?'\n",
    "tests/__init__.py": "",
    "tests/test_tt.py": """
        import unittest

        from nwr import words
        from nwr.lang_tt import Tt


        class TtTests(unittest.TestCase):
            def setUp(self):
                self.conv = Tt()

            def test_words(self):
                self.assertEqual(words(1, lang='tt'), 'ida')
    """,
    "tests/test_en.py": "from nwr import words\n\n\ndef test_en():\n    assert words(1) == 'one'\n",
}


def test_a_module_a_registry_cut_freed_is_no_test_support(tmp_path):
    """num2words with ``keep = ["en"]``: ``lang_TET`` left after the dict registry's cut (in the symbol stage, its
    removal is of the group "symbols"), and ``test_tet.py``'s ``setUp`` made it test support of
    ``test_cardinal_integer``, which only calls ``num2words(1, lang='tet')``: seven languages stayed, not five."""
    spec = ('source = "."\nroots = ["nwr"]\ntests = ["tests"]\n\n[[registries]]\npackage = "nwr.CONVERTERS"\n'
            'kind = "dict"\nkeep = ["en"]\n')
    root = write_project(tmp_path, REGISTRY, spec)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "nwr/lang_tt.py").exists() and not (fork / "tests/test_tt.py").exists()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]
