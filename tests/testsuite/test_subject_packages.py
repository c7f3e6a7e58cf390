"""The packages above the module a test file is named after are no test support for it (workalendar 17.0.0:
``tests/test_mozambique.py`` imports ``..africa.mozambique``, which loads ``africa/__init__.py``, which imports
every African calendar; as support, they kept the Islamic and Chinese mixins of ``core.py`` in a slice of France),
and a test file that imports no reached module but through its packages (``from pkg.africa import Algeria`` in
``test_registry_africa.py``) supports nothing: it tests removed code and leaves with it."""

from __future__ import annotations

from slimfork.api import analyse, shrink
from slimfork.source.test_subjects import names_its_subject
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "1.0"\n',
    "pkg/__init__.py": "",
    "pkg/core.py": "class Base:\n    pass\n\n\nclass Islamic(Base):\n    pass\n",
    "pkg/europe/__init__.py": "from .france import France\n",
    "pkg/europe/france.py": "from ..core import Base\n\n\nclass France(Base):\n    pass\n",
    "pkg/africa/__init__.py": "from .algeria import Algeria\nfrom .mozambique import Mozambique\n",
    "pkg/africa/algeria.py": "from ..core import Islamic\n\n\nclass Algeria(Islamic):\n    pass\n",
    "pkg/africa/mozambique.py": "from ..core import Base\n\n\nclass Mozambique(Base):\n    pass\n",
    "tests/__init__.py": "",
    "tests/test_mozambique.py": "from pkg.africa.mozambique import Mozambique\n\n\n"
                                "def test_it():\n    assert Mozambique()\n",
    "tests/test_registry_africa.py": "from pkg.africa import Algeria\n\n\ndef test_it():\n    assert Algeria()\n",
    "tests/test_france.py": "from pkg.europe.france import France\n\n\ndef test_it():\n    assert France()\n",
}
SPEC = 'source = "."\nroots = ["pkg.europe:France"]\ntests = ["tests"]\n\n' \
       '[symbols]\npublic_api = "roots"\npackage_api = false\n'


def test_the_package_of_a_tests_subject_is_no_support(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    stages = analyse(root / "slimfork.toml").stages
    gone = {(p.module, n) for p in stages.symbols.pruned for n in p.names}
    assert ("pkg.core", "Islamic") in gone and ("pkg.core", "Base") not in gone
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    left = {p.relative_to(fork).as_posix() for p in fork.rglob("*.py")}
    assert not {"pkg/africa/__init__.py", "pkg/africa/algeria.py", "tests/test_mozambique.py",
                "tests/test_registry_africa.py"} & left
    assert {"tests/test_france.py", "pkg/core.py"} <= left


def test_a_test_folder_named_after_a_module_holds_its_tests():
    """mimesis 22.2.0: ``tests/test_plugins/test_factory/test_field_handlers.py`` tests the factory plugin, which
    needs the ``factory`` library; as test support it kept ``mimesis.schema.Field`` and with it every provider."""
    path = "tests/test_plugins/test_factory/test_field_handlers.py"
    assert names_its_subject(path, "mimesis.plugins.factory") and names_its_subject(path, "mimesis.plugins")
    assert not names_its_subject(path, "mimesis.exceptions")
    assert not names_its_subject("tests/unit/test_a.py", "pkg.unit")  # a folder named tests, unit: no subject
