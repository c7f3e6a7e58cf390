"""Fold the facts into a whole tree: find the files that mention a fact, learn which module-level names the
facts make constant (across modules), then fold every such file in parallel. Files are rewritten in place
(``root`` is the pipeline's scratch copy); a file that fails a safety check is left unmodified and reported.
"""

from __future__ import annotations

import dataclasses
import os
import re
import time
from pathlib import Path

from slimfork.facts.bindings import ModuleBindings, Resolver, read_bindings
from slimfork.facts.evaluate import trigger_text
from slimfork.facts.expressions import trigger
from slimfork.facts.model import ATTRIBUTE, ENV, EXPRESSION, FactSet
from slimfork.facts.options import inert_options, inert_values
from slimfork.facts.table import build_table, propagate
from slimfork.facts.python import DEFAULT_KEY
from slimfork.facts.unmatched import explain_unmatched
from slimfork.fsutil import write_atomic
from slimfork.graph.public_api import PublicApi
from slimfork.index.build import summary_of
from slimfork.index.parse import content_hash, decode, parse_python
from slimfork.index.relative import absolute_module
from slimfork.progress import progress
from slimfork.rewrite.constant_args import Uses, constant_parameters, file_uses
from slimfork.rewrite.file import FoldContext, fold_source
from slimfork.rewrite.methods import method_uses
from slimfork.rewrite.report import FileFold, FoldReport
from slimfork.workers import fork_pool

_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_STATE: dict = {}  # what forked workers inherit: root, modules, context, word index


def fact_words(facts: FactSet) -> set[str]:
    """What a file must contain for a fact to match in it (a cheap text prefilter)."""
    return {fact.target if fact.kind == ENV else trigger(fact.target) if fact.kind == EXPRESSION
            else trigger_text(fact.target) for fact in facts.facts}


def fold_tree(root: Path, modules: dict[str, str], facts: FactSet, *, jobs: int | None = None,
              others: dict[str, str] | None = None, public: PublicApi | None = None) -> FoldReport:
    """Fold ``modules`` (path -> module name). ``others`` are the tree's other modules (dropped or unreachable):
    not folded, but a name one of them imports is not removed, since the fork's batches delete them only after
    the folded files are checked. ``public``: the public names of API modules, never cleaned up."""
    started = time.perf_counter()
    root = Path(root)
    jobs = jobs or os.cpu_count() or 1
    report = FoldReport(scanned=len(modules))
    if not facts:
        return report
    lap = _Lap(report)
    everything = {**(others or {}), **modules}
    resolver = Resolver(root, everything)
    words = fact_words(facts)
    candidates: set[str] = set()
    pending = sorted(modules)
    while True:  # each round: files that mention a word we care about, their bindings, the constant flags
        found = _map(_mentions, [(rel, sorted(words)) for rel in pending], jobs, root, modules)
        fresh = [rel for rel, hit in zip(pending, found) if hit]
        candidates.update(fresh)
        for rel, bindings in zip(fresh, _map(_bindings, fresh, jobs, root, modules)):
            resolver.cache[modules[rel]] = bindings
        # From scratch each round: a file found late may patch a flag in a test (pitfall 23).
        patched = {name for rel in candidates for name in _known(resolver, modules[rel]).patched}
        table = build_table(facts, resolver)
        flags, used = propagate(table, resolver, [_known(resolver, modules[r]) for r in sorted(candidates)],
                                set(fact_words(facts)), patched)
        new_words = {q.rsplit(".", 1)[-1] for q in flags} - words
        if not new_words:
            break
        words |= new_words
        pending = sorted(set(modules) - candidates)
    lap("find the files and flags")
    report.flags = flags
    report.candidates = len(candidates)
    flag_names = {q.rsplit(".", 1)[-1] for q in report.flags}
    interesting = words | flag_names
    for rel in sorted(candidates):
        for name, line in _known(resolver, modules[rel]).patched.items():
            if name in interesting:
                report.patched.append((name, rel, line))
    # Which files mention the names a candidate binds, for the "used elsewhere" check of the clean-up.
    needed: set[str] = set()
    for rel in candidates:
        b = _known(resolver, modules[rel])
        needed |= set(b.imports) | set(b.assigns) | b.defs | {modules[rel].rsplit(".", 1)[-1]}
    index: dict[str, set[str]] = {}
    chunks = [sorted(everything)[i::jobs * 4] for i in range(jobs * 4)]
    for part in _map(_scan_words, [(chunk, needed) for chunk in chunks], jobs, root, everything):
        for word, files in part.items():
            index.setdefault(word, set()).update(files)
    lap("index the words")
    _STATE["context"] = FoldContext(table, resolver, _Protection(root, everything, resolver, index),
                                    public=public or PublicApi())
    results = _map(_fold_file, sorted(candidates), jobs, root, modules, label="folding facts")
    report.files = [r for r in results if r is not None]
    lap("fold the files")
    if facts.unused_methods:
        _remove_unused_methods(report, frozenset(facts.unused_methods), jobs, root, modules)
        lap("remove unused methods")
    if facts.constant_arguments:
        _fold_constant_arguments(report, table, jobs, root, modules)
        lap("fold constant arguments")
    switches: dict[str, list[tuple[str, str]]] = {}
    predicates: dict[str, str] = {}  # enum predicates fixed false: `*.is_aiter()` -> its fact's key
    for fact in facts.by_kind(ATTRIBUTE):
        if fact.target.endswith("()"):  # a method's result is not an option, but may test an option's value
            if fact.value is False:
                predicates.setdefault(fact.target[:-2].rsplit(".", 1)[-1], fact.key)
        else:
            receiver, attr = fact.target.split(".")[:2]
            switches.setdefault(attr, []).append((receiver, fact.key))
    if switches:
        report.inert_options = inert_options(root, sorted(modules), switches)
    if predicates:
        report.inert_values = inert_values(root, sorted(modules), predicates)
    lap("find inert options")
    # A match in a file that could not be folded changed nothing: the fact is unmatched, and the report says why.
    matched = used | {key for f in report.files if not f.failure for key, _ in f.matches}
    report.unmatched = [f for f in facts.facts if f.key not in matched and not f.key.startswith(DEFAULT_KEY)]
    if report.unmatched:
        failed_matches: dict[str, list[str]] = {}
        for f in report.failures:
            for key, _ in f.matches:
                failed_matches.setdefault(key, []).append(f.path)
        report.unmatched_why = explain_unmatched(root, report.unmatched, resolver, modules, others or {},
                                                 {f.path: f.failure for f in report.failures if f.failure},  # all
                                                 failed_matches)
    lap("explain unmatched facts")
    report.seconds = time.perf_counter() - started
    _STATE.clear()
    return report


