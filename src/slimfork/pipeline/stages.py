"""The planning stages, in order, on a scratch copy of the source: cut the registries, fold the facts, plan again
(modules that only deleted branches imported become unreachable), prune symbols, fold and drop kernel and native
sources, decide the tests. Nothing here touches the source or the output: what the stages decide comes back in
``Stages`` (slimfork.plan.stages), cached by the content of everything they read; the part up to the plan on the
folded tree is cached apart, so a change to ``[symbols]`` or ``[kernels]`` alone re-plans from there."""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import slimfork
from slimfork import __version__
from slimfork.facts.env_writes import env_write_warnings, name_write_warnings
from slimfork.facts.instances import creation_warnings
from slimfork.globs import first_match
from slimfork.graph.public_api import kept_api, public_api
from slimfork.index.build import build_index
from slimfork.index.parse import content_hash
from slimfork.kernels.stage import kernel_stage
from slimfork.mapping.cuts import cut_registries
from slimfork.mapping.held_uses import removed_definitions_in_use
from slimfork.pipeline.key_uses import removed_keys_in_use
from slimfork.plan.build import settle_uncertain
from slimfork.plan.replan import replan
from slimfork.plan.stages import Stages
from slimfork.facts.python import with_requires_python
from slimfork.prune.inputs import import_time_test_uses
from slimfork.prune.stage import run_symbol_stage
from slimfork.rewrite import fold_tree
from slimfork.source.cache import cache_dir, code_version, read_cache, write_cache
from slimfork.spec.kinds import REWRITING_KINDS
from slimfork.source.test_folders import tests_of
from slimfork.testsuite.patches import patched_names
from slimfork.testsuite.stage import plan_tests
from slimfork.testsuite.support import is_support_name


def run_stages(analysis, jobs: int | None = None) -> Stages:
    spec = analysis.spec
    facts = with_requires_python(spec.sections.get("facts"), analysis.tree.dist)
    if (facts is None or not (facts or facts.preprocessor_raw)) and "kernels" not in spec.sections \
            and not spec.sections.get("registries") and not tests_of(analysis) \
            and "symbols" not in spec.sections \
            and not any(r.get("kind") in REWRITING_KINDS for r in spec.raw.get("registries", [])):
        return Stages(analysis.plan, analysis.graph)
    cache_file = cache_dir("stages") / f"{_stages_key(analysis)}.pkl"
    # The graphs of the stages hold the original's summaries of every file they did not rewrite: by reference.
    shared: dict[str, object] = {s.sha: s for s in analysis.index.files.values() if not s.placeholder}
    known = read_cache(cache_file, None, shared)  # the spec and every file are as last time: the result is known
    if isinstance(known, Stages):
        known.data["stage_seconds"] = {}  # nothing ran this time
        return known
    held: frozenset[str] = frozenset()
    gone: frozenset[str] = frozenset()  # test files (and test support) a pass removed: no roots
    previous: Stages | None = None
    while True:  # at most once more per definition a decorator cut removed that kept code still names
        scratch = Path(tempfile.mkdtemp(prefix="slimfork-stages-"))
        try:
            stages = _run(analysis, facts, scratch, jobs, shared, held, gone)
            more = removed_definitions_in_use(stages, scratch, tests_of(analysis)) - held
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        if more:
            held |= more
            continue
        if previous is not None and not gone <= _gone_files(stages):
            stages = previous  # a test file the pass took as gone stays after all: its reads were needed
            break
        newly = (_gone_readers(analysis, stages) | _gone_support(stages) | _gone_support_importers(stages)) - gone
        if not newly:
            break
        previous, gone = stages, gone | newly  # once more without their reads (fewer roots: they go again)
    write_cache(cache_file, stages, shared)
    return stages


def _gone_files(stages: Stages) -> frozenset[str]:
    """The files the plan removes and the test files the tests stage removes whole."""
    return frozenset(stages.plan.removed_paths()) | {r.path for r in stages.test_removals if r.symbol is None}


def _gone_support(stages: Stages) -> frozenset[str]:
    """Modules the symbol stage kept whole as test support that the fork removes after all (the tests stage took
    the tests importing them as tests of removed code): their uses were roots of symbol pruning."""
    support = stages.symbols.support if stages.symbols is not None else {}
    return frozenset(support.values()) & _gone_files(stages)


def _gone_support_importers(stages: Stages) -> frozenset[str]:
    """Test files the fork removes that import a module the symbol stage kept as test support: what they import
    was support for them alone, maybe (geopy's ``geocodeearth.py``, the one importer of ``test/geocoders/pelias.py``,
    kept ``Pelias``); the next pass leaves their imports out of the support."""
    support = set(stages.symbols.support) if stages.symbols is not None else set()
    if not support:
        return frozenset()
    gone, graph = _gone_files(stages), stages.graph
    return frozenset(info.path for name, info in graph.mm.modules.items() if info.path in gone
                     and any(edge.target in support for edge in graph.edges.get(name, ())))


