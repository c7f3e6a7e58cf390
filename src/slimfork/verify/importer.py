"""Import one module per process, in the verification interpreter, forked from a warm server.

The server (one per job) imports the third-party modules ``[checks.import_modules] preload`` names once (torch,
transformers: seconds each), then forks a fresh child for each module. The tree's own modules are never preloaded;
what is shared is exact: a fresh process importing ``a.b.c`` imports ``a``, then ``a.b``, then ``a.b.c``, so the
server keeps a chain of zygotes (forks that imported ``a``, then ``a.b``) and forks the child from the deepest one
that imported an ancestor of the module. A zygote whose import failed or started a thread (which a fork loses)
serves nothing. Bytecode is written once per run, outside the tree. A child is killed at the timeout; every
process of a server is in its process group, which slimfork kills when it stops the server or the run. Without ``os.fork`` each module is imported by ``python -c RUNNER``.
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
import importlib, json, os, sys, time, traceback

def lazy_dir_names(module, most=2048, seconds=20.0):
    # the lazy names a module __dir__ lists that resolve, and how many it listed but were not tried: a long
    # table is resolved until `most` names or `seconds` are spent (each name may load a heavy module)
    namespace = vars(module) if module is not None else {}
    if not (callable(namespace.get("__getattr__")) and callable(namespace.get("__dir__"))):
        return [], 0
    try:
        listed = [n for n in namespace["__dir__"]() if isinstance(n, str) and n not in namespace]
    except BaseException:
        return [], 0
    got, start = [], time.monotonic()
    for i, attr in enumerate(listed):
        if i >= most or time.monotonic() - start > seconds:
            return got, len(listed) - i
        try:
            getattr(module, attr)
            got.append(attr)
        except BaseException:
            pass
    return got, 0

def claim_namespaces(root):
    # A package of the tree that an installed distribution's `*-nspkg.pth` (setuptools' namespace_packages) made
    # when Python started (Paste 3.10.1's `paste`): its __path__ lacks the tree's folder, which an installed copy's
    # own .pth would add, so none of the tree's modules below it imported (PasteDeploy 2.1.1: 7 of 16)
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__path__", None)
        if "." in name or getattr(module, "__file__", None) is not None or path is None:
            continue
        folders = [os.path.join(p, name) for p in sys.path if p and (p + os.sep).startswith(root)]
        folders = [f for f in folders if os.path.isdir(f) and f not in list(path)]
        if folders:  # a plain list (types.ModuleType) or a namespace's path the .pth computed from site-packages
            module.__path__ = folders + list(path)

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
    wanted = out[:-5] + ".names.json"  # the public names promised of it: those its namespace lacks; with "ask",
    if result["ok"] and os.path.exists(wanted):  # a module __getattr__ is asked for them (lazy names count)
        with open(wanted) as fh:
            asked = json.load(fh)
        namespace = vars(sys.modules[name]) if name in sys.modules else {}
        lost = [attr for attr in asked["names"] if attr not in namespace]
        result["lazy"] = "__getattr__" in namespace
        if result["lazy"] and asked["ask"]:
            for attr in list(lost):
                try:
                    getattr(sys.modules[name], attr)
                    lost.remove(attr)
                except BaseException:
                    pass
        result["lost"] = lost
        if asked.get("dir"):  # the baseline: the lazy names its module __dir__ lists, resolved (their files count)
            result["dir_names"], result["dir_skipped"] = lazy_dir_names(sys.modules.get(name),
                                                                        seconds=asked.get("dir_seconds", 20.0))
    files = {getattr(m, "__file__", None) for m in list(sys.modules.values())}
    result["loaded"] = sorted(os.path.relpath(f, root) for f in files if isinstance(f, str) and f.startswith(root))
    with open(out, "w") as fh:
        json.dump(result, fh)
    sys.stdout.flush()
    os._exit(0)
"""
_BYTECODE = r"""
sys.dont_write_bytecode, sys.pycache_prefix = False, sys.argv[4]  # compiled once per run, outside the tree
"""
RUNNER = _IMPORT_ONE + _BYTECODE + "\nclaim_namespaces(sys.argv[3] + os.sep)\n" \
    "import_one(sys.argv[1], sys.argv[2], sys.argv[3] + os.sep)\n"
