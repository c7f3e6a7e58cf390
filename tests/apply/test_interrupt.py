"""Ctrl-C and SIGTERM stop a run within seconds even while check baselines run in worker threads or on Ray workers (an import
and a command that would take minutes), and no check process outlives it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

DRIVER = str(Path(__file__).with_name("slow_driver.py"))


def _running(marker: str) -> list[str]:
    out = subprocess.run(["ps", "-eww", "-o", "pid,args"], capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if marker in line and "slow_driver" not in line]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").is_dir() and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]


def _wait_for(predicate, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.2)
    return False


@pytest.mark.parametrize("sig,executor", [("SIGINT", "local"), ("SIGTERM", "local"),
                                          pytest.param("SIGINT", "ray", marks=pytest.mark.xdist_group("ray"))])
def test_interrupt_during_baselines_stops_every_check(tmp_path, sig, executor):
    (tmp_path / "src" / "app").mkdir(parents=True)
    marker = f"slimfork-sleep-{uuid.uuid4().hex}"
    (tmp_path / "src" / "app" / "__init__.py").write_text("")
    (tmp_path / "src" / "app" / "unused.py").write_text("X = 1\n")
    pidfile = tmp_path / "import.pid"
    (tmp_path / "src" / "app" / "slow_import.py").write_text(
        f"import os, time\nopen({str(pidfile)!r}, 'w').write(str(os.getpid()))\ntime.sleep(300)\n")
    env = dict(os.environ, SLIMFORK_CACHE=str(tmp_path / "cache"))
    proc = subprocess.Popen([sys.executable, DRIVER, str(tmp_path / "src"), str(tmp_path / "fork"), marker, executor],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert _wait_for(lambda: _running(marker) and pidfile.is_file(), 120), "the slow checks never started"
        time.sleep(1.0)  # both baselines are under way
        proc.send_signal(getattr(signal, sig))
        start = time.monotonic()
        proc.wait(timeout=30)
        assert proc.returncode == 130, proc.stderr.read().decode()[-2000:]
        assert time.monotonic() - start < 20
        assert _wait_for(lambda: not _running(marker), 10), _running(marker)
        assert _wait_for(lambda: not _alive(int(pidfile.read_text())), 10), "the import still runs"
    finally:
        if proc.poll() is None:
            proc.kill()
