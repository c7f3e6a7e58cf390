"""A project whose build takes its version from git (setuptools-scm): ``pip install ./fork`` built pluggy 1.5.0's
fork as ``0.1.dev1+g<hash>`` and then failed (``Wheel has unexpected file name``: the build rewrote the tracked
``_version.py`` and ``*.egg-info``, so the tree was dirty between metadata and wheel). The fork's last commit is
tagged with the original's version, and what the build writes is untracked and ignored, left on disk as it was."""

from __future__ import annotations

import subprocess

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

PYPROJECT = ('[build-system]\nrequires = ["setuptools>=64", "setuptools_scm>=8"]\n'
             'build-backend = "setuptools.build_meta"\n\n[project]\nname = "spkg"\ndynamic = ["version"]\n\n'
             '[tool.setuptools_scm]\nwrite_to = "src/spkg/_version.py"\n')
FILES = {
    "PKG-INFO": "Metadata-Version: 2.1\nName: spkg\nVersion: 1.2.0\n",
    "src/spkg/__init__.py": "from ._version import version as __version__\n",
    "src/spkg/_version.py": "version = '1.2.0'\n",
    "src/spkg/core.py": "def run():\n    return 1\n",
    "src/spkg/extra.py": "def more():\n    return 2\n",
    "src/spkg.egg-info/PKG-INFO": "Metadata-Version: 2.1\nName: spkg\nVersion: 1.2.0\n",
}


def _git(root, *args) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout


def test_a_vcs_versioned_fork_is_tagged_and_ignores_what_the_build_writes(tmp_path):
    root = write_project(tmp_path, {**FILES, "pyproject.toml": PYPROJECT}, 'source = "."\nroots = ["spkg.core"]\n')
    result = shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    fork = result.out
    assert _git(fork, "tag", "--points-at", "HEAD").split() == ["1.2.0+slimfork"]
    tracked = _git(fork, "ls-files").split()
    assert "src/spkg/_version.py" not in tracked and "src/spkg.egg-info/PKG-INFO" not in tracked
    assert (fork / "src/spkg/_version.py").read_text() == "version = '1.2.0'\n"  # on disk as checked
    assert {"/src/spkg/_version.py", "/src/spkg.egg-info"} <= set((fork / ".gitignore").read_text().splitlines())
    assert _git(fork, "status", "--porcelain") == ""
    assert "tagged 1.2.0+slimfork" in (tmp_path / "fork.report" / "report.md").read_text()


def test_a_static_version_gets_no_tag(tmp_path):
    files = {**FILES, "pyproject.toml": '[project]\nname = "spkg"\nversion = "1.2.0"\n'}
    root = write_project(tmp_path, files, 'source = "."\nroots = ["spkg.core"]\n')
    fork = shrink(root / "slimfork.toml", tmp_path / "fork", verify=False).out
    assert _git(fork, "tag") == ""
    assert "src/spkg/_version.py" in _git(fork, "ls-files").split()
