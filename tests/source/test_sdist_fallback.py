"""Found on tox 4.67.15: `pip download --no-binary :all:` prepares an sdist's metadata, which needs its build
backend and the backend's plugins built from source; that failed, so `source = "pypi:tox==..."` could not be read.
When pip fails, the sdist PyPI's simple index lists is downloaded as it is, and kept only if its sha256 matches."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import tarfile

import pytest

from slimfork.source import fetch


def _sdist_bytes() -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        data = b"X = 1\n"
        info = tarfile.TarInfo("My_Pkg-1.0/my_pkg/__init__.py")
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


@pytest.fixture
def offline_pypi(monkeypatch, tmp_path):
    monkeypatch.setenv("SLIMFORK_CACHE", str(tmp_path / "cache"))
    archive = _sdist_bytes()
    served = {"sha": hashlib.sha256(archive).hexdigest(), "asked": []}

    def urlopen(request, timeout=0):
        url = request if isinstance(request, str) else request.full_url
        served["asked"].append(url)
        if url == "https://pypi.org/simple/my-pkg/":
            files = [{"filename": "my_pkg-1.0-py3-none-any.whl", "url": "w", "hashes": {"sha256": "0"}},
                     {"filename": "my_pkg-1.0.tar.gz", "url": "https://files/my_pkg-1.0.tar.gz",
                      "hashes": {"sha256": served["sha"]}}]
            return io.BytesIO(json.dumps({"files": files}).encode())
        return io.BytesIO(archive)

    monkeypatch.setattr(fetch.urllib.request, "urlopen", urlopen)
    monkeypatch.setattr(fetch.subprocess, "run", lambda cmd, **kw: subprocess.CompletedProcess(cmd, 1, "", "no"))
    return served


def test_an_sdist_pip_cannot_prepare_is_taken_from_the_index(offline_pypi):
    root = fetch.fetch_pypi("My_Pkg", "1.0", "sdist")
    assert (root / "my_pkg/__init__.py").read_text() == "X = 1\n"
    assert offline_pypi["asked"] == ["https://pypi.org/simple/my-pkg/", "https://files/my_pkg-1.0.tar.gz"]


def test_a_wrong_checksum_is_not_used(offline_pypi):
    offline_pypi["sha"] = "0" * 64
    with pytest.raises(fetch.SourceError, match="could not download My_Pkg==1.0"):
        fetch.fetch_pypi("My_Pkg", "1.0", "sdist")
