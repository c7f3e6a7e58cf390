"""Bring the source to a local folder: a folder as it is, or a PyPI distribution downloaded and unpacked."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import zipfile
from pathlib import Path

from slimfork.errors import SourceError, SpecError
from slimfork.source.cache import cache_dir, file_lock

_PYPI = re.compile(r"^pypi:([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9.+!_-]+)$")


def resolve_source(source: str, base_dir: Path, dist: str = "wheel") -> Path:
    """Return the local folder holding the source (never modified by slimfork)."""
    if source.startswith("pypi:"):
        match = _PYPI.match(source)
        if not match:
            raise SpecError(f"'{source}' is not a pinned PyPI source", key="source",
                            hint="write 'pypi:NAME==VERSION', e.g. 'pypi:sglang==0.5.23'")
        return fetch_pypi(match.group(1), match.group(2), dist)
    path = (base_dir / source).resolve()
    if not path.is_dir():
        raise SpecError(f"source folder does not exist: {path}", key="source",
                        hint="a folder relative to the spec file, or 'pypi:NAME==VERSION'")
    return path


def fetch_pypi(name: str, version: str, dist: str = "wheel") -> Path:
    """Download ``name==version`` with pip (no dependencies) and unpack it once into the cache."""
    target = cache_dir("sources") / f"{name.lower()}-{version}-{dist}"
    if (target / ".complete").is_file():
        return target
    with file_lock(target.with_name(target.name + ".lock")):
        if (target / ".complete").is_file():  # another process finished it while we waited
            return target
        return _download_and_unpack(name, version, dist, target)


def _download_and_unpack(name: str, version: str, dist: str, target: Path) -> Path:
    downloads = cache_dir("downloads", f"{name.lower()}-{version}-{dist}")
    archive = _find_archive(downloads, dist)
    if archive is None:
        kind = ["--only-binary", ":all:"] if dist == "wheel" else ["--no-binary", ":all:"]
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-build-isolation", "-q",
               *kind, "-d", str(downloads), f"{name}=={version}"]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0 and dist == "sdist":  # pip prepares the sdist's metadata, which needs its backend:
            _sdist_from_pypi_json(name, version, downloads)  # take the archive as PyPI lists it instead
            if _find_archive(downloads, dist) is None:  # let pip fetch the backend
                proc = subprocess.run([c for c in cmd if c != "--no-build-isolation"], capture_output=True, text=True)
            else:
                proc = subprocess.CompletedProcess(cmd, 0, "", "")
        archive = _find_archive(downloads, dist)
        if proc.returncode != 0 or archive is None:
            raise SourceError(f"could not download {name}=={version} ({dist}) from PyPI",
                              key="source", hint=(proc.stderr.strip().splitlines() or ["no archive found"])[-1])
    tmp = Path(tempfile.mkdtemp(prefix=".unpack-", dir=target.parent))
    try:
        _unpack(archive, tmp)
        inner = [p for p in tmp.iterdir()]
        # An sdist unpacks to a single NAME-VERSION folder: use it as the source root.
        root = inner[0] if dist == "sdist" and len(inner) == 1 and inner[0].is_dir() else tmp
        (root / ".complete").write_text(archive.name + "\n")
        if target.exists():
            shutil.rmtree(target)
        root.rename(target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def _sdist_from_pypi_json(name: str, version: str, downloads: Path) -> None:
    """Download the sdist PyPI's simple index (PEP 691 JSON) lists for ``name==version``, checked against its sha256
    (tox's sdist: pip could not build the metadata its backend plugins make); nothing when PyPI cannot be asked."""
    wanted = re.sub(r"[-_.]+", "-", name).lower()
    request = urllib.request.Request(f"https://pypi.org/simple/{wanted}/",
                                     headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as resp:
            files = json.load(resp).get("files", [])
        entry = next(f for f in files if _is_sdist_of(f.get("filename", ""), wanted, version))
        with urllib.request.urlopen(entry["url"], timeout=300) as resp:
            data = resp.read()
    except (OSError, ValueError, StopIteration, KeyError):
        return
    if hashlib.sha256(data).hexdigest() != entry.get("hashes", {}).get("sha256"):
        return
    part = downloads / (entry["filename"] + ".part")
    part.write_bytes(data)
    part.rename(downloads / entry["filename"])


def _is_sdist_of(filename: str, name: str, version: str) -> bool:
    stem = next((filename[: -len(s)] for s in (".tar.gz", ".zip") if filename.endswith(s)), None)
    if stem is None:
        return False
    project, _, got = stem.rpartition("-")
    return got == version and re.sub(r"[-_.]+", "-", project).lower() == name


def _find_archive(folder: Path, dist: str) -> Path | None:
    patterns = ["*.whl"] if dist == "wheel" else ["*.tar.gz", "*.zip", "*.tar.bz2"]
    for pattern in patterns:
        found = sorted(folder.glob(pattern))
        if found:
            return found[0]
    return None


def _unpack(archive: Path, dest: Path) -> None:
    if archive.suffix in (".whl", ".zip"):
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(dest)
    else:
        with tarfile.open(archive) as tf:
            tf.extractall(dest, filter="data")
