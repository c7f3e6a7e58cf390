"""The ladder of checks: baselines once on the original, then cheapest first on each tree, results cached.

A result is cached under (tree, check): the tree is named by the git tree of the last verified state plus the
digests of the edits on top of it, so a re-run or a resumed run never re-checks a tree it has seen. A check may
carry a ``cache_key`` string (its configuration, its environment) that joins the key, and may set
``cache_baseline = True`` when its baseline can be pickled and reused by a later process: such baselines are
cached by the original's content and the check's key, never by the profile, so a second profile with the same
checks on the same release pays nothing for them. Candidate trees of a
bisection are checked in parallel, each in its own scratch copy: baselines and candidates are jobs of an
``Executor`` (``slimfork.verify.executor``: a local pool, or a Ray cluster), each carrying the tree it checks.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import inspect
import json
import os
import pickle
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from slimfork.apply import faults
from slimfork.apply.model import BaselineRun, CheckRun
from slimfork.apply.tree import apply_edits, copy_tree, edits_key
from slimfork.decisions import Edit
from slimfork.errors import SlimforkError
from slimfork.fsutil import write_atomic
from slimfork.source.cache import code_version
from slimfork.verify.executor import Executor, Job, LocalExecutor
from slimfork.verify.model import Baseline, Check, CheckResult

CACHE_VERSION = "1"


@dataclass
class Outcome:
    """The ladder on one tree: every result up to and including the first failure."""

    results: list[CheckResult]
    cached: list[bool]

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)

    @property
    def failure(self) -> CheckResult | None:
        return next((r for r in self.results if not r.ok), None)

    def runs(self) -> list[CheckRun]:
        return [CheckRun(r.check, r.ok, round(r.seconds, 3), hit, list(r.failures[:20]), r.detail)
                for r, hit in zip(self.results, self.cached)]


def check_key(check: Check) -> str:
    """What a cached result of ``check`` depends on besides the tree: its name and its configuration.

    A check may say it with a ``cache_key`` string; otherwise the repr of its attributes stands for it (memory
    addresses removed) with the content of its ``key_files()``, so a check configured differently, or running an
    edited script, never reuses another's results.
    """
    key = getattr(check, "cache_key", None)
    if key is None:
        try:
            state = repr(sorted((k, v) for k, v in vars(check).items() if k != "executor"))
        except TypeError:
            state = repr(check)
        h = hashlib.sha256(re.sub(r" at 0x[0-9a-fA-F]+", "", state).encode())
        for path in getattr(check, "key_files", list)():  # files the check runs, outside the tree: by content
            h.update(b"\0" + str(path).encode() + b"\0" + path.read_bytes())
        key = h.hexdigest()
    return f"{check.name}\0{type(check).__qualname__}\0{key}\0{_verify_code()}"


@functools.cache
def _verify_code() -> str:
    """The checks' own code: a result an older slimfork computed is never reused by a newer one."""
    return code_version(Path(inspect.getfile(Baseline)).parent)


CRASHED = "crashed"  # the failure of a check that raised instead of answering


def _sha(*parts: str) -> str:
    return hashlib.sha256("\0".join((CACHE_VERSION,) + parts).encode()).hexdigest()


def _run_check(check: Check, tree: Path, baseline: Baseline) -> CheckResult:
    start = time.perf_counter()
    try:
        result = check.run(tree, baseline)
    except Exception as exc:  # a check that crashes on a fork is a failure: unknown means keep
        result = CheckResult(check.name, False, (f"check {check.name} {CRASHED}: {type(exc).__name__}: {exc}",))
    if not result.seconds:
        result = dataclasses.replace(result, seconds=time.perf_counter() - start)
    return _relative(result, tree)


def _relative(result: CheckResult, tree: Path) -> CheckResult:
    """Failures name files relative to the tree: a result must read the same for every copy of one tree."""
    prefixes = sorted({str(tree), os.path.realpath(tree)}, key=len, reverse=True)

    def clean(text: str) -> str:
        for prefix in prefixes:
            text = text.replace(prefix + os.sep, "").replace(prefix, ".")
        return text

    return dataclasses.replace(result, failures=tuple(clean(f) for f in result.failures),
                               detail=clean(result.detail))


