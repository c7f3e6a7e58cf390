"""A command check's read set: what its Python processes read of the tree, so that a later tree which reads the
same gives the same result without running again.

The command runs with ``trace_runtime.py`` loaded into every Python process it starts (a ``sitecustomize`` first
on ``PYTHONPATH``, chaining to the next one). What they opened, stat-ed, listed, and looked for as modules without
finding, under the tree (or the scratch install of it, mapped back to the tree), is the read set. A tree in which
every one of those paths has the same content (a folder: the same names, none added) and no missing module has
appeared reads the same bytes, so the command behaves as it did. The set is unusable, and the command always
runs, when a process is not seen whole: a child that is not Python (a compiler, a shell), a process that ended
without writing its trace (``os._exit``, a signal, a forked child), or a file of the install that is not the
tree's file at the same place (a build that generates or moves sources).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from slimfork.fsutil import write_atomic
from slimfork.index.parse import content_hash
from slimfork.source.cache import cache_dir
from slimfork.verify.installed import build_digest

_META = (".dist-info", ".egg-info")


@dataclass(frozen=True)
class ReadSet:
    paths: tuple[tuple[str, str], ...]  # tree-relative path -> "-" (absent), "dir", or the file's content hash
    folders: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]  # listed: (path, names then, names it saw)
    missing: tuple[tuple[str, bool], ...]  # module names looked for and not imported: whether the tree had one
    installed: bool = False  # read from an install of the tree: its build files and metadata count too
    record: bool = False  # the install's RECORD was read: so does the list of the tree's files
    extra: str = ""

    def holds(self, tree: Path, python_root: str) -> bool:
        """Whether ``tree`` gives a process that reads this set the same bytes."""
        root = Path(tree)
        if _extra(root, self.installed, self.record) != self.extra:
            return False
        if any(_key(root / rel) != key for rel, key in self.paths):
            return False
        for rel, then, seen in self.folders:
            names = set(_names(root / rel))
            if not names <= set(then) or not set(seen) <= names:
                return False
        return all(_module_present(root / python_root, name) == had for name, had in self.missing)

    def __len__(self) -> int:
        return len(self.paths) + len(self.folders)


def trace_folder() -> Path:
    """A folder with the tracer and a ``sitecustomize.py`` that installs it; put it first on PYTHONPATH."""
    runtime = (Path(__file__).parent / "trace_runtime.py").read_text(encoding="utf-8")
    site = ("import os, _slimfork_trace\n_slimfork_trace.install()\n"
            "_slimfork_trace.chain(os.path.dirname(__file__))\n")
    folder = cache_dir("trace") / hashlib.blake2b((runtime + site).encode(), digest_size=8).hexdigest()
    if not (folder / "sitecustomize.py").is_file():
        write_atomic(folder / "_slimfork_trace.py", runtime)
        write_atomic(folder / "sitecustomize.py", site)  # written last: its presence means complete
    return folder


def traced_env(env: dict[str, str], out: Path, roots: list[Path]) -> dict[str, str]:
    """``env`` with the tracer on: every Python process started with it writes its trace into ``out``."""
    path = [str(trace_folder())] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
    return {**env, "PYTHONPATH": os.pathsep.join(path), "SLIMFORK_TRACE": str(out),
            "SLIMFORK_TRACE_ROOTS": os.pathsep.join(dict.fromkeys(p for r in roots  # as given and resolved:
                                                                  for p in (os.path.abspath(r), os.path.realpath(r))))}


def collect(out: Path, tree: Path, python_root: str, site: Path | None = None) -> ReadSet | str:
    """The read set of the processes traced into ``out``, or why it cannot be used. ``site``: where the tree was
    installed (read while the install still exists)."""
    out, tree = Path(out), Path(tree).resolve()
    traces, started = [], {p.stem for p in out.glob("*.start")}
    for path in sorted(out.glob("*.json")):
        traces.append(json.loads(path.read_text()))
        started.discard(path.stem)
    if not traces:
        return "no Python process of the command was traced"
    if started:
        return f"{len(started)} process(es) ended without writing a trace (os._exit, a signal, an exec or a fork)"
    broken = next((t["broken"] for t in traces if t["broken"]), "")
    if broken:
        return f"the tracer failed: {broken}"
    spawned = [s for t in traces for s in t["spawned"]]
    if spawned:
        return f"it runs a program that is not Python ({spawned[0]}): what that reads is not seen"
    if len([t for t in traces if not t["forked"]]) != 1 + sum(t["python_children"] for t in traces):
        return "a Python child did not load the tracer (started with -I, -E or -S?)"
    mapped = _Mapper(tree, python_root, Path(site).resolve() if site else None)
    paths: dict[str, str] = {}
    for name in ("opened", "stated", "loaded"):
        for full in (p for t in traces for p in t[name]):
            rel = mapped.rel(full)
            if isinstance(rel, str):
                paths[rel] = _key(tree / rel)
            elif rel is False:
                return f"the install's {full} is not the tree's file at the same place"
    folders = {}
    for full in sorted({p for t in traces for p in t["listed"]}):
        rel = mapped.rel(full, folder=True)
        if rel is False:
            return f"the install's folder {full} is not the tree's"
        if isinstance(rel, str):
            then = _names(tree / rel)
            seen = sorted(set(then) & set(_names(Path(full)))) if site else then
            folders[rel] = (rel, tuple(then), tuple(seen))
    top = set(_names(tree / python_root))
    names = {m for t in traces for m in t["missing"] if m.split(".")[0] in top}
    missing = [(name, _module_present(tree / python_root, name)) for name in sorted(names)]
    record = mapped.record_read
    return ReadSet(tuple(sorted(paths.items())), tuple(sorted(folders.values())), tuple(missing), site is not None,
                   record, _extra(tree, site is not None, record))


class _Mapper:
    """A traced absolute path as a path of the tree: a str, None (outside the tree and its install, or the
    install's metadata, which ``ReadSet.extra`` covers), or False (a file the install has that the tree has not
    at the same place)."""

    def __init__(self, tree: Path, python_root: str, site: Path | None):
        self.tree, self.python_root, self.site, self.record_read = tree, python_root, site, False

    def rel(self, full: str, folder: bool = False) -> str | None | bool:
        path = Path(os.path.realpath(full))  # a process may see the tree through a symlink (macOS's /tmp)
        if path.is_relative_to(self.tree):
            return path.relative_to(self.tree).as_posix()
        if self.site is None or not path.is_relative_to(self.site):
            return None
        inner = path.relative_to(self.site)
        if inner.parts and inner.parts[0].endswith(_META):
            self.record_read |= inner.name == "RECORD"
            return None
        if inner.parts and inner.parts[0].startswith("_slimfork_"):  # the deps .pth the scratch venv gets
            return None
        rel = (Path(self.python_root) / inner).as_posix() if self.python_root else inner.as_posix()
        rel = "." if rel in ("", ".") else rel
        if folder:
            return rel if (self.tree / rel).is_dir() and path.is_dir() else False
        return rel if _key(self.tree / rel) == _key(path) else False


def _key(path: Path) -> str:
    if path.is_dir():
        return "dir"
    try:
        return content_hash(path.read_bytes())
    except OSError:
        return "-"


def _names(folder: Path) -> list[str]:
    try:
        return sorted(n for n in os.listdir(folder) if n != "__pycache__")
    except OSError:
        return []


def _module_present(python_root: Path, module: str) -> bool:
    *parents, last = module.split(".")
    folder = python_root.joinpath(*parents)
    return any(n == last or n.split(".")[0] == last and n.endswith((".py", ".so", ".pyd"))
               for n in _names(folder))


def _extra(tree: Path, installed: bool, record: bool) -> str:
    """What an install's result depends on besides the files it reads: the build files, the paths they name,
    the metadata a wheel source carries, and (when the install's RECORD was read) which files the tree has."""
    if not installed:
        return ""
    h = hashlib.blake2b(build_digest(tree).encode(), digest_size=12)
    for meta in sorted(p for p in tree.iterdir() if p.name.endswith(_META) and p.is_dir()):
        for path in sorted(meta.rglob("*")):
            if path.is_file():
                h.update(path.relative_to(tree).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    if record:
        for dirpath, dirnames, filenames in sorted(os.walk(tree)):
            dirnames.sort()
            h.update("\0".join([os.path.relpath(dirpath, tree), *sorted(filenames)]).encode())
    return h.hexdigest()
