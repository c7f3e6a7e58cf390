"""A git checkout whose version comes from git (setuptools-scm, hatch-vcs, pdm's scm source) did not install: the
install check copies the tree without ``.git``, so the plugin found no version and the check was unusable on the
original (pytest-dev/iniconfig's checkout: "setuptools-scm was unable to detect version"). pip now gets the
plugins' pretend-version variables where the tree has no PKG-INFO; an sdist's own version stays, and so does one
the user set."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from slimfork.verify import installed as inst


@pytest.fixture
def pip_env(monkeypatch):
    seen: dict = {}
    real = subprocess.run

    def fake(cmd, *args, **kwargs):
        if "pip" in cmd and "install" in cmd:
            seen.update(kwargs.get("env") or {})
            return subprocess.CompletedProcess(cmd, 0, "", "")
        return real(cmd, *args, **kwargs)

    monkeypatch.setattr(inst.subprocess, "run", fake)
    return seen


def _tree(tmp_path: Path, pkg_info: bool) -> Path:
    tree = tmp_path / "tree"
    (tree / "demo").mkdir(parents=True)
    (tree / "demo" / "__init__.py").write_text("")
    (tree / "pyproject.toml").write_text('[project]\nname = "demo"\ndynamic = ["version"]\n')
    if pkg_info:
        (tree / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: demo\nVersion: 1.2.3\n")
    return tree


def test_a_checkout_without_pkg_info_installs_with_a_stand_in_version(tmp_path, pip_env, monkeypatch):
    monkeypatch.delenv("SETUPTOOLS_SCM_PRETEND_VERSION", raising=False)
    with inst.installed(_tree(tmp_path, pkg_info=False), Path(inst.sys.executable)):
        pass
    assert pip_env["SETUPTOOLS_SCM_PRETEND_VERSION"] == inst.VCS_STANDIN_VERSION
    assert pip_env["PDM_BUILD_SCM_VERSION"] == inst.VCS_STANDIN_VERSION


def test_an_sdist_keeps_its_version_and_the_users_setting_wins(tmp_path, pip_env, monkeypatch):
    monkeypatch.delenv("SETUPTOOLS_SCM_PRETEND_VERSION", raising=False)
    with inst.installed(_tree(tmp_path, pkg_info=True), Path(inst.sys.executable)):
        pass
    assert "SETUPTOOLS_SCM_PRETEND_VERSION" not in pip_env
    pip_env.clear()
    monkeypatch.setenv("SETUPTOOLS_SCM_PRETEND_VERSION", "9.9")
    with inst.installed(_tree(tmp_path / "b", pkg_info=False), Path(inst.sys.executable)):
        pass
    assert pip_env["SETUPTOOLS_SCM_PRETEND_VERSION"] == "9.9"
