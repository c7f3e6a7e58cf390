"""The tree's own distribution metadata, for the checks that run it from the path: a project that reads its version
with ``importlib.metadata.version("holidays")`` at import (holidays' ``version.py``) imports only when installed, so
from a git checkout none of its 645 modules imported and 289 of its 307 tests failed, in the original as in the
fork. An sdist's ``*.egg-info`` beside its packages already answers; otherwise a cached folder with a
``NAME-VERSION.dist-info/METADATA`` goes on the path after the tree, as the installed copy's would be found."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from slimfork.fsutil import write_atomic
from slimfork.source.cache import cache_dir
from slimfork.source.layout import read_distribution


def metadata_dir(tree: Path, python_root: Path) -> Path | None:
    """A folder to put on the path whose dist-info names the tree's distribution; None when the tree has none or
    its own metadata is already on the path (a ``*.dist-info`` or ``*.egg-info`` in ``python_root``)."""
    dist = read_distribution(tree)
    if dist is None or not dist.name:
        return None
    norm = _normal(dist.name)
    if any(_normal(p.name.split("-")[0].rsplit(".", 1)[0]) == norm
           for p in python_root.glob("*.*-info") if p.suffix in (".dist-info", ".egg-info")):
        return None
    version = dist.version or "0"
    text = f"Metadata-Version: 2.1\nName: {dist.name}\nVersion: {version}\n"
    folder = cache_dir("metadata") / hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
    info = folder / f"{re.sub(r'[^A-Za-z0-9.]+', '_', dist.name)}-{re.sub(r'[^A-Za-z0-9.]+', '_', version)}.dist-info"
    if not (info / "METADATA").is_file():
        write_atomic(info / "METADATA", text)
    return folder


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()
