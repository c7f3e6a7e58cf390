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
