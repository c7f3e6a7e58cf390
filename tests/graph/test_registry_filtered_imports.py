"""A name computed at run time inside a declared registry's package names one of the modules the registry keeps:
python-stdnum's ``get_cc_module`` runs ``__import__('stdnum.%s' % cc, globals(), locals(), [name])`` for an IBAN's
country, and with ``[[registries]] package = "stdnum"`` keeping ``be.iban`` and ``es.iban`` the prefix
``'stdnum.'`` still kept all 324 modules of the package (the uncertain entry's advice was to declare the registry).
Now what the registry filters out leaves; a member's submodules stay (``fromlist`` loads them), and without a
registry every module under the prefix stays."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import analyse, shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pkg/__init__.py": "",
    "pkg/util.py": "def get_cc_module(cc, name):\n    try:\n"
                   "        mod = __import__('pkg.%s' % cc, globals(), locals(), [name])\n"
                   "    except ImportError:\n        return None\n    return getattr(mod, name, None)\n",
    "pkg/iban.py": "from pkg.util import get_cc_module\n\n\ndef check(number):\n"
                   "    module = get_cc_module(number[:2], 'iban')\n    return module is None or module.ok(number)\n",
    "pkg/be/__init__.py": "",
    "pkg/be/iban.py": "def ok(number):\n    return number.endswith('7')\n",
    "pkg/de/__init__.py": "",
    "pkg/de/vat.py": "def ok(number):\n    return True\n",
    "pkg/fr/__init__.py": "",
    "pkg/fr/iban.py": "def ok(number):\n    return False\n",
}
SPEC = 'source = "."\nroots = ["pkg.iban"]\ntests = []\n'
REGISTRY = '\n[[registries]]\npackage = "pkg"\nkeep = ["iban", "be.iban"]\n'


def _removed(root) -> set[str]:
    return {r.module for r in analyse(root / "slimfork.toml").plan.removals if r.module}


def test_a_computed_name_in_a_registry_package_keeps_only_its_members(tmp_path):
    root = write_project(tmp_path, FILES, SPEC + REGISTRY)
    assert {"pkg.de", "pkg.de.vat", "pkg.fr", "pkg.fr.iban"} <= _removed(root)
    assert not {"pkg.be", "pkg.be.iban", "pkg.util"} & _removed(root)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    done = subprocess.run([sys.executable, "-c", "from pkg.iban import check; print(check('BE17'), check('FR1'))"],
                          cwd=fork, capture_output=True, text=True)
    assert done.stdout.split() == ["True", "True"], done.stderr[-2000:]  # fr's module is gone: no check


def test_a_member_package_keeps_its_submodules(tmp_path):
    root = write_project(tmp_path, FILES, SPEC + REGISTRY.replace('"be.iban"', '"be"'))
    assert not {"pkg.be", "pkg.be.iban"} & _removed(root)
    assert "pkg.fr.iban" in _removed(root)


def test_without_a_registry_every_module_under_the_prefix_stays(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    assert not {"pkg.de.vat", "pkg.fr.iban", "pkg.be.iban"} & _removed(root)


SUFFIX_FILES = {
    "db/__init__.py": "",
    "db/engine.py": "class Dialect:\n    @classmethod\n    def load_provisioning(cls):\n"
                    "        package = '.'.join(cls.__module__.split('.')[0:-1])\n"
                    "        try:\n            __import__(package + '.provision')\n"
                    "        except ImportError:\n            pass\n",
    "db/dialects/__init__.py": "def load(name):\n    return __import__('db.dialects.%s' % (name,)).dialects\n",
    "db/dialects/lite/__init__.py": "from db.dialects.lite import base\n",
    "db/dialects/lite/base.py": "from db.engine import Dialect\n\n\nclass LiteDialect(Dialect):\n    pass\n",
    "db/dialects/lite/provision.py": "X = 1\n",
    "db/dialects/pg/__init__.py": "from db.dialects.pg import base\n",
    "db/dialects/pg/base.py": "from db.engine import Dialect\n\n\nclass PgDialect(Dialect):\n    pass\n",
    "db/dialects/pg/provision.py": "X = 2\n",
}


def test_a_computed_name_ending_in_a_suffix_keeps_only_the_registry_members(tmp_path):
    """SQLAlchemy's ``__import__(package + ".provision")`` (a package computed from ``cls.__module__``) kept every
    ``*.provision`` module, so every dialect's package, although the dialects registry kept only SQLite's."""
    spec = 'source = "."\nroots = ["db.engine", "db.dialects.lite"]\ntests = []\n'
    registry = '\n[[registries]]\npackage = "db.dialects"\nkeep = ["lite"]\n'
    root = write_project(tmp_path, SUFFIX_FILES, spec + registry)
    assert {"db.dialects.pg", "db.dialects.pg.base", "db.dialects.pg.provision"} <= _removed(root)
    assert not {"db.dialects.lite.provision", "db.dialects.lite.base"} & _removed(root)
    plain = write_project(tmp_path / "plain", SUFFIX_FILES, spec)  # no registry: every *.provision stays
    assert not {"db.dialects.pg.provision", "db.dialects.lite.provision"} & _removed(plain)


def test_a_literal_name_the_registry_package_loads_is_an_entry_too(tmp_path):
    """SQLAlchemy's dialect loader imports ``sqlalchemy.dialects.mysql.mariadb`` by a literal name for the
    "mariadb" key, beside the computed ``"sqlalchemy.dialects.%s" % dialect``: that kept the MySQL dialect of a
    SQLite fork. In the registry package's own loader it is one more entry; elsewhere a literal import stays."""
    files = {**SUFFIX_FILES,
             "db/dialects/__init__.py": "def load(name):\n    if name == 'maria':\n"
                                        "        return __import__('db.dialects.pg.base').dialects.pg.base\n"
                                        "    return __import__('db.dialects.%s' % (name,)).dialects\n",
             "db/tools.py": "import importlib\n\n\ndef pg():\n    return importlib.import_module('db.dialects.pg')\n"}
    spec = 'source = "."\nroots = ["db.engine", "db.dialects.lite"]\ntests = []\n'
    registry = '\n[[registries]]\npackage = "db.dialects"\nkeep = ["lite"]\n'
    root = write_project(tmp_path, files, spec + registry)
    assert {"db.dialects.pg", "db.dialects.pg.base"} <= _removed(root)
    elsewhere = write_project(tmp_path / "tools", files, spec.replace('"db.engine"', '"db.engine", "db.tools"')
                              + registry)
    assert not {"db.dialects.pg", "db.dialects.pg.base"} & _removed(elsewhere)
