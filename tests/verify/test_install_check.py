"""Issue 25, class 4: the `+slimfork` local version broke a package at import once installed (it checks its own
version against a PEP 440 pattern without a local part), and no check installed the fork. The install check
installs the tree into a scratch venv and imports every root; a failure restores the packaging batch's version
change. `version_suffix = ""` turns the suffix off; without the key, code that reads its own version keeps the
original's (tests/apply/test_own_version.py)."""

from __future__ import annotations

import pytest

from tests.mapping.registrykit import write_project

from slimfork.api import shrink
from slimfork.errors import SpecError
from slimfork.spec import parse_spec
from slimfork.verify.checks.install import InstallCheck
from slimfork.verify.env import current_env

FILES = {
    "pyproject.toml": """
        [build-system]
        requires = ["setuptools>=61"]
        build-backend = "setuptools.build_meta"

        [project]
        name = "verpkg"
        version = "1.2.3"

        [tool.setuptools.packages.find]
        where = ["src"]
        """,
    "src/verpkg/__init__.py": """
        import re
        from importlib.metadata import version

        __version__ = version("verpkg")
        assert re.fullmatch(r"\\d+(\\.\\d+)*", __version__), f"bad version {__version__}"

        from verpkg.core import greet

        __all__ = ["greet"]
        """,
    "src/verpkg/core.py": "def greet(name):\n    return f'hello {name}'\n",
}
SPEC = 'source = "."\nroots = ["verpkg"]\nversion_suffix = "+slimfork"\n'  # by default no suffix: it reads its version
pytestmark = pytest.mark.slow  # pip builds each tree (setuptools in an isolated build env, from the index)


@pytest.fixture(autouse=True)
def _own_check_cache(tmp_path, monkeypatch):
    """Slow tests share the download cache; these assert what the install check did this run, so the checks'
    results must not come from an earlier run's cache."""
    monkeypatch.setenv("SLIMFORK_CACHE", str(tmp_path / "cache"))


def _probe(tree):
    return InstallCheck(current_env(), ["verpkg"]).install_and_probe(tree)


def test_the_suffix_breaks_the_installed_package_without_the_check(tmp_path):
    root = write_project(tmp_path, FILES, SPEC + '\n[checks]\nskip = ["install"]\n')
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    assert 'version = "1.2.3+slimfork"' in (result.out / "pyproject.toml").read_text()
    assert "AssertionError: bad version 1.2.3+slimfork" in _probe(result.out)["verpkg"]["import"]
    assert _probe(root) == {"verpkg": {"import": None, "names": {}}}


def test_a_failing_install_check_restores_the_version(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    assert 'version = "1.2.3"' in (result.out / "pyproject.toml").read_text()
    packaging = next(b for b in result.apply.batches if b.name == "packaging")
    assert [r.path for r in packaging.restored] == ["pyproject.toml"]
    restored = packaging.restored[0]
    assert restored.check == "install" and restored.reason == "local version suffix"
    assert restored.failures == ["installed, import verpkg fails: AssertionError: bad version 1.2.3+slimfork"]
    assert _probe(result.out) == {"verpkg": {"import": None, "names": {}}}


def test_a_harmless_suffix_is_kept_and_proven(tmp_path):
    files = {**FILES, "src/verpkg/__init__.py": "from verpkg.core import greet\n\n__all__ = ['greet']\n"}
    root = write_project(tmp_path, files, SPEC)
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    assert 'version = "1.2.3+slimfork"' in (result.out / "pyproject.toml").read_text()
    packaging = next(b for b in result.apply.batches if b.name == "packaging")
    install = next(c for c in packaging.checks if c.check == "install")
    assert install.ok and not install.cached and not packaging.restored
    assert _probe(result.out) == {"verpkg": {"import": None, "names": {}}}


def test_a_lazy_name_that_fails_is_a_new_failure(tmp_path):
    files = {**FILES, "src/verpkg/__init__.py": "def __getattr__(name):\n    if name == 'greet':\n"
                                                "        from verpkg.core import greet\n        return greet\n"
                                                "    raise AttributeError(name)\n\n\n__all__ = ['greet']\n"}
    root = write_project(tmp_path, files, SPEC)
    assert _probe(root) == {"verpkg": {"import": None, "names": {}}}
    (root / "src/verpkg/core.py").write_text("")
    assert "ImportError" in _probe(root)["verpkg"]["names"]["greet"]


def test_version_suffix_off_and_invalid(tmp_path):
    root = write_project(tmp_path, FILES, SPEC.replace('"+slimfork"', '""'))
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    assert not any(b.name == "packaging" for b in result.apply.batches)
    with pytest.raises(SpecError, match="PEP 440 local version"):
        parse_spec({"source": ".", "roots": ["verpkg"], "version_suffix": "-fork"}, root / "slimfork.toml")
