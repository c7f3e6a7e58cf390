"""The kernel stage records which unifdef engine folded the sources, and its cache tells the engines apart."""

from __future__ import annotations

import shutil

import pytest

from slimfork.api import analyse

SPEC = """source = "."
roots = ["pkg"]

[facts.preprocessor]
undefined = ["USE_ROCM"]
"""


@pytest.fixture
def project(tmp_path):
    (tmp_path / "src/pkg").mkdir(parents=True)
    (tmp_path / "src/pkg/__init__.py").write_text("")
    (tmp_path / "src/pkg/k.cu").write_text("#ifdef USE_ROCM\nrocm();\n#else\ncuda();\n#endif\n")
    (tmp_path / "slimfork.toml").write_text(SPEC)
    return tmp_path


def _engine_of(project) -> tuple[dict, str]:
    stages = analyse(project / "slimfork.toml").stages
    title, text = next(r for r in stages.reports if r[0].startswith("Kernel sources folded"))
    return stages.data["kernel_fold"], text


def test_python_engine_is_recorded(project, monkeypatch):
    monkeypatch.setenv("SLIMFORK_UNIFDEF", "python")
    data, text = _engine_of(project)
    assert data["engine"] == "python" and data["engine_path"] == "" and data["files_folded"] == 1
    assert "Python port of unifdef-2.10" in text


@pytest.mark.skipif(shutil.which("unifdef") is None, reason="the unifdef binary is not installed")
def test_switching_engine_is_not_answered_from_the_cache(project, monkeypatch):
    monkeypatch.setenv("SLIMFORK_UNIFDEF", "python")
    assert _engine_of(project)[0]["engine"] == "python"
    monkeypatch.delenv("SLIMFORK_UNIFDEF")
    data, text = _engine_of(project)
    assert data["engine"] == "binary" and data["engine_path"] == shutil.which("unifdef")
    assert shutil.which("unifdef") in text