SERVER = _IMPORT_ONE + r"""
import select, signal, time
proto_in, proto_out = os.fdopen(os.dup(0)), os.fdopen(os.dup(1), "w")
os.dup2(2, 1)  # whatever the imports print must not reach the protocol, nor may they read it
os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
root, timeout = sys.argv[1] + os.sep, float(sys.argv[2])
claim_namespaces(root)
for preload in json.loads(sys.argv[3]):
    try:
        importlib.import_module(preload)
    except BaseException:
        pass  # not preloaded: each child imports it (and fails) by itself
""" + _BYTECODE + r"""
child = None  # the running import
below = None  # (pid, to, from): the zygote forked from this process, which has imported one more package
protocol_fds = [proto_in.fileno(), proto_out.fileno()]

def stop(signum, frame):  # slimfork stops the server's process group: take the running import down with it
    if child:
        try:
            os.kill(child, signal.SIGKILL)
        except ProcessLookupError:
            pass
    os._exit(1)

def threads():
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return -1  # unknown: no zygote may trust it

def run_import(name, out):
    global child
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:  # stays in the server's process group: stopping the server's group stops it
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        for fd in protocol_fds:
            os.close(fd)
        import_one(name, out, root)
    child = pid
    status = None
    while status is None and time.monotonic() - start < timeout:
        done, code = os.waitpid(pid, os.WNOHANG)
        status = code if done else None
        if status is None:
            time.sleep(0.02)
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    child = None
    return {"timed_out": status is None, "seconds": time.monotonic() - start}

def push(package):
    # A zygote: a fork of this process that imports one more ancestor package of the modules to come. A fresh
    # process importing a.b.c imports a, then a.b, then a.b.c, so a child forked after a.b imported starts where
    # the fresh one stands. Only a zygote whose import succeeded and started no thread (a fork keeps none) serves.
    global below
    down, up = os.pipe(), os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(down[1]), os.close(up[0])
        for fd in protocol_fds:  # the pipes of the process above: only it may hold them
            os.close(fd)
        before, ok = threads(), True
        try:
            importlib.import_module(package)
        except BaseException:
            ok = False
        ok = ok and before > 0 and threads() == before
        answer = os.fdopen(up[1], "w")
        answer.write(json.dumps(ok) + "\n")
        answer.flush()
        if ok:
            protocol_fds[:] = [down[0], up[1]]
            serve(os.fdopen(down[0]), answer)
        os._exit(0)
    os.close(down[0]), os.close(up[1])
    to, back = os.fdopen(down[1], "w"), os.fdopen(up[0])
    ready, _, _ = select.select([back], [], [], timeout)
    if (back.readline() if ready else "").strip() != "true":
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        to.close(), back.close()
        return False
    below = (pid, to, back)
    protocol_fds.extend([to.fileno(), back.fileno()])
    return True

def pop():
    global below
    pid, to, back = below
    protocol_fds.remove(to.fileno()), protocol_fds.remove(back.fileno())
    to.close(), back.close()
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    below = None

def serve(inp, out):
    for line in inp:
        msg = json.loads(line)
        if msg["depth"]:  # for a zygote further down: pass it on, pass its answer back
            msg["depth"] -= 1
            below[1].write(json.dumps(msg) + "\n")
            below[1].flush()
            answer = below[2].readline()
            if not answer:  # it died: so does this process, and slimfork sees the server die
                os._exit(1)
            out.write(answer)
        elif msg["op"] == "import":
            out.write(json.dumps(run_import(msg["name"], msg["out"])) + "\n")
        elif msg["op"] == "push":
            out.write(json.dumps(push(msg["package"])) + "\n")
        else:
            pop()
            out.write("true\n")
        out.flush()
    os._exit(0)

signal.signal(signal.SIGTERM, stop)
proto_out.write("ready\n"); proto_out.flush()
serve(proto_in, proto_out)
"""


@dataclass(frozen=True)
class RawOutcome:
    module: str
    data: dict | None  # what the child wrote; None if it wrote nothing
    timed_out: bool
    seconds: float
    why: str = ""  # when data is None


