"""The install check runs on a fork whose build files are the original's when a path they name is gone (a
cmdclass module, a version file, a package folder): a batch that deleted what the build needs fails there, with
the deleted path as the hint, and the packaging batch is not blamed later (adversarial s30, P1)."""

from __future__ import annotations

import shutil

from slimfork.verify.checks.install import InstallCheck
from slimfork.verify.installed import build_digest, build_named
from slimfork.verify.env import current_env
from slimfork.verify.model import Baseline

SETUP_CFG = """\
[metadata]
name = cfgpkg
version = file: VERSION

[options]
packages = find:
package_dir =
    = src
cmdclass =
    build_py = cfgbuild.commands.BuildPy
"""


def _tree(root):
    for rel, text in {"setup.cfg": SETUP_CFG, "setup.py": "from setuptools import setup\nsetup()\n",
                      "VERSION": "1.0\n", "cfgbuild/__init__.py": "", "cfgbuild/commands.py": "BuildPy = None\n",
                      "src/cfgpkg/__init__.py": "", "src/cfgpkg/core.py": "X = 1\n", "notes.txt": ""}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_the_paths_the_build_names(tmp_path):
    named = build_named(_tree(tmp_path))
    assert {"VERSION", "src", "cfgbuild/commands.py", "cfgbuild/__init__.py"} <= set(named)
    assert "src/cfgpkg/core.py" not in named and "notes.txt" not in named


def test_a_deleted_named_path_changes_the_digest_and_runs_the_check(tmp_path, monkeypatch):
    original, fork = _tree(tmp_path / "a"), tmp_path / "b"
    shutil.copytree(original, fork)
    (fork / "src/cfgpkg/core.py").unlink()  # a module inside a package: the build does not name it
    (fork / "notes.txt").unlink()
    assert build_digest(fork) == build_digest(original)
    (fork / "cfgbuild/commands.py").unlink()
    assert build_digest(fork) != build_digest(original)
    check = InstallCheck(current_env(), ["cfgpkg"])
    monkeypatch.setattr(check, "install_and_probe", lambda tree: "error: No module named 'cfgbuild.commands'")
    baseline = Baseline("install", True, {"failures": set(), "build": build_digest(original),
                                          "named": build_named(original)}, "", 0.0)
    result = check.run(fork, baseline)
    assert not result.ok and result.paths[0] == "cfgbuild/commands.py"
    assert "does not install" in result.failures[0]
