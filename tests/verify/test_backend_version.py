"""A build backend importable here but older than the project asks (``setuptools>=77`` against this interpreter's
setuptools) is no backend to build with in place: pip builds it in an isolated env. whitenoise 6.12.0 and
bitstruct 8.24.0 "did not install" in the verified shrink (``invalid pyproject.toml config: project.license``)."""

from __future__ import annotations

import importlib.metadata

from slimfork.verify.installed import backend_here


def _project(tmp_path, requires: str):
    (tmp_path / "pyproject.toml").write_text(f'[build-system]\nrequires = {requires}\n'
                                             'build-backend = "setuptools.build_meta"\n')
    return tmp_path


def test_a_too_old_backend_is_not_used_in_place(tmp_path):
    assert not backend_here(_project(tmp_path, '["setuptools>=9999"]'))


def test_a_backend_at_a_version_it_accepts_is(tmp_path):
    have = importlib.metadata.version("setuptools")
    assert backend_here(_project(tmp_path, f'["setuptools>={have}"]')) == backend_here(_project(tmp_path, '["setuptools"]'))
    assert backend_here(_project(tmp_path, '["setuptools; python_version < \'3\'"]')) == backend_here(
        _project(tmp_path, '["setuptools"]'))


def test_an_isolated_build_does_not_see_the_dependencies_backend(tmp_path, monkeypatch):
    """The dependencies' site-packages (``_slimfork_deps.pth``) shadowed the backend pip's isolated env installed
    (their setuptools 65 over whitenoise's setuptools>=77); they come in after the build."""
    import subprocess
    import sys
    from pathlib import Path

    from slimfork.verify import installed as inst

    project = _project(tmp_path / "proj", '["setuptools>=9999"]') if (tmp_path / "proj").mkdir() is None else None
    (project / "pkg").mkdir()
    (project / "pkg" / "__init__.py").write_text("")
    seen = {}
    real = subprocess.run

    def fake(cmd, *args, **kwargs):
        if cmd[1:4] == ["-m", "pip", "--python"]:
            site = Path(inst.site_dir(Path(cmd[4])))
            seen["pth_during_build"] = (site / "_slimfork_deps.pth").exists()
            seen["isolated"] = "--no-build-isolation" not in cmd
            return subprocess.CompletedProcess(cmd, 0, "", "")
        return real(cmd, *args, **kwargs)

    monkeypatch.setattr(inst.subprocess, "run", fake)
    with inst.installed(project, Path(sys.executable), compile=False) as done:
        assert (done.site / "_slimfork_deps.pth").exists()  # there for the checks, after the build
    assert seen == {"pth_during_build": False, "isolated": True}
