"""Shrink a fixture project, then run its probe script on the original and on the fork: the outputs must match."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from slimfork.api import shrink


def probe(project: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "probe.py"], cwd=project, capture_output=True, text=True,
                          env={"PYTHONPATH": str(project / "src"), "PATH": "/usr/bin:/bin"})


def shrink_and_compare(project: Path, out: Path):
    """(shrink result, original probe, fork probe)."""
    result = shrink(project / "slimfork.toml", out, jobs=1)
    return result, probe(project), probe(out)


def uncertain_not_kept(analysis) -> list[str]:
    """Every candidate an uncertain place lists must be kept: the places (and candidates) where it is not."""
    gone = {r.module for r in analysis.plan.removals if r.module}
    return [f"{u.path}:{u.line} {m}" for u in analysis.plan.uncertain for m in u.kept
            if m in gone or m not in analysis.graph.reached]


SYMBOLS = {"default": "[symbols]\n", "roots": '[symbols]\npublic_api = "roots"\npackage_api = false\n'}


def shrink_and_run_main(tmp_path: Path, files: dict[str, str], mode: str, extra: str = ""
                        ) -> tuple[Path, subprocess.CompletedProcess]:
    """Write ``files`` (root ``pkg.app:main``, tests in ``tests/`` if any), shrink statically in ``mode`` (a key of
    ``SYMBOLS``), and run ``main()`` in the fork: (the fork, the run)."""
    from tests.mapping.registrykit import write_project
    tests = '["tests"]' if any(p.startswith("tests/") for p in files) else "[]"
    root = write_project(tmp_path, files, f'source = "."\nroots = ["pkg.app:main"]\ntests = {tests}\n{extra}\n'
                                          f'{SYMBOLS[mode]}')
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    done = subprocess.run([sys.executable, "-c", "from pkg.app import main; print(main())"], cwd=fork,
                          capture_output=True, text=True, env={"PYTHONPATH": str(fork), "PATH": "/usr/bin:/bin"})
    return fork, done
