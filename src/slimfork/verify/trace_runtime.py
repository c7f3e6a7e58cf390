"""What a check's Python processes read (copied as ``_slimfork_trace.py`` beside a ``sitecustomize.py``; stdlib
only). With ``SLIMFORK_TRACE`` naming a folder, each process writes ``TAG.start`` at once and ``TAG.json`` at exit:

- ``opened``: every path opened (``open`` audit events: source files the import system reads, data files),
- ``stated``: every path passed to ``os.stat``/``os.lstat`` (``os.path.exists``, ``Path.is_file``; the import
  system's own stats go through ``posix`` and are covered by the next two),
- ``listed``: every folder listed by code (``os.listdir``, ``os.scandir``; not the import system's cache fill),
- ``imported``: every module name an import looked for, and ``loaded``: the files and package folders of the
  modules loaded at exit, so a name looked for and not found can be checked for absence,
- ``spawned``: children that are not Python (a compiler, a shell): their reads are not seen.

Only paths under ``SLIMFORK_TRACE_ROOTS`` are kept. A process that ends without its ``.json`` (``os._exit``, a
signal, an ``exec``, a forked child) leaves a ``.start`` alone, which tells the reader the trace is incomplete.
Nothing here writes to stdout or stderr, and a failure inside the hook marks the trace incomplete, never the run.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import sys

_PYTHON = re.compile(r"python[0-9.]*$")
_EVENTS = frozenset({"open", "import", "os.listdir", "os.scandir", "subprocess.Popen", "os.posix_spawn", "os.spawn",
                     "os.system", "os.exec", "pty.spawn"})
# Programs that report on the machine and read nothing of a tree (torch and triton run ``ldconfig -p`` to find
# libraries): a child of these whose arguments name no path of the tree leaves the trace whole.
_SYSTEM_INFO = frozenset({"ldconfig", "ldconfig.real", "uname", "nproc", "getconf", "lscpu", "hostname",
                          "nvidia-smi", "rocm-smi", "rocminfo", "lsb_release"})


class _Trace:
    def __init__(self, out: str, roots: tuple[str, ...]):
        self.out, self.roots = out, roots
        self.opened: set[str] = set()
        self.stated: set[str] = set()
        self.listed: set[str] = set()
        self.imported: set[str] = set()
        self.spawned: list[str] = []
        self.python_children = 0
        self.broken = ""
        self.tag = ""
        self.fork = False
        self.begin()

    def begin(self) -> None:
        self.tag = f"{os.getpid()}-{os.urandom(4).hex()}"
        with open(os.path.join(self.out, self.tag + ".start"), "w"):
            pass

    def keep(self, path) -> str | None:
        if isinstance(path, int) or path is None:
            return None
        try:
            full = os.path.abspath(os.fsdecode(path))
        except (TypeError, ValueError):
            return None
        return full if full.startswith(self.roots) else None

    def hook(self, event: str, args: tuple) -> None:
        if event not in _EVENTS:
            return
        try:
            if event == "open":
                full = self.keep(args[0])
                if full:
                    self.opened.add(full)
            elif event == "import":
                self.imported.add(args[0])
            elif event in ("os.listdir", "os.scandir"):
                caller = sys._getframe(1).f_code
                if caller.co_name != "_fill_cache" or "importlib" not in caller.co_filename:
                    full = self.keep("." if args[0] is None else args[0])
                    if full:
                        self.listed.add(full)
            elif event in ("subprocess.Popen", "os.posix_spawn", "os.spawn"):
                self.child(event, args)
            elif event in ("os.system", "os.exec", "pty.spawn"):
                self.spawned.append(f"{event} {str(args[0])[:100]}")
        except Exception as exc:  # never the run's failure
            self.broken = f"{event}: {type(exc).__name__}: {exc}"

    def child(self, event: str, args: tuple) -> None:
        if event == "subprocess.Popen":  # (executable, args, cwd, env): executable is args[0] when not given
            program, argv, cwd, env = args
        elif event == "os.posix_spawn":  # (path, argv, env)
            (program, argv, env), cwd = args, None
        else:  # os.spawn: (mode, path, args, env)
            (_, program, argv, env), cwd = args, None
        program = os.fsdecode(program)
        if is_python(program, (env if env is not None else os.environ).get("PATH")):
            self.python_children += 1
            return
        words = [argv] if isinstance(argv, (str, bytes)) else list(argv or ())
        paths = [w for w in words + [cwd] if isinstance(w, (str, bytes)) and os.sep in os.fsdecode(w)]
        if os.path.basename(program) not in _SYSTEM_INFO or any(self.keep(p) for p in paths):
            self.spawned.append(program[:100])

    def stat(self, path) -> None:
        full = self.keep(path)
        if full:
            self.stated.add(full)

    def finish(self) -> None:
        try:
            data = self.data()
        except Exception as exc:  # never the run's failure: the trace says it is broken
            data = {"broken": f"at exit: {type(exc).__name__}: {exc}"}
        tmp = os.path.join(self.out, self.tag + ".tmp")
        with open(tmp, "w") as fh:
            json.dump(data, fh)
        os.replace(tmp, os.path.join(self.out, self.tag + ".json"))

    def data(self) -> dict:
        loaded = set()
        for module in list(sys.modules.values()):
            try:  # its own dict: a lazy module's __getattr__ would import at exit; a module-like object's
                # __path__ may be anything (torch's _ClassNamespace)
                own = vars(module)
                places = [own.get("__file__"), *list(own.get("__path__") or ())]
            except Exception:
                continue
            for place in places:
                full = self.keep(place) if isinstance(place, str) else None
                if full:
                    loaded.add(full)
        missing = sorted(name for name in self.imported if name not in sys.modules)
        return {"opened": sorted(self.opened), "stated": sorted(self.stated), "listed": sorted(self.listed),
                "missing": missing, "loaded": sorted(loaded), "spawned": self.spawned,
                "python_children": self.python_children, "broken": self.broken, "forked": self.fork}

    def forked(self) -> None:  # the child's trace is its own, and it likely ends with os._exit: incomplete
        self.opened, self.stated, self.listed, self.imported = set(), set(), set(), set()
        self.spawned, self.python_children, self.fork = [], 0, True
        self.begin()


def is_python(program: str, path: str | None = None) -> bool:
    """Whether ``program`` (a command's first word; ``path``: the PATH to find it on) starts a Python interpreter:
    one named python*, or a script whose ``#!`` line names one (a console script)."""
    if os.sep not in program:
        import shutil

        program = shutil.which(program, path=path) or program
    if _PYTHON.search(os.path.basename(program)):
        return True
    try:
        with open(program, "rb") as fh:
            first = fh.readline(300)
    except OSError:
        return False
    return first.startswith(b"#!") and b"python" in first


def _wrap_stat(trace: _Trace, real):
    def stat(path, *args, **kwargs):
        if not args and kwargs.get("dir_fd") is None:
            trace.stat(path)
        return real(path, *args, **kwargs)

    stat.__name__, stat.__doc__ = real.__name__, real.__doc__
    for supports in (os.supports_fd, os.supports_dir_fd, os.supports_follow_symlinks, os.supports_effective_ids):
        if real in supports:  # shutil asks `os.stat in os.supports_follow_symlinks` to pick its fd-based rmtree
            supports.add(stat)
    return stat


def install() -> None:
    out = os.environ.get("SLIMFORK_TRACE")
    if not out or not os.path.isdir(out):
        return
    roots = tuple(r.rstrip(os.sep) + os.sep for r in os.environ.get("SLIMFORK_TRACE_ROOTS", "").split(os.pathsep)
                  if r)
    trace = _Trace(out, roots)
    os.stat, os.lstat = _wrap_stat(trace, os.stat), _wrap_stat(trace, os.lstat)
    sys.addaudithook(trace.hook)
    atexit.register(trace.finish)
    os.register_at_fork(after_in_child=trace.forked)


def chain(here: str) -> None:
    """Run the next ``sitecustomize`` on the path (the ``[verify]`` stubs', an interpreter's own), as it would
    run without this folder first."""
    import importlib.machinery
    import importlib.util

    spec = importlib.machinery.PathFinder.find_spec(
        "sitecustomize", [p for p in sys.path if os.path.abspath(p or ".") != os.path.abspath(here)])
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        sys.modules["sitecustomize"] = module
        spec.loader.exec_module(module)
