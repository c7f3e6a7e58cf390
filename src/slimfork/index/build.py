"""Index a source tree: summarise every Python file in parallel, cached on disk by content hash and by the version
of the code that summarises (``source.cache``); ``summary_of``: the same summary for content given as bytes."""

from __future__ import annotations

import os
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from weakref import WeakValueDictionary

from slimfork.index import content_store
from slimfork.index.parse import content_hash, count_lines, summarize
from slimfork.index.summary import ModuleSummary
from slimfork.progress import progress
from slimfork.source.cache import cache_dir, code_version, read_cache, write_cache
from slimfork.source.layout import skipped_dir
from slimfork.workers import fork_pool


@dataclass
class Index:
    root: Path
    files: dict[str, ModuleSummary]  # relative posix path -> summary
    parsed: int = 0  # how many files were parsed in this run (the rest came from the cache)
    other_files: list[str] = field(default_factory=list)  # non-Python files, relative posix paths
    data_from: tuple[Path, list[str]] | None = None  # (root, other_files) of the original, for a Python-only copy


# This process's summaries by content hash, while something holds them (an index, a verified tree, or one of the
# last _RECENT_SIZE that summary_of returned): a file's text met again (a scratch copy, a fork's batch, a rewrite
# undone) is not parsed again, and the summaries of texts nothing holds any more (the symbol stage's
# intermediate rounds: about 75 MB a round on sglang) are freed.
_BY_CONTENT: WeakValueDictionary[str, ModuleSummary] = WeakValueDictionary()
_RECENT: OrderedDict[str, ModuleSummary] = OrderedDict()
_RECENT_SIZE = 512


def summary_of(data: bytes) -> ModuleSummary:
    """The summary of a file's content, for text that is not (or not yet) in an index: a rewrite in memory, a
    file of the scratch copy or of a fork. Parsed once per content while it is held (see ``_BY_CONTENT``)."""
    sha = content_hash(data)
    summary = _BY_CONTENT.get(sha)
    if summary is None:
        summary = _BY_CONTENT[sha] = summarize(data, sha)
    _RECENT[sha] = summary
    _RECENT.move_to_end(sha)
    if len(_RECENT) > _RECENT_SIZE:
        _RECENT.popitem(last=False)
    return summary


def summarize_all(contents: dict[str, bytes], jobs: int | None = None) -> dict[str, ModuleSummary]:
    """The summaries of the contents (content hash -> bytes), parsing those this process holds none of, in parallel
    when there are many. The caller holds the result for as long as it needs them."""
    out = {sha: known for sha in contents if (known := _BY_CONTENT.get(sha)) is not None}
    todo = {sha: data for sha, data in contents.items() if sha not in out}
    jobs = jobs or os.cpu_count() or 1
    if jobs > 1 and len(todo) > 64:
        with fork_pool(jobs) as pool:
            out.update(zip(todo, pool.map(summarize, todo.values(), todo.keys(), chunksize=16)))
    else:
        out.update((sha, summarize(data, sha)) for sha, data in todo.items())
    _BY_CONTENT.update((sha, out[sha]) for sha in todo)
    return out


def is_held(sha: str) -> bool:
    """Whether this process holds the summary of this content (an index or a tree has it)."""
    return sha in _BY_CONTENT


def summary_by_hash(sha: str) -> ModuleSummary:
    """The summary of content this process holds (``summary_of``, ``summarize_all``, an index); KeyError if none."""
    return _BY_CONTENT[sha]


def python_files(root: Path) -> tuple[list[str], list[str]]:
    """All .py files and all other files under ``root``, relative posix paths, sorted. A symbolic link whose target
    is missing (a link into a folder a later commit removed) is no file: nothing can read it."""
    py: list[str] = []
    other: list[str] = []
    root_str = str(root)
    for dirpath, dirnames, filenames in os.walk(root_str):
        dirnames[:] = sorted(d for d in dirnames if not skipped_dir(Path(dirpath, d)))
        rel = os.path.relpath(dirpath, root_str)
        rel = "" if rel == "." else rel.replace(os.sep, "/") + "/"
        for name in filenames:
            if os.path.exists(os.path.join(dirpath, name)):
                (py if name.endswith(".py") else other).append(rel + name)
    return sorted(py), sorted(other)