class _Lap:
    """Records the seconds since the last lap under a name, in the fold report's ``phases``."""

    def __init__(self, report: FoldReport):
        self.report, self.last = report, time.perf_counter()

    def __call__(self, name: str) -> None:
        now = time.perf_counter()
        self.report.phases[name] = self.report.phases.get(name, 0.0) + now - self.last
        self.last = now


def _known(resolver: Resolver, module: str) -> ModuleBindings:
    """The bindings of a module the resolver has read (a file of the source: never None)."""
    bindings = resolver.cache[module]
    assert bindings is not None
    return bindings


def _remove_unused_methods(report: FoldReport, names: frozenset[str], jobs: int, root: Path,
                           modules: dict[str, str]) -> None:
    """Second pass, on the folded files: delete the declared methods nothing kept names as an attribute, then
    fold those files again (the arms and imports only those methods used go too)."""
    files = [rel for rel, hit in zip(sorted(modules), _map(_mentions, [(rel, sorted(names)) for rel in
                                                                        sorted(modules)], jobs, root, modules)) if hit]
    defined: set[str] = set()
    for rel, (defs, refs) in zip(files, _map(_method_uses, [(rel, names) for rel in files], jobs, root, modules)):
        for name, line in refs:
            report.methods_kept.setdefault(name, []).append((rel, line))
        if defs:
            defined.add(rel)
    allowed = names - set(report.methods_kept)
    if not allowed:
        return
    _STATE["context"] = dataclasses.replace(_STATE["context"], unused_methods=allowed)
    _merge(report, _map(_fold_file, sorted(defined), jobs, root, modules, label="removing methods"))


def _fold_constant_arguments(report: FoldReport, table, jobs: int, root: Path, modules: dict[str, str],
                             rounds: int = 3) -> None:
    """Rounds on the folded files: parameters every call passes one constant (``rewrite/constant_args.py``)
    become local constants of their function, whose file folds again; that fold may make more arguments
    constant (a call in a deleted branch no longer counts), hence the rounds."""
    known: set[tuple[str, str, str]] = set()
    seen: dict[str, tuple[str, Uses | None]] = {}  # rel -> (content hash, uses): a round reads only the files folded
    for _ in range(rounds):
        contents = {rel: _digest(root / rel) for rel in sorted(modules)}
        todo = [rel for rel in contents if rel not in seen or seen[rel][0] != contents[rel]]
        for rel, found_uses in zip(todo, _map(_file_uses, todo, jobs, root, modules, label="constant arguments")):
            seen[rel] = (contents[rel], found_uses)
        uses = [seen[rel][1] for rel in contents]
        found = constant_parameters([u for u in uses if u is not None])
        fresh = [c for c in found if (c.module, c.function, c.parameter) not in known]
        if not fresh:
            return
        table.parameters.clear()  # keyed by the lines of this round's files
        for c in found:
            table.parameters.setdefault((c.module, c.end, c.function.rpartition(".")[2]), {})[c.parameter] = c.value
        known.update((c.module, c.function, c.parameter) for c in fresh)
        report.constant_parameters.extend(fresh)
        _merge(report, _map(_fold_file, sorted({c.path for c in fresh}), jobs, root, modules,
                            label="folding constant arguments"))


