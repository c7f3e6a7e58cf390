"""Shrink a small project of ``pkg/`` files with a root ``pkg.app:main`` and run that function in the fork."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from slimfork.api import shrink
from tests.mapping.registrykit import write_project


def shrink_and_run_main(tmp_path: Path, files: dict[str, str], public_api: str = "kept",
                        roots: str = '"pkg.app:main"'):
    """(shrink result, fork folder, the completed ``app.main()`` run in the fork)."""
    spec = f'source = "."\nroots = [{roots}]\ntests = []\n\n[symbols]\npublic_api = "{public_api}"\n\n' \
           '[checks]\nskip = ["import-modules"]\n'
    project = write_project(tmp_path, files, spec)
    fork = tmp_path / "fork"
    result = shrink(project / "slimfork.toml", out=fork, jobs=1)
    run = subprocess.run([sys.executable, "-c", "from pkg import app; app.main()"], cwd=fork,
                         capture_output=True, text=True, timeout=60)
    return result, fork, run
