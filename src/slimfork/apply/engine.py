"""Apply a plan in verified batches: apply, check, bisect what fails, restore the culprits, commit the rest.

The output folder is a git repository: its first commit is a copy of the source, then one commit per batch.
Its work tree is the scratch copy of the batch being checked; git holds the last verified state, and anything
uncommitted is discarded on resume or on Ctrl-C. The source is only ever read.
"""

from __future__ import annotations

import os
import shutil
import signal
import threading
import time
from pathlib import Path

from slimfork.apply import faults
from slimfork.apply.bisect import BisectionLimit, ddmin_restoration, minimal_restoration
from slimfork.apply.deps import dependencies_first, import_edges
from slimfork.apply.git import Repo
from slimfork.apply.ladder import Ladder, Outcome
from slimfork.apply.model import ApplyReport, BatchResult, CheckRun, RestoredEdit
from slimfork.decisions import PUT_BACK, Batch, Edit
from slimfork.apply.output import open_output, rewind, save_journal
from slimfork.apply.pace import Pace, reinstalls
from slimfork.apply.report import commit_message
from slimfork.apply.tree import resolve_edit_path, apply_edits, check_edit_path, edits_key
from slimfork.errors import SlimforkError
from slimfork.progress import counted, progress, say
from slimfork.source.cache import cache_dir
from slimfork.verify.model import Check, CheckResult
from slimfork.verify import cancel
from slimfork.verify.executor import Executor, LocalExecutor


SEARCHES = {"prefix": minimal_restoration, "ddmin": ddmin_restoration}
# Trees a failing batch's bisection may check (a few culprits among thousands of edits; about 30 minutes of
# sglang's static checks). Past it, the edits not yet searched are restored as a whole (each with the limit as its
# reason), so a batch never bisects for hours.
BISECT_LIMIT = 40


def run_batches(original: Path, out: Path, batches: list[Batch], checks: list[Check], *, jobs: int | None = None,
                resume: bool = True, cache: bool = True, search: str = "prefix",
                bisect_limit: int | None = BISECT_LIMIT, executor: Executor | None = None) -> ApplyReport:
    """Write ``out``: a git repository holding the source minus every batch's edits that the checks allow.

    ``resume``: continue an interrupted run into the same ``out`` (same source and checks; batches that are
    unchanged are not redone). ``cache``: reuse check results and baselines from earlier runs
    ($SLIMFORK_CACHE/apply), keyed by tree contents and check name. ``search``: how a failing batch is
    bisected, "prefix" (fewest trees) or "ddmin" (see ``slimfork.apply.bisect``); ``bisect_limit``: the most
    trees one batch's bisection checks (None: no limit). ``executor``: where the baselines and a bisection's
    candidate trees are checked (default: a local pool of ``jobs`` workers; see ``slimfork.verify.executor``).
    """
    if search not in SEARCHES:
        raise SlimforkError(f"unknown bisection search {search!r}", hint=f"one of: {', '.join(SEARCHES)}")
    start = time.perf_counter()
    original, out = Path(original).resolve(), Path(os.path.abspath(out))
    _validate(original, out, batches)
    jobs = max(1, jobs or os.cpu_count() or 1)
    faults.arm()
    cancel.reset()
    ladder = Ladder(checks, cache_root=cache_dir("apply") if cache else None, jobs=jobs,
                    executor=executor or LocalExecutor(jobs))
    with _sigterm_as_interrupt():
        repo, journal = open_output(original, out, ladder.identity(), resume)
        scratch = repo.git_dir / "slimfork-scratch"
        shutil.rmtree(scratch, ignore_errors=True)
        report = ApplyReport(str(original), str(out), base_commit=journal["base_commit"], notes=journal["notes"])
        try:
            with progress(f"checks on the original ({counted(len(checks), 'check')})"):
                ladder.compute_baselines(original, journal["base_tree"])
            report.baselines = ladder.baseline_runs
            pace = _pace(ladder, batches)
            say(pace.outlook())
            for index, batch in enumerate(batches):
                digest = batch.digest()
                done = journal["done"]
                if index < len(done) and done[index]["digest"] == digest:
                    result = BatchResult.from_dict(done[index])
                    result.resumed = True
                else:
                    if index < len(done):
                        rewind(repo, journal, index)
                    started = time.perf_counter()
                    with progress(f"batch {index + 1}/{len(batches)} ({batch.name}, "
                                  f"{counted(len(batch.edits), 'planned edit')}): applying and checking"
                                  + pace.line(index)):
                        result = _run_batch(repo, ladder, batch, digest, journal, scratch, SEARCHES[search],
                                            bisect_limit)
                    pace.record(index, time.perf_counter() - started)
                report.batches.append(result)
            if len(journal["done"]) > len(batches):
                rewind(repo, journal, len(batches))
        except BaseException:
            cancel.cancel_all()  # no check process outlives the run, and no thread waits for one
            _leave_verified(repo)
            raise
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
            cancel.reset()  # the threads are done: a later run (or check) in this process may start processes
    report.head = repo.head()
    report.seconds = round(time.perf_counter() - start, 3)
    return report


