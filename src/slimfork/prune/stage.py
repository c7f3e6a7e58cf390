"""The symbol stage: cut dict registries, prune unreferenced symbols, plan again; repeat until nothing goes.

Works on the planning stages' scratch copy (the folded tree). Each round: summarise the kept modules, reach
symbols from the roots, prune every file that has something to prune, re-index and plan again. A round whose
pruning would make a module with import-time effects unreachable (registration, monkey patches, a third-party
import nothing kept makes any more) is undone, the imports leading to that module are protected, and the round
is tried again. What the stage decides comes back as data: the pruned files' contents, the symbol removals,
the modules that left because of them, and a report.
"""

from __future__ import annotations

import dataclasses
import os
import posixpath
import time
from dataclasses import dataclass, field
from pathlib import Path

from slimfork.decisions import Plan, Removal, Uncertain
from slimfork.globs import first_match
from slimfork.graph.graph import ModuleGraph
from slimfork.graph.symbols import PrunedSymbol, SymbolReach, reach_symbols
from slimfork.index.build import summary_of
from slimfork.index.relative import absolute_module, package_of
from slimfork.prune.test_reexports import kept_reexports, test_reads
from slimfork.index.symbols import SymbolSummary
from slimfork.plan.replan import replan
from slimfork.prune.emptied import emptied_modules
from slimfork.prune.support_tests import without_tests
from slimfork.prune.inputs import absent_tests, build_inputs, effect_violations, promised_names
from slimfork.prune.methods import unused_methods
from slimfork.prune.registries import cut_dict_registries
from slimfork.prune.report import symbols_data, symbols_markdown
from slimfork.prune.spec import SymbolsSpec, dict_registries
from slimfork.rewrite.prune import Cut, prune_source
from slimfork.source.test_folders import is_test_file, tests_of
from slimfork.source.test_subjects import names_its_subject
from slimfork.workers import fork_pool


@dataclass
class SymbolStage:
    contents: dict[str, bytes] = field(default_factory=dict)  # path -> content after the stage
    pruned: list[PrunedSymbol] = field(default_factory=list)
    modules_removed: list[Removal] = field(default_factory=list)  # unreachable because of this stage
    registries: list[dict] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    stale: list = field(default_factory=list)  # dict registries' keep patterns that match no key (errors.Stale)
    protected: dict[str, str] = field(default_factory=dict)
    uncertain: list[Uncertain] = field(default_factory=list)
    rounds: int = 0
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)  # seconds per step, summed over rounds
    reach: SymbolReach | None = None
    uncertain_methods: dict[str, set[str]] = field(default_factory=dict)  # module -> methods a lookup may build
    promised: dict[str, tuple[str, ...]] = field(default_factory=dict)  # module -> its public API names (first round)
    lost: list[str] = field(default_factory=list)  # promised names a rewritten file no longer binds (a rule's bug)
    support: dict[str, str] = field(default_factory=dict)  # module -> path: test support the rounds kept whole

    def removed_symbol(self, module: str, name: str) -> PrunedSymbol | None:
        return next((p for p in self.pruned if p.module == module and name in p.names), None)


Patched = tuple[list[tuple[str, str, str]], frozenset[str]]