def import_modules(python: Path, env: dict[str, str], root: Path, modules: list[str], jobs: int, timeout: float,
                   preload: tuple[str, ...], tmp: Path, fresh: bool = False,
                   names: dict[str, tuple[str, ...]] | None = None, ask: bool = True,
                   lazy_dir: bool = False) -> list[RawOutcome]:
    """Import each module in its own process, ``jobs`` at a time; results in the order of ``modules``. ``fresh``:
    a new interpreter for each module (what the server's forks must equal; without ``os.fork``, always).
    ``names``: module -> names its process looks up once imported; those its namespace lacks are its data's
    ``lost`` (``lazy``: it has a module ``__getattr__``, which ``ask`` asks for them; the baseline does not: a lazy
    name is never loaded just to be listed). ``lazy_dir`` (the baseline): a module with a module ``__getattr__`` and
    ``__dir__`` resolves the names ``__dir__`` lists beyond its namespace (2,048 or 20 seconds at most; its data's
    ``dir_skipped``: how many were not tried), its data's ``dir_names`` those that resolve; the files they load
    count among its own, so a fork that removes one imports it again."""
    for module in modules:
        wanted = (names or {}).get(module)
        if wanted is not None or lazy_dir:
            asked = {"names": list(wanted or ()), "ask": ask, "dir": lazy_dir, "dir_seconds": min(20.0, timeout / 4)}
            (tmp / f"{module}.names.json").write_text(json.dumps(asked))
    todo: queue.Queue[tuple[int, str]] = queue.Queue()
    for item in enumerate(modules):
        todo.put(item)
    results: list[RawOutcome | None] = [None] * len(modules)
    worker = _plain if fresh or not hasattr(os, "fork") else _serve
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
        proc = run_process([str(python), "-c", RUNNER, module, str(out), str(root), str(tmp / "bytecode")], env, tmp,
                           timeout)
        results[index] = RawOutcome(module, _read(out), proc.timed_out, proc.seconds,
                                    f"the import process died (exit {proc.exit_code}): {proc.stderr_tail(2)}")


def _serve(python, env, root, todo, results, timeout, preload, tmp) -> None:
    server: _Server | None = None
    try:
        while (item := _next(todo)) is not None:
            index, module = item
            if server is None:
                server = _Server(_start(python, env, root, timeout, preload, tmp), timeout)
            out = tmp / f"{module}.json"
            start = time.monotonic()
            reply = server.import_one(module, out)
            if reply is None:  # the server died: record it, start a new one for the next module
                server.stop()
                server = None
                results[index] = RawOutcome(module, _read(out), False, time.monotonic() - start,
                                            "the import server died")
                continue
            results[index] = RawOutcome(module, _read(out), reply["timed_out"], reply["seconds"],
                                        "the import process died")
    finally:
        if server is not None:
            server.stop()


class _Server:
    """One import server and its chain of zygotes: ``chain[i]`` is the package the process at depth i + 1 imported
    on top of the one above it. A module is imported by a child of the deepest zygote whose package is one of its
    ancestors, so the packages every module of a subtree imports first are imported once for the subtree."""

    def __init__(self, proc: subprocess.Popen, timeout: float):
        self.proc, self.timeout = proc, timeout
        self.chain: list[str] = []
        self.failed: set[str] = set()  # packages whose zygote could not serve (their import failed or made threads)

    def import_one(self, module: str, out: Path) -> dict | None:
        parts = module.split(".")
        ancestors = [".".join(parts[:i]) for i in range(1, len(parts))]
        keep = 0
        while keep < min(len(self.chain), len(ancestors)) and self.chain[keep] == ancestors[keep]:
            keep += 1
        while len(self.chain) > keep:
            if self._ask(len(self.chain) - 1, {"op": "pop"}, 30) is None:
                return None
            self.chain.pop()
        for package in ancestors[keep:]:
            if package in self.failed:
                break
            ok = self._ask(len(self.chain), {"op": "push", "package": package}, self.timeout + 30)
            if ok is None:
                return None
            if not ok:
                self.failed.add(package)
                break
            self.chain.append(package)
        return self._ask(len(self.chain), {"op": "import", "name": module, "out": str(out)}, self.timeout + 30)

    def _ask(self, depth: int, message: dict, timeout: float):
        """Send ``message`` to the process at ``depth``; its answer, or None if the server died or hung."""
        assert self.proc.stdin is not None  # a pipe: _start opens it
        try:
            self.proc.stdin.write(json.dumps({"depth": depth, **message}) + "\n")
            self.proc.stdin.flush()
        except OSError:
            return None
        line = _readline(self.proc, timeout)
        return json.loads(line) if line else None

    def stop(self) -> None:
        _stop(self.proc)


_LIVE: set[subprocess.Popen] = set()


def _start(python, env, root, timeout, preload, tmp) -> subprocess.Popen:
    log = open(tmp / f"server-{threading.get_ident()}.log", "ab")
    server = subprocess.Popen([str(python), "-c", SERVER, str(root), str(timeout), json.dumps(list(preload)),
                               str(tmp / "bytecode")],
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