def _pace(ladder: Ladder, batches: list[Batch]) -> Pace:
    """The estimate of the progress lines: each usable check's time on the original, and which batches make the
    install check install the fork again (the others cost it nothing)."""
    usable = {name: b for name, b in ladder.baselines.items() if b.usable}
    install = usable.get("install")
    named = list(install.data.get("named", ())) if install and isinstance(install.data, dict) else []
    return Pace([reinstalls(batch, named) for batch in batches], {name: b.seconds for name, b in usable.items()})


def _validate(original: Path, out: Path, batches: list[Batch]) -> None:
    if not original.is_dir():
        raise SlimforkError(f"the source {original} is not a folder")
    if out == original or out.is_relative_to(original) or original.is_relative_to(out):
        raise SlimforkError(f"the output {out} and the source {original} overlap",
                            hint="write the fork to a folder outside the source")
    names: set[str] = set()
    deleted: dict[str, str] = {}
    for b, batch in enumerate(batches):
        if batch.name in names:
            raise SlimforkError(f"two batches are named {batch.name!r}", key=f"batches[{b}].name")
        names.add(batch.name)
        seen: set[str] = set()
        for e, edit in enumerate(batch.edits):
            key = f"batches[{b}].edits[{e}]"
            check_edit_path(edit.path)
            if edit.path in seen:
                raise SlimforkError(f"{edit.path} is edited twice in batch {batch.name!r}", key=key)
            seen.add(edit.path)
            if edit.path in deleted and edit.kind != PUT_BACK:
                raise SlimforkError(f"{edit.path} was already deleted by batch {deleted[edit.path]!r}", key=key,
                                    hint="a batch cannot edit what an earlier batch deletes")
            target = resolve_edit_path(original, edit.path)
            if os.path.isdir(target) and not os.path.islink(target):
                raise SlimforkError(f"{edit.path} is a folder of the source", key=key,
                                    hint="edits name files; deleting every file of a folder removes it")
            if edit.content is None and not os.path.lexists(target):
                raise SlimforkError(f"{edit.path} is not a file of the source", key=key,
                                    hint="a deletion names a file the source has")
            if edit.content is None:
                deleted[edit.path] = batch.name


def _run_batch(repo: Repo, ladder: Ladder, batch: Batch, digest: str, journal: dict, scratch: Path,
               search, limit: int | None) -> BatchResult:
    start = time.perf_counter()
    repo.restore()
    base_tree = repo.tree()
    edits = sorted(batch.edits, key=lambda e: e.path)
    apply_edits(repo.root, edits)
    outcome = ladder.run(repo.root, edits_key(base_tree, edits))
    first_failure: CheckRun | None = None
    restored: list[RestoredEdit] = []
    kept, candidates = edits, 0
    if not outcome.ok:
        first_failure = outcome.runs()[-1]
        repo.restore()
        kept, restored, candidates = _bisect(repo, ladder, edits, base_tree, outcome, scratch, search, limit)
        apply_edits(repo.root, kept)
        outcome = ladder.run(repo.root, edits_key(base_tree, kept))
        if not outcome.ok:  # the check answers differently on the same tree: keep nothing of this batch
            repo.restore()
            failed = outcome.failure.check if outcome.failure else "?"
            note = f"check {failed} is not deterministic; the whole batch is restored"
            restored = [_restored(e, outcome.failure, note) for e in edits]
            kept = []
            outcome = ladder.run(repo.root, edits_key(base_tree, []))
    result = BatchResult(
        name=batch.name, message=batch.message,
        removed=[{"path": e.path, "kind": e.kind, "action": e.action, "reason": e.reason} for e in kept],
        restored=restored, checks=outcome.runs(), first_failure=first_failure, candidates=candidates,
        seconds=round(time.perf_counter() - start, 3), digest=digest)
    journal["pending"] = result.to_dict()
    save_journal(repo, journal)
    result.commit = repo.commit_paths([e.path for e in kept], commit_message(batch, kept, restored, result))
    journal["done"].append(result.to_dict())
    journal["pending"] = None
    save_journal(repo, journal)
    repo.restore()  # drop whatever the checks wrote into the work tree
    return result