def run_symbol_stage(analysis, stages, scratch: Path, jobs: int | None = None,
                     patched: Patched = ([], frozenset()), gone_tests: frozenset[str] = frozenset()) \
        -> SymbolStage | None:
    """Run when the spec has ``[symbols]`` or dict registries; updates ``stages.plan``/``stages.graph``.
    ``patched``: the names the tests patch, held as uses, and the attributes patched on them
    (testsuite/patches.py). ``gone_tests``: test files an earlier pass removed; what they read at import is no use."""
    spec = analysis.spec
    config: SymbolsSpec | None = spec.sections.get("symbols")
    registries = dict_registries(spec.raw.get("registries", []))
    if (config is None or not config.prune) and not registries:
        return None
    start = time.perf_counter()
    result = SymbolStage()
    before = {rel: (scratch / rel).read_bytes() for rel in analysis.index.files}

    tests = tests_of(analysis)  # tests follow the code: what only they use goes, and they with it (testsuite)
    registry_modules = cut_dict_registries(registries, stages.graph.mm, scratch, result)
    only = None if config is not None and config.prune else registry_modules
    config = config or SymbolsSpec()
    plan0, graph0 = stages.plan, stages.graph
    state = _State(stages.plan, stages.graph)
    if result.contents:
        state = _replan(analysis, stages, scratch, jobs)
    patched_symbols, patched_attrs = patched if only is None else ([], frozenset())
    reads = test_reads(analysis, stages.graph.mm, absent_tests(analysis, plan0, gone_tests)) if tests and only is None \
        else []
    attempts = 0
    loaded_doctests: set[str] = set()  # modules an attempt left unloaded that the plan kept: their doctests count
    while attempts < config.max_rounds * 2 and result.rounds < config.max_rounds:
        attempts += 1
        tick = _Ticker(result.timings)
        summaries = _summaries(state, scratch, tests)
        if attempts == 1:  # before any cut: what the fork must still have (the import-modules check reads it)
            result.promised = promised_names(spec, state.graph.mm, summaries, config, registry_modules)
        support = _test_support(state.graph, scratch, tests, gone_tests)
        result.support.update({m: state.graph.mm.modules[m].path or "" for m in support})
        summaries.update({m: summary for m, (summary, _) in support.items()})
        tick("summaries")
        inputs = build_inputs(analysis, state.graph, state.plan, summaries, config, result.protected,
                              registry_modules, gone_tests)
        inputs.keep_all.update({m: why for m, (_, why) in support.items()})
        inputs.loaded_doctests = frozenset(loaded_doctests)
        inputs.symbol_roots += [(m, name, why) for m, name, why in patched_symbols
                                if m in summaries and name in summaries[m].binders()]
        reach = reach_symbols(inputs)
        if reexports := kept_reexports(reads, summaries, reach, state.graph.mm):
            inputs.symbol_roots += reexports  # costs an import line each: the tests of what they name keep running
            reach = reach_symbols(inputs)
        tick("reach")
        todo = [p for p in reach.pruned if only is None or p.module in only]
        if only is None and config.methods:
            todo += _methods(state, summaries, reach, todo, config, result, inputs.text_words | patched_attrs)
        if not todo:
            result.reach = reach
            break
        written = _prune_files(todo, scratch, result, jobs)
        _undo_lost_imports(written, state, scratch, result, inputs.type_checking_free, tests)
        tick("prune")
        if not written:
            result.reach = reach
            break
        new_state = _replan(analysis, stages, scratch, jobs)
        tick("replan")
        violations = effect_violations(state, new_state, summaries, config.unneeded_effects, reach.registers)
        stayed = {m for m in reach.unloaded_doctests if m in new_state.graph.reached}  # their doctests still run
        if violations or stayed:
            for rel, content in written.items():
                (scratch / rel).write_bytes(content)  # undo the round; protect and try again
            result.protected.update(violations)
            loaded_doctests.update(stayed)
            continue
        result.rounds += 1
        result.pruned += [p for p in todo if _key(p) in written.indexes.get(p.path, ())]
        state, result.reach = new_state, reach
    for rel, old in before.items():
        now = (scratch / rel).read_bytes() if (scratch / rel).exists() else old
        if now != old:
            result.contents[rel] = now
    result.lost = static_losses(result.promised, stages.graph.mm, before, result.contents)
    emptied = emptied_modules(state.graph, state.plan, result.contents, scratch)
    state.plan.removals += emptied
    state.plan.kept = [k for k in state.plan.kept if k.path not in {r.path for r in emptied}]
    result.seconds = round(time.perf_counter() - start, 2)
    _finish(analysis, stages, state, plan0, graph0, result)
    return result


class _Ticker:
    def __init__(self, timings: dict[str, float]):
        self.timings, self.last = timings, time.perf_counter()

    def __call__(self, step: str) -> None:
        now = time.perf_counter()
        self.timings[step] = round(self.timings.get(step, 0.0) + now - self.last, 2)
        self.last = now


