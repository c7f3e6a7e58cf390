"""Import one module per process, in the verification interpreter; optionally forked from a warm server.

Plain mode starts ``python -c RUNNER`` for each module. Server mode (``[checks.import_modules] preload``) starts
one server per job that imports the named third-party modules once (torch, transformers: seconds each) and then
forks a fresh child for each module; the child imports it exactly as a new process would, except that the
preloaded third-party modules are already there. Nothing of the tree is ever preloaded, so the tree's own import
order is unchanged. Each child runs in its own process group and is killed whole at the timeout.
"""

from __future__ import annotations

import json
import os
import queue
import select
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from slimfork.verify import cancel
from slimfork.verify.process import run_process

_IMPORT_ONE = r"""
import importlib, json, os, sys, traceback

def import_one(name, out, root):
    result = {"ok": True}
    try:
        importlib.import_module(name)
    except BaseException as exc:
        frames = [f"{os.path.relpath(f.filename, root)}:{f.lineno}" for f in traceback.extract_tb(exc.__traceback__)
                  if f.filename.startswith(root)]
        text = str(exc).strip().splitlines()
        result = {"ok": False, "error": f"{type(exc).__name__}: {text[0] if text else ''}"[:500],
                  "frames": frames[-3:]}
    files = {getattr(m, "__file__", None) for m in list(sys.modules.values())}
    result["loaded"] = sorted(os.path.relpath(f, root) for f in files if isinstance(f, str) and f.startswith(root))
    with open(out, "w") as fh:
        json.dump(result, fh)
    sys.stdout.flush()
    os._exit(0)
"""
RUNNER = _IMPORT_ONE + "\nimport_one(sys.argv[1], sys.argv[2], sys.argv[3] + os.sep)\n"
SERVER = _IMPORT_ONE + r"""
import signal, time
proto = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)  # whatever the imports print must not reach the protocol
root, timeout = sys.argv[1] + os.sep, float(sys.argv[2])
for preload in json.loads(sys.argv[3]):
    try:
        importlib.import_module(preload)
    except BaseException:
        pass  # not preloaded: each child imports it (and fails) by itself
child = None

def stop(signum, frame):  # slimfork stops the server: take the running import down with it
    if child:
        try:
            os.killpg(child, signal.SIGKILL)
        except ProcessLookupError:
            pass
    os._exit(1)

signal.signal(signal.SIGTERM, stop)
proto.write("ready\n"); proto.flush()
for line in sys.stdin:
    name, out = json.loads(line)
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.setpgrp()
        import_one(name, out, root)
    child = pid
    status = None
    while status is None and time.monotonic() - start < timeout:
        done, code = os.waitpid(pid, os.WNOHANG)
        status = code if done else None
        if status is None:
            time.sleep(0.02)
    if status is None:
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
    child = None
    proto.write(json.dumps({"timed_out": status is None, "seconds": time.monotonic() - start}) + "\n")
    proto.flush()
"""


@dataclass(frozen=True)
class RawOutcome:
    module: str
    data: dict | None  # what the child wrote; None if it wrote nothing
    timed_out: bool
    seconds: float
    why: str = ""  # when data is None


def import_modules(python: Path, env: dict[str, str], root: Path, modules: list[str], jobs: int, timeout: float,
                   preload: tuple[str, ...], tmp: Path) -> list[RawOutcome]:
    """Import each module in its own process, ``jobs`` at a time; results in the order of ``modules``."""
    todo: queue.Queue[tuple[int, str]] = queue.Queue()
    for item in enumerate(modules):
        todo.put(item)
    results: list[RawOutcome | None] = [None] * len(modules)
    worker = _serve if preload else _plain
    errors: list[str] = []

    def run() -> None:
        try:
            worker(python, env, root, todo, results, timeout, preload, tmp)
        except Exception as exc:  # reported on the modules it left undone
            errors.append(str(exc))

    threads = [threading.Thread(target=run, daemon=True) for _ in range(max(1, min(jobs, len(modules))))]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            thread.join()
    except BaseException:  # Ctrl-C: no server (nor the import it runs) may outlive us
        while (_next(todo)) is not None:
            pass
        for server in list(_LIVE):
            _stop(server)
        raise
    if cancel.cancelled():  # the imports were killed: their outcomes say nothing about the tree
        raise cancel.Cancelled("the run was interrupted")
    why = errors[0] if errors else "not run"
    return [r if r is not None else RawOutcome(m, None, False, 0.0, why) for m, r in zip(modules, results)]


def _next(todo: queue.Queue):
    if cancel.cancelled():
        return None
    try:
        return todo.get_nowait()
    except queue.Empty:
        return None


def _plain(python, env, root, todo, results, timeout, preload, tmp) -> None:
    while (item := _next(todo)) is not None:
        index, module = item
        out = tmp / f"{module}.json"
        proc = run_process([str(python), "-c", RUNNER, module, str(out), str(root)], env, tmp, timeout)
        results[index] = RawOutcome(module, _read(out), proc.timed_out, proc.seconds,
                                    f"the import process died (exit {proc.exit_code}): {proc.stderr_tail(2)}")


def _serve(python, env, root, todo, results, timeout, preload, tmp) -> None:
    server = None
    try:
        while (item := _next(todo)) is not None:
            index, module = item
            if server is None:
                server = _start(python, env, root, timeout, preload, tmp)
            out = tmp / f"{module}.json"
            start = time.monotonic()
            assert server.stdin is not None  # a pipe: _start opens it
            server.stdin.write(json.dumps([module, str(out)]) + "\n")
            server.stdin.flush()
            line = _readline(server, timeout + 30)
            if not line:  # the server died: record it, start a new one for the next module
                _stop(server)
                server = None
                results[index] = RawOutcome(module, _read(out), False, time.monotonic() - start,
                                            "the import server died")
                continue
            reply = json.loads(line)
            results[index] = RawOutcome(module, _read(out), reply["timed_out"], reply["seconds"],
                                        "the import process died")
    finally:
        if server is not None:
            _stop(server)


_LIVE: set[subprocess.Popen] = set()


def _start(python, env, root, timeout, preload, tmp) -> subprocess.Popen:
    log = open(tmp / f"server-{threading.get_ident()}.log", "ab")
    server = subprocess.Popen([str(python), "-c", SERVER, str(root), str(timeout), json.dumps(list(preload))],
                              env=env, cwd=tmp, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                              text=True, start_new_session=True)
    log.close()
    _LIVE.add(server)
    try:
        cancel.register(server.pid)
    except cancel.Cancelled:
        _stop(server)
        raise
    if _readline(server, timeout + 60) != "ready\n":
        _stop(server)
        raise RuntimeError(f"the import server did not start (log: {tmp})")
    return server


def _readline(proc: subprocess.Popen, timeout: float) -> str:
    assert proc.stdout is not None  # a pipe: _start opens it
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    return proc.stdout.readline() if ready else ""


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM first (the server kills its running import), then SIGKILL for the whole group."""
    _LIVE.discard(proc)
    cancel.unregister(proc.pid)
    for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, None)):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue


def _read(out: Path) -> dict | None:
    try:
        return json.loads(out.read_text())
    except (OSError, ValueError):
        return None
