"""mutagen 1.47.0's exceptions and base classes set ``__module__ = "mutagen"`` in their class bodies (so they print
as ``mutagen.MutagenError``): the string named the package, "may be looked up by name", and kept every name of
``mutagen/__init__.py`` (``File``, and through it every format). Like ``f.__module__ = "pkg"``, it is a label."""

from __future__ import annotations

from tests.mapping.registrykit import write_project

from slimfork.api import analyse

FILES = {
    "pk/__init__.py": "from pk.small import f\nfrom pk.big import g\n",
    "pk/errors.py": 'class PkError(Exception):\n    """Base error."""\n\n    __module__ = "pk"\n',
    "pk/small.py": "from pk.errors import PkError\n\n\ndef f():\n    raise PkError()\n",
    "pk/big.py": "def g():\n    return 2\n",
}
SPEC = 'source = "."\nroots = ["pk.small"]\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def test_a_class_module_label_names_nothing(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    assert "pk/big.py" in analyse(root / "slimfork.toml", jobs=1).plan.removed_paths()


def test_a_module_string_elsewhere_in_a_class_still_names_the_package(tmp_path):
    files = dict(FILES, **{"pk/errors.py": 'class PkError(Exception):\n    home = "pk"\n'})
    root = write_project(tmp_path, files, SPEC)
    assert "pk/big.py" not in analyse(root / "slimfork.toml", jobs=1).plan.removed_paths()