@dataclass
class _State:
    plan: Plan
    graph: ModuleGraph


class _Written(dict):
    """path -> the content before this round, for the files a round rewrote; ``indexes``: what it removed."""

    def __init__(self):
        super().__init__()
        self.indexes: dict[str, set[int]] = {}


def _summaries(state: _State, scratch: Path, tests: list[str]) -> dict[str, SymbolSummary]:
    """The symbol part of each kept module's summary (the re-plan's index has summarised the scratch copy), but the
    tests': a name only tests use is no kept code's (the test stage then removes the tests that use it)."""
    removed = state.plan.removed_paths()
    files = {}
    for k in state.plan.kept:
        if tests and first_match(tests, k.path) is not None:
            continue
        if k.path.endswith(".py") and k.module is not None and k.path not in removed and (scratch / k.path).is_file():
            files[k.module] = (k.path, (scratch / k.path).read_bytes())
    summaries = {m: summary_of(data).symbols for m, (_, data) in files.items()}
    return {m: summary for m, summary in summaries.items() if summary.error is None}


def _test_support(graph, scratch: Path, tests: list[str],
                  gone: frozenset[str] = frozenset()) -> dict[str, tuple[SymbolSummary, str]]:
    """Package modules no root reaches that tests of reached code import (``pkg.testing``), and the tests' own
    helpers (``tests/common.py``, whose base class checks ``issubclass(cls, IslamicHolidays)``), with what they
    import in turn: the test stage keeps them for those tests, so what they use of kept modules stays (module ->
    (summary, why)); else a helper's use of a pruned name takes every test that uses the helper with it. Not a
    module a registry cut no longer names (``graph.vacated``): it leaves whatever imports it, and the tests that
    use it go with it; nor the module a test file is named after: what it tests (source/test_subjects.py); nor a
    module an earlier pass of the stages removed (``gone``): the tests stage took the tests that import it as tests
    of removed code (pypinyin's ``runner.py``, whose ``getattr(pypinyin, options.func)`` kept every name of
    ``pypinyin/__init__.py``); nor what such a removed test file imports (geopy's ``test/geocoders/pelias.py``,
    imported by ``geocodeearth.py`` alone, kept ``Pelias``)."""
    if not tests:
        return {}
    mm, reached = graph.mm, graph.reached
    out: dict[str, tuple[SymbolSummary, str]] = {}

    def imports(module: str) -> list[str]:
        return [e.target for e in graph.edges.get(module, ()) if e.kind in ("import", "from")]

    for test, info in mm.modules.items():
        if info.path is None or first_match(tests, info.path) is None or info.path in gone:
            continue  # a test file an earlier pass removed makes nothing support (geopy's geocodeearth.py)
        imported, loaded = _test_imports(graph, test, info.path)
        if _tests_of_its_own(info.path) and not any(t in reached for t in imported):
            continue  # (a conftest and a helper serve every test that uses them)
        todo = [(t, f"test support: imported by {info.path}") for t in loaded]
        while todo:
            module, why = todo.pop()
            path = mm.modules[module].path if module in mm.modules else None
            if module in out or module in reached or module in graph.vacated or path is None or path in gone \
                    or first_match(tests, path) is not None and is_test_file(path) \
                    or not mm.is_internal(module) or not (scratch / path).is_file():
                continue
            source = (scratch / path).read_bytes()
            summary = summary_of(source).symbols
            if summary.error is None:
                out[module] = (without_tests(summary, source) if first_match(tests, path) is not None else summary,
                               why)
                todo += [(t, f"imported by {module}, {why}") for t in imports(module)]
    return out


def _tests_of_its_own(path: str) -> bool:
    """A test file, not a conftest nor a helper module of the test folder."""
    return is_test_file(path) and posixpath.basename(path) != "conftest.py"


