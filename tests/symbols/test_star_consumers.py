"""A star import keeps only what its consumers use, where no public API rule asks for more (PyYAML's
``yaml/__init__.py`` star-imports every module; with ``public_api = "roots"`` and ``package_api = false`` a loader
fork kept the dumper, the emitter, the serializer and the representer, ~1,800 lines, because a star import always
stayed and its module kept every name). Unknown consumers keep everything: a module reading its own namespace
(``globals()``) keeps every name its star imports bind, and a star import after a binding of the same name
replaces it, so the source's name stays."""

from __future__ import annotations

import subprocess
import sys

from tests.mapping.registrykit import write_project

from slimfork.api import shrink

FILES = {
    "pkg/__init__.py": '__version__ = "1.0"\n\nfrom .errors import *\nfrom .loader import *\nfrom .dumper import *\n'
                       'from .writer import *\n',
    "pkg/errors.py": 'class PkgError(Exception):\n    pass\n\n\nclass OtherError(Exception):\n    pass\n',
    "pkg/loader.py": '__all__ = ["Loader"]\n\nfrom .errors import *\nfrom .reader import *\n\n\nclass Loader(Reader):\n'
                     '    name = "loader"\n\n    def fail(self):\n        raise OtherError()\n',
    "pkg/reader.py": '__all__ = ["Reader"]\n\n\nclass Reader:\n    pass\n',
    "pkg/dumper.py": '__all__ = ["Dumper"]\n\nfrom .emitter import *\n\n\nclass Dumper(Emitter):\n    pass\n',
    "pkg/emitter.py": '__all__ = ["Emitter", "emit"]\n\n\nclass Emitter:\n    pass\n\n\ndef emit():\n'
                      '    return "emitted"\n',
    # a sibling star import inside a package whose __init__ imports the module: no import cycle holds it
    "pkg/writer.py": 'from .emitter import *\nfrom .fmt import *\n\n\ndef write():\n    return emit()\n',
    "pkg/fmt.py": 'def fmt_unused():\n    return 1\n',
    # a module that is no API: its own names and its star source's go when unused
    "pkg/helpers.py": 'from .util import *\n\n\ndef used():\n    return twice(2)\n\n\ndef unused():\n'
                      '    return half(2)\n',
    "pkg/util.py": 'def twice(x):\n    return 2 * x\n\n\ndef half(x):\n    return x / 2\n\n\ndef third(x):\n'
                   '    return x / 3\n',
    # unknown consumers: globals() may read any name a star import binds
    "pkg/dyn.py": 'from .tables import *\n\n\ndef lookup(name):\n    return globals()[name]\n',
    "pkg/tables.py": 'def alpha():\n    return "a"\n\n\ndef beta():\n    return "b"\n',
    # a star import after the module's own binding replaces it
    "pkg/shadow.py": 'def value():\n    return "own"\n\n\nfrom .late import *  # noqa: E402\n\nFIRST = early()\n\n\n'
                     'def early():\n    return "own early"\n',  # early() runs before the own def: late's
    "pkg/late.py": 'def value():\n    return "late"\n\n\ndef early():\n    return "late early"\n',
    "pkg/cli.py": 'import pkg\nfrom pkg.dyn import lookup\nfrom pkg.helpers import used\nfrom pkg.loader import Loader\n'
                  'from pkg.shadow import FIRST, value\n\n'
                  'print(Loader().name, pkg.write(), used(), lookup("alpha")(), value(), FIRST)\n',
    # reads one name off the package it imports by name: that name, not every name the package's stars bind
    "scripts/version.py": 'print(__import__("pkg").__version__)\n',
}
SPEC = """source = "."
packages = ["pkg"]
roots = ["pkg.cli"]
tests = []

[symbols]
public_api = "roots"
package_api = false
"""


def _run(tree, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=tree, capture_output=True, text=True,
                          env={"PYTHONPATH": str(tree)})


def _shrink(tmp_path, spec: str = SPEC):
    root = write_project(tmp_path, FILES, spec)
    result = shrink(root / "slimfork.toml", out=tmp_path / "fork", jobs=1)
    assert result.apply.restored == []
    return root, result.out


