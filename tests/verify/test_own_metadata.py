"""A project that reads its own version from its installed metadata at import (holidays' ``version.py``:
``__version__ = version("holidays")``) imports only when installed: run from a git checkout, none of its modules
imported and 289 of 307 tests failed in the original, so the checks verified almost nothing. The checks now find the
tree's distribution metadata on the path, as an installed copy's; an sdist's own ``*.egg-info`` is used as it is."""

from __future__ import annotations

from slimfork.verify.checks.pytest import PytestCheck
from slimfork.verify.env import current_env
from slimfork.verify.own_metadata import metadata_dir
from slimfork.verify.spec import PytestSpec

from tests.verify.verify_helpers import LAYOUT

ARGS = ("-p", "no:hypothesispytest", "-p", "no:benchmark", "-p", "no:xdist")


def _tree(root):
    (root / "verpkg").mkdir(parents=True)
    (root / "verpkg" / "__init__.py").write_text(
        'from importlib.metadata import version\n\n__version__ = version("verpkg")\n')
    (root / "pyproject.toml").write_text('[project]\nname = "verpkg"\nversion = "2.5"\n')
    (root / "tests").mkdir()
    (root / "tests" / "test_version.py").write_text(
        "import verpkg\n\n\ndef test_version():\n    assert verpkg.__version__ == '2.5'\n")
    return root


def test_a_package_reading_its_own_version_imports_from_the_tree(tmp_path):
    check = PytestCheck(LAYOUT, current_env(), PytestSpec(args=ARGS))
    baseline = check.baseline(_tree(tmp_path / "orig"))
    assert baseline.usable and baseline.data == {"tests.test_version::test_version"}, baseline


def test_an_egg_info_beside_the_packages_is_the_metadata(tmp_path):
    root = _tree(tmp_path / "sdist")
    assert metadata_dir(root, root) is not None
    (root / "verpkg.egg-info").mkdir()
    (root / "verpkg.egg-info" / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: verpkg\nVersion: 2.5\n")
    assert metadata_dir(root, root) is None