def _merge(report: FoldReport, results) -> None:
    """Each file's earlier fold followed by its fold in a later pass."""
    again = {r.path: r for r in results if r is not None}
    merged = []
    for first in report.files:
        second = again.pop(first.path, None)
        merged.append(first.then(second) if second is not None else first)
    report.files = merged + list(again.values())


def _digest(path: Path) -> str:
    try:
        return content_hash(path.read_bytes())
    except OSError:
        return ""


def _file_uses(rel: str):
    try:
        tree = parse_python(decode((_STATE["root"] / rel).read_bytes()))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError, LookupError, RecursionError):
        return None
    return file_uses(tree, rel, _STATE["modules"][rel])


class _Protection:
    """Is a module-level name of ``module`` used from another file (imported, or read as an attribute)?"""

    def __init__(self, root: Path, modules: dict[str, str], resolver: Resolver, index: dict[str, set[str]]):
        self.root, self.modules, self.resolver, self.index = root, modules, resolver, index
        self.paths = {m: rel for rel, m in modules.items()}
        self._imports: dict[str, set[str]] = {}

    def __call__(self, module: str, name: str) -> bool:
        own = self.paths.get(module)
        last = module.rsplit(".", 1)[-1]
        qualname = f"{module}.{name}"
        near = self.index.get(last, set())
        for rel in sorted(self.index.get(name, set()) - {own}):
            other = self.resolver.bindings(self.modules[rel])
            if other is None or other.error:
                return True
            if any(target == qualname or self.resolver.canonical(target) == qualname
                   for target in self._imports_anywhere(rel)):
                return True  # imported by name in any scope, possibly through a re-export
            if rel in near:
                try:
                    if f".{name}".encode() in (self.root / rel).read_bytes():
                        return True  # read as an attribute of the module (or named in a dotted string)
                except OSError:
                    return True
        if not name.startswith("_"):  # public names travel through `from module import *`
            for rel in sorted((near & self.index.get(_STAR, set())) - {own}):
                other = self.resolver.bindings(self.modules[rel])
                if other is None or other.error or module in other.star_imports:
                    return True
        return False


    def _imports_anywhere(self, rel: str) -> set[str]:
        """The qualified names ``from m import name`` binds anywhere in a file (functions, classes, branches;
        names bound twice included), unlike the module-level ``bindings.imports``."""
        if rel not in self._imports:
            module = self.modules[rel]
            package = module if rel.endswith("__init__.py") else module.rpartition(".")[0]
            found: set[str] = set()
            try:
                edges = summary_of((self.root / rel).read_bytes()).imports  # every import statement, in any scope
            except OSError:
                edges = []
            for edge in edges:
                if edge.kind == "from":
                    source = absolute_module(package, edge.level, edge.module)
                    found.update(f"{source}.{name}" for name in edge.names if source and name != "*")
            self._imports[rel] = found
        return self._imports[rel]


_STAR = " import *"


def _map(func, items, jobs, root, modules, label: str | None = None):
    _STATE["root"], _STATE["modules"] = root, modules
    items = list(items)
    if jobs <= 1 or len(items) < 8:
        with progress(label or "scanning", len(items)) as advance:
            out = []
            for item in items:
                out.append(func(item))
                advance()
            return out
    with fork_pool(jobs) as pool:
        with progress(label or "scanning", len(items)) as advance:
            out = []
            for result in pool.map(func, items, chunksize=max(1, min(16, len(items) // (jobs * 8) or 1))):
                out.append(result)
                advance()
            return out


def _mentions(args) -> bool:
    rel, words = args
    try:
        data = (_STATE["root"] / rel).read_bytes()
    except OSError:
        return False
    return any(word.encode() in data for word in words)


def _method_uses(args):
    rel, names = args
    try:
        tree = parse_python(decode((_STATE["root"] / rel).read_bytes()))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError, LookupError, RecursionError):
        return [], []
    return method_uses(tree, names)


def _bindings(rel: str):
    return read_bindings(_STATE["root"], rel, _STATE["modules"][rel])


def _scan_words(args) -> dict[str, list[str]]:
    chunk, needed = args
    out: dict[str, list[str]] = {}
    for rel in chunk:
        try:
            data = (_STATE["root"] / rel).read_bytes()
        except OSError:
            continue
        for word in {w.decode() for w in set(_WORD.findall(data))} & needed:
            out.setdefault(word, []).append(rel)
        if b"import *" in data:
            out.setdefault(_STAR, []).append(rel)
    return out


def _fold_file(rel: str) -> FileFold | None:
    root, modules, ctx = _STATE["root"], _STATE["modules"], _STATE["context"]
    path = root / rel
    bindings = ctx.resolver.bindings(modules[rel])
    if bindings is None:
        return None
    if path.is_symlink():
        return FileFold(rel, modules[rel], failure="a symbolic link: not rewritten")
    try:
        data = path.read_bytes()
    except OSError as exc:
        return FileFold(rel, modules[rel], failure=f"cannot read: {exc}")
    new, result = fold_source(data, rel, bindings, ctx)
    if new is not None:
        write_atomic(path, new, mode=path.stat().st_mode & 0o7777)
    return result