def _bisect(repo: Repo, ladder: Ladder, edits: list[Edit], base_tree: str, failed: Outcome, scratch: Path,
            search, limit: int | None) -> tuple[list[Edit], list[RestoredEdit], int]:
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    seen: dict[tuple[int, ...], Outcome] = {}

    def outcomes(restorations: list[tuple[int, ...]]) -> list[Outcome]:
        sets = [[e for i, e in enumerate(edits) if i not in set(r)] for r in restorations]
        found = ladder.run_many(repo.root, base_tree, sets, scratch)
        seen.update(zip(restorations, found))
        return found

    # the search runs over positions in dependency order: a restored prefix brings back what its files import
    paths = [e.path for e in edits]
    order = dependencies_first(paths, import_edges(repo.root, paths))
    hinted = set(failed.failure.paths) if failed.failure else set()
    guess = tuple(pos for pos, i in enumerate(order) if edits[i].path in hinted)
    unsearched: tuple[int, ...] = ()
    try:
        positions = search(len(edits), lambda rs: [o.ok for o in outcomes([tuple(sorted(order[p] for p in r))
                                                                            for r in rs])],
                           width=ladder.jobs, guess=guess, limit=limit)
    except BisectionLimit as stop:  # the culprits found so far, and the rest as a whole
        positions, unsearched = stop.found, tuple(sorted(order[p] for p in stop.rest))
    culprits = tuple(sorted(order[p] for p in positions))
    # each culprit's reason: the check that fails when every other culprit is restored but not this one
    without = [tuple(sorted(x for x in culprits + unsearched if x != c)) for c in culprits]
    whys = outcomes(without) if len(culprits) > 1 or unsearched else [failed]
    restored = [_restored(edits[c], why.failure or failed.failure) for c, why in zip(culprits, whys)]
    note = f"bisection limit reached ({limit} trees checked): restored, unsearched, with {len(unsearched) - 1} others"
    restored += [_restored(edits[i], failed.failure, note) for i in unsearched]
    restored.sort(key=lambda r: r.path)
    kept = [e for i, e in enumerate(edits) if i not in set(culprits + unsearched)]
    return kept, restored, len(seen)


def _restored(edit: Edit, failure: CheckResult | None, note: str = "") -> RestoredEdit:
    failures = list(failure.failures) if failure else []
    module = edit.path[:-3].replace("/", ".").removesuffix(".__init__") if edit.path.endswith(".py") else edit.path
    stem = edit.path.rsplit("/", 1)[-1].removesuffix(".py")
    relevant = [f for f in failures if edit.path in f or module in f] or [f for f in failures if stem in f]
    picked = (relevant or failures)[:5]
    return RestoredEdit(edit.path, edit.kind, edit.action, edit.reason, failure.check if failure else "?",
                        ([note] if note else []) + picked)


def _leave_verified(repo: Repo | None) -> None:
    """On Ctrl-C or an error: put the work tree back to the last verified commit, ignoring a second Ctrl-C."""
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        if repo is not None and repo.head():
            repo.restore()
    except Exception:  # the next run's resume does the same
        pass
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)


class _sigterm_as_interrupt:
    """SIGTERM (a job scheduler, ``kill``) is handled like Ctrl-C: the output is left at a verified commit."""

    def __enter__(self):
        self.previous = None
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGTERM, self._raise)
        return self

    @staticmethod
    def _raise(signum, frame):
        raise KeyboardInterrupt

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGTERM, self.previous)
        return False