def _baseline_job(original: Path, check: Check) -> Baseline:
    return _baseline(check, original)


def _baseline(check: Check, original: Path) -> Baseline:
    start = time.perf_counter()
    try:
        base = check.baseline(original)
    except Exception as exc:
        base = Baseline(check.name, False, note=f"crashed on the original: {type(exc).__name__}: {exc}")
    if not base.seconds:
        base.seconds = time.perf_counter() - start
    return base


class Ladder:
    def __init__(self, checks: list[Check], *, cache_root: Path | None, jobs: int,
                 executor: Executor | None = None):
        names = [c.name for c in checks]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise SlimforkError(f"two checks share the name {dupes[0]!r}", hint="every check needs its own name")
        self.checks = sorted(checks, key=lambda c: (c.cost, c.name))
        self.keys = {c.name: check_key(c) for c in self.checks}  # taken once: a check may fill caches later
        self.cache_root = cache_root
        self.executor = executor or LocalExecutor(max(1, jobs))
        for check in self.checks:
            if hasattr(check, "executor"):  # a check that spreads its own jobs (the module imports)
                check.executor = self.executor  # type: ignore[attr-defined]
        self.jobs = max(1, self.executor.workers)  # trees a bisection checks at once
        self.baselines: dict[str, Baseline] = {}
        self.baseline_runs: list[BaselineRun] = []
        self.memo: dict[str, CheckResult] = {}

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["executor"] = LocalExecutor(1)  # a copy sent to a worker checks its one tree there
        return state

    def identity(self) -> list[str]:
        return [self.keys[c.name] for c in self.checks]

    # -- baselines -------------------------------------------------------------------------------------
    def compute_baselines(self, original: Path, original_tree: str) -> None:
        """Run every check's baseline on the untouched original (in parallel; cached by the original's tree)."""
        for check in self.checks:
            if hasattr(check, "original"):  # a check that runs a failing test on the original again (the pytest check)
                check.original = original  # type: ignore[attr-defined]
        todo = []
        for check in self.checks:
            cached = self._load_baseline(original_tree, check)
            if cached is not None:
                self.baselines[check.name] = cached
            else:
                todo.append(check)
        if todo:
            # a baseline that pickles (``cache_baseline``) may run on another machine; the others run here
            # (one that spreads its own jobs runs here and sends them)
            found = self.executor.map([Job(_baseline_job, original, (c,), portable=getattr(c, "cache_baseline", False)
                                           and not hasattr(c, "executor")) for c in todo])
            for check, base in zip(todo, found):
                self.baselines[check.name] = base
                self._store_baseline(original_tree, check, base)
        for check in self.checks:
            base = self.baselines[check.name]
            self.baseline_runs.append(BaselineRun(check.name, base.usable, base.note, round(base.seconds, 3),
                                                  cached=check not in todo, skipped=getattr(base, "skipped", False)))

    def _baseline_file(self, original_tree: str, check: Check) -> Path | None:
        if self.cache_root is None:
            return None
        if not getattr(check, "cache_baseline", False):  # opt-in: a baseline may lean on process state
            return None
        return self.cache_root / "baselines" / f"{_sha(original_tree, self.keys[check.name])}.pkl"

    def _load_baseline(self, original_tree: str, check: Check) -> Baseline | None:
        path = self._baseline_file(original_tree, check)
        if path is None:
            return None
        try:
            with open(path, "rb") as fh:
                return pickle.load(fh)
        except Exception:  # absent, unreadable or from another version: compute again
            return None

    def _store_baseline(self, original_tree: str, check: Check, base: Baseline) -> None:
        path = self._baseline_file(original_tree, check)
        if path is None or not base.usable:  # one that did not run (a timeout on a loaded machine): next time again
            return
        try:
            write_atomic(path, pickle.dumps(base, protocol=pickle.HIGHEST_PROTOCOL))
        except Exception:  # data that cannot be pickled is only recomputed next time
            pass

    @property
    def active(self) -> list[tuple[Check, Baseline]]:
        return [(c, self.baselines[c.name]) for c in self.checks if self.baselines[c.name].usable]

    # -- results ---------------------------------------------------------------------------------------
    def _result_key(self, tree_key: str, check: Check) -> str:
        return _sha(tree_key, self.keys[check.name])

    def _lookup(self, key: str) -> CheckResult | None:
        if key in self.memo:
            return self.memo[key]
        if self.cache_root is None:
            return None
        try:
            data = json.loads((self.cache_root / "results" / key[:2] / f"{key}.json").read_text())
            result = CheckResult(data["check"], data["ok"], tuple(data["failures"]), tuple(data["paths"]),
                                 data["seconds"], data["detail"])
        except Exception:
            return None
        self.memo[key] = result
        return result

    def _store(self, key: str, result: CheckResult) -> None:
        self.memo[key] = result
        crashed = any(f.startswith(f"check {result.check} {CRASHED}: ") for f in result.failures)
        if self.cache_root is not None and not crashed:  # a crash (a killed run, a bug of ours) says nothing about
            # the tree: the next run checks it again
            try:
                write_atomic(self.cache_root / "results" / key[:2] / f"{key}.json",
                             json.dumps(dataclasses.asdict(result), sort_keys=True))
            except OSError:  # a worker whose machine cannot write the cache: the coordinator stores it
                pass

    def cached_outcome(self, tree_key: str) -> Outcome | None:
        results = []
        for check, _ in self.active:
            result = self._lookup(self._result_key(tree_key, check))
            if result is None:
                return None
            results.append(result)
            if not result.ok:
                break
        return Outcome(results, [True] * len(results))

    def run(self, tree: Path, tree_key: str) -> Outcome:
        """The ladder on ``tree``, cheapest check first, stopping at the first failure."""
        results, cached = [], []
        for check, baseline in self.active:
            key = self._result_key(tree_key, check)
            result = self._lookup(key)
            cached.append(result is not None)
            if result is None:
                faults.tick()
                result = _run_check(check, tree, baseline)
                self._store(key, result)
            results.append(result)
            if not result.ok:
                break
        return Outcome(results, cached)

    def run_many(self, base: Path, base_tree: str, edit_sets: list[list[Edit]], scratch: Path) -> list[Outcome]:
        """The ladder on ``base`` + each edit set, each in a scratch copy; in parallel when there are cores."""
        keys = [edits_key(base_tree, edits) for edits in edit_sets]
        outcomes: list[Outcome | None] = [self.cached_outcome(k) for k in keys]
        todo = [i for i, o in enumerate(outcomes) if o is None]
        if not todo:
            return outcomes  # type: ignore[return-value]
        faults.tick()
        jobs = [Job(_evaluate, base, (self, scratch, edit_sets[i], keys[i]), isolated=True) for i in todo]
        fresh = self.executor.map(jobs) if len(todo) > 1 else [_evaluate(base, *jobs[0].args)]
        for i, outcome in zip(todo, fresh):
            for (check, _), result in zip(self.active, outcome.results):
                self._store(self._result_key(keys[i], check), result)
            outcomes[i] = outcome
        return outcomes  # type: ignore[return-value]


def _evaluate(base: Path, ladder: Ladder, scratch: Path, edits: list[Edit], key: str) -> Outcome:
    """The ladder on ``base`` + ``edits``, in a scratch copy of its own (on a worker without ``scratch``, a
    temporary folder)."""
    where = Path(tempfile.mkdtemp(prefix="candidate-", dir=scratch if Path(scratch).is_dir() else None))
    try:
        copy_tree(base, where)
        apply_edits(where, edits)
        return ladder.run(where, key)
    finally:
        shutil.rmtree(where, ignore_errors=True)
