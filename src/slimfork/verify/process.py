"""Run one check process: its own process group, a timeout that kills the whole group, output captured."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from slimfork.verify import cancel


@dataclass(frozen=True)
class ProcessResult:
    exit_code: int | None  # None: timed out
    stdout: str
    stderr: str
    seconds: float

    @property
    def timed_out(self) -> bool:
        return self.exit_code is None

    def stderr_tail(self, lines: int = 5) -> str:
        return " | ".join(line.strip() for line in self.stderr.strip().splitlines()[-lines:])


def run_process(argv: list[str], env: dict[str, str], cwd: Path, timeout: float) -> ProcessResult:
    start = time.monotonic()
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        cancel.register(proc.pid)
    except cancel.Cancelled:
        proc.wait()
        raise
    try:
        out, err = proc.communicate(timeout=timeout)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, err = proc.communicate()
        code = None
    except BaseException:  # Ctrl-C: leave no check process behind
        _kill_group(proc)
        proc.wait()
        raise
    finally:
        cancel.unregister(proc.pid)
    if cancel.cancelled():  # killed by cancel_all: not a result
        raise cancel.Cancelled("the run was interrupted")
    return ProcessResult(code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"),
                         time.monotonic() - start)


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def tree_frames(text: str, root: Path) -> list[str]:
    """Files of ``root`` named in a Python traceback in ``text`` (relative posix paths, innermost last)."""
    pattern = re.compile(r'File "' + re.escape(str(root)) + r'/([^"]+)", line \d+')
    return [m.group(1) for m in pattern.finditer(text)]