def _test_imports(graph, test: str, path: str) -> tuple[list[str], list[str]]:
    """The modules a test file's imports name (``from pkg.africa.mozambique import M``: ``pkg.africa.mozambique``,
    not the packages above it), and those it loads as support: not the module it is named after nor the packages
    above that one on the same line (``test_asf.py`` tests ``mutagen.asf``; ``test_mozambique.py``'s import of
    ``pkg.africa.mozambique`` loads ``pkg.africa``, whose ``__init__`` imports every African calendar, only for
    that module: the stage cuts the import or removes the file with it)."""
    by_line: dict[int, list[str]] = {}
    for edge in graph.edges.get(test, ()):
        if edge.kind in ("import", "from"):
            by_line.setdefault(edge.line, []).append(edge.target)
    imported, loaded = [], []
    for targets in by_line.values():
        imported += [t for t in targets if not any(o.startswith(t + ".") for o in targets)]
        subjects = [t for t in targets if names_its_subject(path, t)]
        loaded += [t for t in targets if not any(s == t or s.startswith(t + ".") for s in subjects)]
    return imported, loaded


def _undo_lost_imports(written: "_Written", state: _State, scratch: Path, result: SymbolStage,
                       type_checking_free: bool = False, tests: list[str] | None = None) -> None:
    """A safety net behind the analysis: a rewritten file that lost a name some kept module imports from it
    (``from m import name``) is put back as it was, and the report says so. With ``type_checking_free``, an import
    under ``if TYPE_CHECKING:`` does not count (it never runs); nor does a test's (``tests``: the test stage cuts
    the import and the tests using the name)."""
    mm = state.graph.mm
    reached = state.graph.reached
    for rel in list(written):
        base = mm.module_of(rel)
        old = summary_of(written[rel]).symbols
        new = summary_of((scratch / rel).read_bytes()).symbols
        lost = set(old.binders()) - set(new.binders())
        if not lost or base is None:
            continue
        broken = []
        for src, _ in state.graph.importers(base):
            info = mm.modules.get(src)
            if src not in reached or info is None or info.path is None or not (scratch / info.path).is_file() \
                    or tests and first_match(tests, info.path) is not None:
                continue
            data = (scratch / info.path).read_bytes()
            summary = summary_of(data).symbols
            broken += [f"{src} imports {alias.name}" for st in summary.statements for alias in st.aliases
                       if alias.name in lost and _resolves_to(mm, src, alias, base)
                       and not (st.type_only and type_checking_free)]
        if broken:
            (scratch / rel).write_bytes(written.pop(rel))
            written.indexes.pop(rel, None)
            result.failures.append(f"{rel}: not pruned: {', '.join(sorted(set(broken))[:3])} (kept as it was)")


def _resolves_to(mm, module: str, alias, base: str) -> bool:
    info = mm.modules.get(module)
    return absolute_module(package_of(module, info is not None and info.is_package), alias.level, alias.module) == base


def _methods(state: _State, summaries, reach, todo, config, result: SymbolStage,
             text_words: frozenset[str]) -> list[PrunedSymbol]:
    paths = {m: path for m in summaries if (path := state.graph.mm.modules[m].path) is not None}  # all: kept files
    found, uncertain = unused_methods(summaries, paths, reach, {(p.module, p.index) for p in todo},
                                      config.pure_decorators, config.public_methods, frozenset(config.keep),
                                      text_words)
    for module, why in uncertain:
        result.uncertain_methods.setdefault(module, set()).add(why)
    return found


def _key(p: PrunedSymbol):
    return Cut(p.index, p.kind, p.aliases).key


def _prune_files(todo: list[PrunedSymbol], scratch: Path, result: SymbolStage, jobs: int | None) -> _Written:
    by_path: dict[str, list[PrunedSymbol]] = {}
    for p in todo:
        by_path.setdefault(p.path, []).append(p)
    items = [(rel, (scratch / rel).read_bytes(), [Cut(p.index, p.kind, p.aliases) for p in ps])
             for rel, ps in sorted(by_path.items())]
    written = _Written()
    for (rel, data, _), pruned in zip(items, _map(_prune, items, jobs)):
        if pruned.failure:
            result.failures.append(f"{rel}: {pruned.failure}")
        if pruned.new is not None:
            (scratch / rel).write_bytes(pruned.new)
            written[rel] = data
            written.indexes[rel] = set(pruned.removed)
    return written