def _gone_readers(analysis, stages: Stages) -> frozenset[str]:
    """Test files the plan removes that read library names at import time (``prune.inputs``): those reads were
    roots of symbol pruning, though the fork has no such file (PyYAML's ``test_yaml_ext.py``, which goes because a
    helper it imports lost a name, read ``yaml.dump`` and kept the whole dumper)."""
    tests = tests_of(analysis)
    removed = _gone_files(stages)
    if not tests or analysis.spec.sections.get("symbols") is None:
        return frozenset()
    mm = stages.graph.mm
    readers: set[str] = set()
    import_time_test_uses(analysis, mm, set(mm.modules), removed=frozenset(
        rel for rel in analysis.index.files if rel not in removed), readers=readers)
    return frozenset(readers)


def _run(analysis, facts, scratch: Path, jobs: int | None, shared: dict[str, object],
         held: frozenset[str], gone: frozenset[str] = frozenset()) -> Stages:
    tree, index = analysis.tree, analysis.index
    for rel in index.files:
        (scratch / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(tree.root / rel, scratch / rel)
    folded_file = cache_dir("stages") / f"{_folded_key(analysis, held)}.folded.pkl"
    known = read_cache(folded_file, None, shared)  # only [symbols], [kernels] or the tests' data changed
    if isinstance(known, Folded):
        stages, cuts = known.stages, known.cuts
        stages.data["stage_seconds"] = {}  # the cuts, the fold and the plan after them: not run this time
        for rel, content in known.files.items():
            (scratch / rel).write_bytes(content)
    else:
        stages, cuts = _cut_and_fold(analysis, facts, scratch, jobs, held)
        write_cache(folded_file, Folded(stages, cuts, _changed(scratch, tree.root, index)), shared)
    seconds = stages.data.setdefault("stage_seconds", {})
    started = time.perf_counter()
    symbols = analysis.spec.sections.get("symbols")
    patched = patched_names(analysis, scratch, tests_of(analysis)) if symbols is not None and symbols.prune \
        else ([], frozenset())
    run_symbol_stage(analysis, stages, scratch, jobs, patched, gone)  # [symbols] and dict registries (nothing when neither)
    if facts is not None and bool(facts):
        _check_facts(facts, stages, scratch, tests_of(analysis))
    started = _lap(seconds, "symbols", started)
    kernel_stage(analysis, stages, facts, scratch, jobs)
    stages.plan.warnings += removed_keys_in_use(analysis, stages, scratch)
    started = _lap(seconds, "kernels", started)
    if tests_of(analysis):
        plan_tests(analysis, stages, scratch, cuts)
    settle_uncertain(stages.plan)
    _lap(seconds, "tests", started)
    return stages


def _lap(seconds: dict[str, float], name: str, started: float) -> float:
    """Add the seconds since ``started`` to ``seconds[name]`` (report.json's ``stage_seconds``); the time now."""
    now = time.perf_counter()
    seconds[name] = round(seconds.get(name, 0.0) + now - started, 2)
    return now


def _changed(scratch: Path, root: Path, index) -> dict[str, bytes]:
    """The files of ``scratch`` whose content is not the source's (a placeholder's: by its bytes)."""
    changed = {}
    for rel, summary in index.files.items():
        data = (scratch / rel).read_bytes()
        if content_hash(data) != summary.sha if summary.sha else data != (root / rel).read_bytes():
            changed[rel] = data
    return changed


@dataclass
class Folded:
    """The stages up to the plan on the folded tree, and the files they changed (rel path -> content)."""

    stages: Stages
    cuts: list
    files: dict[str, bytes]


def _cut_and_fold(analysis, facts, scratch: Path, jobs: int | None, held: frozenset[str]) -> tuple[Stages, list]:
    """Cut the registries and fold the facts in ``scratch``, then plan again on the folded tree."""
    stages = Stages(analysis.plan, analysis.graph)
    seconds = stages.data.setdefault("stage_seconds", {})
    started = time.perf_counter()
    cuts, decorated = cut_registries(analysis, stages, scratch, held)  # the tests stage reads the mapping cuts
    started = _lap(seconds, "registries", started)
    folding = facts is not None and bool(facts)
    if folding:
        _fold(analysis, stages, facts, scratch, jobs)
        started = _lap(seconds, "fold", started)
    if folding or any(c.new_source for c in cuts + decorated):  # the cuts change the graph: plan again
        stages.plan, stages.graph = replan(analysis.spec, analysis.tree, scratch, analysis.plan, analysis.graph,
                                           jobs, stages.vacated)
        _fold_counted(stages)
        _lap(seconds, "plan again", started)
    return stages, cuts


def _fold(analysis, stages: Stages, facts, scratch: Path, jobs: int | None) -> None:
    """Fold the facts into what the first plan keeps: folding deletes branches, so it can only make fewer modules
    reachable."""
    mm, removed = analysis.graph.mm, analysis.plan.removed_paths()
    internal = {rel: mod for rel, mod in mm.by_path.items() if mm.is_internal(mod)}
    modules = {rel: mod for rel, mod in internal.items() if rel not in removed}
    others = {rel: mod for rel, mod in internal.items() if rel not in modules}
    symbols = analysis.spec.sections.get("symbols")
    public = public_api(analysis.spec.roots, mm, symbols.drop if symbols else (), kept_api(symbols, modules.values()))
    held = _dropped_summaries(analysis, jobs)  # the workers forked by the fold inherit them
    report = fold_tree(scratch, modules, facts, jobs=jobs, others=others, public=public)
    del held
    stages.fold_report = report
    for fold in report.changed:
        stages.rewrite(fold.path, (scratch / fold.path).read_bytes(),
                       f"folded {fold.branches} branches ({fold.lines_removed} lines)")


def _dropped_summaries(analysis, jobs: int | None):
    """The original's index with the files the spec drops summarised too (the analysis's leaves them out), or None
    when it has them all. The fold reads what those files import (they stay until the fork's last batches), and
    each of its workers summarised them again, once per pass (sglang: 1,499 files, most of the fold's time); this
    parses them once, cached on disk, where the checks' baselines find them later."""
    if not any(s.placeholder for s in analysis.index.files.values()):
        return None
    return build_index(analysis.tree.root, jobs=jobs)


def _fold_counted(stages: Stages) -> None:
    """The fold report counts the folded files the new plan keeps; a file the fork leaves out is not rewritten."""
    removed = stages.plan.removed_paths()
    if stages.fold_report is not None:
        stages.fold_report.later_removed = {f.path for f in stages.fold_report.changed} & removed
        stages.reports.append(("Facts folded", stages.fold_report.to_markdown()))
        stages.data["facts"] = stages.fold_report.to_dict()
    for rel in list(stages.rewritten):
        if rel in removed:
            del stages.rewritten[rel]


def _check_facts(facts, stages: Stages, scratch: Path, tests: list[str]) -> None:
    """Warn where the fork still creates an object of a class ``never_instances`` declares, and where code outside
    the tests (their folders, and modules named as test code: ``pkg.test.common``) sets an environment variable
    ``[facts.env]`` fixes."""
    removed = stages.plan.removed_paths()
    kept = [k for k in stages.plan.kept
            if k.path.endswith(".py") and k.path not in removed and (scratch / k.path).is_file()]
    files = [(k.path, (scratch / k.path).read_bytes()) for k in kept]
    test_code = {k.path for k in kept if first_match(tests, k.path) is not None
                 or k.module and is_support_name(k.module)}
    code = [(rel, data) for rel, data in files if rel not in test_code]
    for warning in creation_warnings(facts, files) + env_write_warnings(facts, code) \
            + name_write_warnings(facts, code):
        if warning not in stages.plan.warnings:
            stages.plan.warnings.append(warning)


def _stages_key(analysis) -> str:
    """Everything the stages read: slimfork's version, the spec's tables, and every file's content."""
    raw = {k: v for k, v in analysis.spec.raw.items() if k not in ("out", "checks", "verify", "version_suffix")}
    return _key(analysis, [raw, _unifdef_identity(analysis)])


def _folded_key(analysis, held: frozenset[str]) -> str:
    """What the registry cuts, the fold and the plan after them read: all but the symbol stage's settings (the
    names it must not treat as API aside) and the kernel sources' tables, so a change there re-plans from the
    folded tree."""
    raw = {k: v for k, v in analysis.spec.raw.items()
           if k not in ("out", "checks", "verify", "symbols", "kernels", "version_suffix")}
    symbols = analysis.spec.raw.get("symbols", {})
    return _key(analysis, ["folded", raw, symbols.get("drop", []), symbols.get("public_api", "kept"), sorted(held)])


def _key(analysis, parts: list) -> str:
    h = hashlib.blake2b(digest_size=16)
    h.update(json.dumps([__version__, code_version(Path(slimfork.__file__).parent), str(analysis.tree.root),
                         *parts], sort_keys=True, default=str).encode())
    for rel, summary in sorted(analysis.index.files.items()):  # a dropped file's content too: the fold reads it
        sha = summary.sha or content_hash((analysis.tree.root / rel).read_bytes())
        h.update(f"{rel}\0{sha}\0".encode())
    for rel in analysis.index.other_files:
        st = (analysis.tree.root / rel).stat()
        h.update(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()


def _unifdef_identity(analysis) -> str:
    """Which unifdef folds the kernel sources (binary and version, or the Python port): part of the cache key."""
    facts = analysis.spec.sections.get("facts")
    if facts is None or not facts.preprocessor_raw:
        return ""
    from slimfork.kernels.unifdef import find_engine

    return find_engine().describe()