def test_a_star_import_keeps_only_what_its_consumers_use(tmp_path):
    root, fork = _shrink(tmp_path)
    expected = "loader emitted 4 a late late early\n"
    assert _run(root, "-m", "pkg.cli").stdout == expected
    done = _run(fork, "-m", "pkg.cli")
    assert done.stdout == expected, done.stderr
    assert _run(fork, "scripts/version.py").stdout == "1.0\n"
    # nothing uses the dumper: the package's star import of it goes, and with it the module
    assert not (fork / "pkg/dumper.py").exists()
    assert "dumper" not in (fork / "pkg/__init__.py").read_text()
    # writer's star import of fmt binds nothing writer uses: it goes (the package's imports make no cycle of it)
    assert not (fork / "pkg/fmt.py").exists() and "fmt" not in (fork / "pkg/writer.py").read_text()
    # a module that is no API: its unused names go, and so do those of its star source
    helpers, util = (fork / "pkg/helpers.py").read_text(), (fork / "pkg/util.py").read_text()
    assert "def used" in helpers and "def unused" not in helpers
    assert "def twice" in util and "def half" not in util and "def third" not in util
    # emitter's literal __all__ promises nothing under public_api = "roots": it loses the class nothing uses
    emitter = (fork / "pkg/emitter.py").read_text()
    assert "class Emitter" not in emitter and '__all__ = ["emit"]' in emitter
    # unknown consumers keep everything: globals() may read beta; late's value replaces shadow's own
    assert "def beta" in (fork / "pkg/tables.py").read_text()
    late = (fork / "pkg/late.py").read_text()
    assert "def value" in late and "def early" in late  # and the module's code between them reads late's early


def test_under_the_default_public_api_a_kept_modules_all_stays_whole(tmp_path):
    _, fork = _shrink(tmp_path, SPEC.replace('public_api = "roots"\n', ""))
    emitter = (fork / "pkg/emitter.py").read_text()
    assert "class Emitter" in emitter and '__all__ = ["Emitter", "emit"]' in emitter


TESTS = {
    # a test helper's class derives from pkg.Loader, which the fork's package no longer binds: the class goes as
    # a unit of the tests, and the test using it with it
    "tests/helper.py": "import pkg\n\n\nclass HelperLoader(pkg.Loader):\n    pass\n",
    "tests/test_pkg.py": """
        import helper
        from pkg.loader import Loader


        def test_helper():
            assert helper.HelperLoader().name == "loader"


        def test_other():  # pkg loses its star import of errors; loader's __all__ does not pass OtherError on
            import pkg
            assert pkg.OtherError


        def test_loader():
            assert Loader().name == "loader"


        def test_dumper():
            from pkg import Dumper
            assert Dumper


        def test_through_the_package():
            import pkg
            assert pkg.Emitter


        def test_unused():
            from pkg.helpers import unused
            assert unused() == 1.0


        def test_used():
            from pkg.helpers import used
            assert used() == 4
        """,
}


def test_tests_of_what_a_pruned_star_import_bound_leave(tmp_path):
    """The tests stage knows a module with a star import: a name its star import no longer binds in the fork
    (``from pkg import Dumper`` once ``pkg`` lost ``from .dumper import *``) and a name the module itself lost
    (``helpers.unused``) take their tests with them, and a star import on the way binds only what its source's
    ``__all__`` lists (``pkg.OtherError``, PyYAML's ``yaml.YAMLError`` through ``loader``: its test helper
    ``canonical.py``, ``class CanonicalError(yaml.YAMLError)``, failed to import in the fork; a class is a unit the
    tests stage removes). The others stay and pass."""
    root = write_project(tmp_path, {**FILES, **TESTS}, SPEC.replace("tests = []", 'tests = ["tests"]'))
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    text = (fork / "tests/test_pkg.py").read_text()
    assert "def test_loader" in text and "def test_used" in text
    assert "class HelperLoader" not in (fork / "tests/helper.py").read_text()
    assert "def test_helper" not in text and "def test_dumper" not in text and "def test_unused" not in text and "def test_through_the_package" \
        not in text and "def test_other" not in text
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "2 passed" in done.stdout, done.stdout[-2000:]