def _prune(item):
    rel, data, cuts = item
    return prune_source(data, cuts, rel)


def _map(func, items: list, jobs: int | None) -> list:
    """``func`` over ``items``, in worker processes when there are many."""
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1 or len(items) < 16:
        return [func(item) for item in items]
    with fork_pool(jobs) as pool:
        return list(pool.map(func, items, chunksize=max(1, min(32, len(items) // (jobs * 8) or 1))))


def static_losses(promised: dict[str, tuple[str, ...]], mm, before: dict[str, bytes],
                  after: dict[str, bytes]) -> list[str]:
    """The promised public names a rewritten file of the fork binds no more at module level though the file did
    before the stage: a deletion no rule may make. Unknown keeps: a module ``__getattr__``, a star import or a file
    that does not parse counts as binding everything."""
    out = []
    for module, names in sorted(promised.items()):
        info = mm.modules.get(module)
        rel = info.path if info is not None else None
        if rel is None or rel not in after or rel not in before:
            continue
        was, now = _bound(before[rel]), _bound(after[rel])
        if was is not None and now is not None:
            out += [f"{rel}: {module} lost public name '{n}'" for n in names if n in was and n not in now]
    return out


def _bound(data: bytes) -> set[str] | None:
    """The names a module binds at top level; None where it may bind any name."""
    summary = summary_of(data)
    symbols = summary.symbols
    if summary.module_getattr or symbols.error is not None or summary.error is not None \
            or any(a.bound == "*" for st in symbols.statements for a in st.aliases):
        return None
    return set(symbols.binders())


def _replan(analysis, stages, scratch: Path, jobs: int | None) -> _State:
    plan, graph = replan(analysis.spec, analysis.tree, scratch, stages.plan, stages.graph, jobs, stages.vacated)
    return _State(plan, graph)


def _finish(analysis, stages, state: _State, plan0, graph0, result: SymbolStage) -> None:
    """The new plan: symbol removals, and the modules that left because of them (batched with the pruning)."""
    plan = state.plan
    gone_before = plan0.removed_paths()
    newly = {r.path for r in plan.removals if r.kind == "unreachable" and r.path not in gone_before}
    for i, r in enumerate(plan.removals):
        if r.path in newly:
            plan.removals[i] = dataclasses.replace(r, group="symbols", reason=r.reason + " (after symbol pruning)")
    result.modules_removed = [r for r in plan.removals if r.path in newly]
    # Pruned symbols stay out of plan.removals (a list of files): they are in ``result.pruned`` and the report.
    result.pruned = [p for p in result.pruned if p.path not in newly]
    for rel in list(result.contents):
        if rel in plan.removed_paths():
            del result.contents[rel]
    if result.reach is not None:
        seen = set()
        for module, why in result.reach.uncertain:
            info = state.graph.modules.get(module)
            if info is not None and info.path and (module, why) not in seen:
                seen.add((module, why))
                every = "" if why.startswith("names starting with") else "all "  # own_lookup's prefixes
                result.uncertain.append(Uncertain(info.path, 0, f"symbols of {module}", f"{every}kept: {why}"))
        for module, whys in sorted(result.uncertain_methods.items()):
            info = state.graph.modules.get(module)
            if info is not None and info.path and module in state.graph.reached:
                result.uncertain += [Uncertain(info.path, 0, f"methods of {module}", f"kept: {why}")
                                     for why in sorted(whys)]
        plan.uncertain += result.uncertain
    plan.warnings += [f"symbol pruning: {f}" for f in result.failures]
    plan.warnings += [f"symbol pruning: {lost} (the import-modules check restores the file; --no-verify stops)"
                      for lost in result.lost]
    stages.plan, stages.graph = plan, state.graph
    stages.symbols = result

    stages.reports.append(("Symbols pruned", symbols_markdown(result)))
    stages.data["symbols"] = symbols_data(result)