def _summarize_path(args: tuple[str, str]) -> tuple[str, ModuleSummary]:
    root, rel = args
    with open(os.path.join(root, rel), "rb") as fh:
        data = fh.read()
    return rel, summarize(data)


def build_index(root: Path, jobs: int | None = None, use_cache: bool = True, reuse: Index | None = None,
                skip: Callable[[str], bool] | None = None) -> Index:
    """Summaries of every .py file under ``root``. ``reuse``: another index whose summaries are taken for files
    with the same content (a scratch copy of a tree re-parses only the files that were rewritten). ``skip``:
    files whose content does not matter (the spec drops them whatever they say): not parsed, only their lines
    counted, unless the cache already has them."""
    root = Path(root).resolve()
    py, other = python_files(root)
    cache_file = cache_dir("index") / f"{content_hash(str(root).encode())}-{code_version(Path(__file__).parent)}.pkl"
    cached: dict[str, tuple[int, int, ModuleSummary]] = read_cache(cache_file, {}) if use_cache else {}
    by_sha = {entry[2].sha: entry[2] for entry in cached.values()}
    if reuse is not None:
        by_sha.update({summary.sha: summary for summary in reuse.files.values()})
    files: dict[str, ModuleSummary] = {}
    todo: list[str] = []
    fresh: dict[str, tuple[int, int, ModuleSummary]] = {}
    for rel in py:
        st = os.stat(os.path.join(root, rel))
        hit = cached.get(rel)
        if hit is not None and (hit[0] != st.st_mtime_ns or hit[1] != st.st_size):
            hit = None  # the file changed since
        if skip is not None and skip(rel):  # a placeholder whether or not the cache has it (another run's
            if hit is not None:              # fold summarised it): an index is the same cold or warm
                files[rel] = ModuleSummary("", hit[2].lines)
                fresh[rel] = hit  # kept in the cache for the run that needs it
                continue
            with open(os.path.join(root, rel), "rb") as fh:
                data = fh.read()
            files[rel] = ModuleSummary("", count_lines(data))
            continue  # a placeholder: never cached
        if hit is not None:
            files[rel] = _BY_CONTENT.get(hit[2].sha) or hit[2]  # one object per content in the process
        else:
            with open(os.path.join(root, rel), "rb") as fh:
                sha = content_hash(fh.read())
            known = by_sha.get(sha) or _BY_CONTENT.get(sha) or (content_store.load(sha) if use_cache else None)
            if known is not None:  # a rewrite summary_of has met, a copy of this tree, another release
                files[rel] = known
            else:
                todo.append(rel)
        if rel in files:
            fresh[rel] = (st.st_mtime_ns, st.st_size, files[rel])
    if todo:
        jobs = jobs or os.cpu_count() or 1
        with progress("indexing Python files", len(todo)) as advance:  # "indexing (7)": 7 of what?
            if jobs > 1 and len(todo) > 64:
                with fork_pool(jobs) as pool:
                    for rel, summary in pool.map(_summarize_path, [(str(root), r) for r in todo], chunksize=32):
                        files[rel] = summary
                        advance()
            else:
                for rel in todo:
                    files[rel] = _summarize_path((str(root), rel))[1]
                    advance()
        for rel in todo:
            st = os.stat(os.path.join(root, rel))
            fresh[rel] = (st.st_mtime_ns, st.st_size, files[rel])
        if use_cache:
            content_store.save(files[rel] for rel in todo)
    if use_cache and (todo or len(fresh) != len(cached)):
        write_cache(cache_file, fresh)
    _BY_CONTENT.update((summary.sha, summary) for summary in files.values() if not summary.placeholder)
    return Index(root, dict(sorted(files.items())), parsed=len(todo), other_files=other)
