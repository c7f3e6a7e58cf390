"""Shrink: check what the spec needs from outside, analyse, turn the plan into batches, run each batch through the
checks into the fork's git history, and write the reports."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, replace
from types import SimpleNamespace
from pathlib import Path

from slimfork.apply.batches import build_batches, fork_suffix
from slimfork.apply.engine import run_batches
from slimfork.apply.git import Repo
from slimfork.apply.metadata import local_version
from slimfork.apply.model import ApplyReport
from slimfork.apply.output import put_in_place, remove_tree, running_output
from slimfork.apply.vcs_release import release
from slimfork.decisions import PUT_BACK, Kept, KeptKind, Plan, Removal, RemovalKind
from slimfork.errors import SlimforkError
from slimfork.pipeline.analyse import Analysis, analyse
from slimfork.plan.stages import Stages
from slimfork.preflight import run_preflight
from slimfork.report.write import write_reports
from slimfork.spec import Spec, load_spec
from slimfork.testsuite.back import TestsBack, tests_back
from slimfork.testsuite.check import planned_checks
from slimfork.testsuite.doctests import doctest_files
from slimfork.testsuite.pytest_config import read_pytest_config
from slimfork.source.test_folders import tests_of
from slimfork.verify.build import build_checks
from slimfork.verify.executor import check_executor, make_executor
from slimfork.verify.spec import ChecksSpec, PytestSpec


@dataclass
class ShrinkResult:
    analysis: Analysis
    data: dict  # the report (report.json)
    out: Path | None
    report_dir: Path | None
    apply: ApplyReport | None = None  # the batch engine's report


def shrink(spec: Spec | str | Path, out: Path | str | None = None, *, dry_run: bool = False,
           jobs: int | None = None, verify: bool = True, strict: bool = False,
           allow_stale: bool | None = None, executor: str | None = None,
           ray_address: str | None = None) -> ShrinkResult:
    """Plan, fold facts, then (unless ``dry_run``) write the fork to ``out`` as a git history of verified batches
    and the reports to ``<out>.report``. ``verify=False`` skips the checks (every planned edit is committed).
    ``executor``: where the checks run, ``"local"`` (default: ``jobs`` workers) or ``"ray"`` (a cluster at
    ``ray_address``, default a new local one)."""
    check_executor(executor, ray_address)
    if not isinstance(spec, Spec):
        spec = load_spec(spec)
    if out is not None:
        spec.out = Path(out).resolve()
    assert spec.out is not None  # parse_spec sets it (default: beside the spec)
    if not dry_run:  # where the fork goes, before any work: a folder not ours or one we cannot write is exit 2 now
        source = None if spec.source.startswith("pypi:") else (spec.base_dir / spec.source).resolve()
        _check_writable(spec.out, source)
        _claim_output(spec.out)
    # Tools, the verification requirements and the source, before any work: a missing one is exit 2 now.
    ready = run_preflight(spec, write=not dry_run, verify=verify and not dry_run)
    analysis = analyse(spec, jobs=jobs, strict=strict, allow_stale=allow_stale)
    out_dir = spec.out
    spec, stages = analysis.spec, analysis.stages
    spec.out = out_dir
    assert stages is not None  # analyse() runs the stages unless told not to
    batches = build_batches(analysis, stages)
    if dry_run:
        data = write_reports(analysis, None, None, stages.reports, stages.data)
        return ShrinkResult(analysis, data, None, None)
    lost = stages.symbols.lost if stages.symbols is not None else []
    if lost and not verify:  # no check would catch it: the last guard before writing
        raise SlimforkError("the fork would lose public names the plan keeps: " + "; ".join(lost[:5])
                            + (f" and {len(lost) - 5} more" if len(lost) > 5 else "")
                            + " (a bug of a pruning rule; verify the shrink, or [symbols] drop the names)")
    checks = []
    if verify:
        _default_tests(spec, analysis)
        promised = stages.symbols.promised if stages.symbols is not None else None  # the plan's public API
        checks = build_checks(spec, analysis.tree, skipped=ready.skipped, promised=promised)
        checks = planned_checks(checks, stages)  # tests the plan removed are meant to be gone
    t1 = time.perf_counter()
    pool = make_executor(executor, jobs, ray_address) if checks else None
    work = running_output(spec.out)  # the fork is built beside its target and renamed into place when complete
    try:
        applied = run_batches(analysis.tree.root, work, batches, checks, jobs=jobs, executor=pool)
        back = _tests_back(analysis, applied)
        if back is not None:  # the same run resumed, with one more batch
            first = applied
            applied = run_batches(analysis.tree.root, work, batches + [back.batch], checks, jobs=jobs, executor=pool)
            for before, now in zip(first.batches, applied.batches):
                now.resumed, now.seconds = before.resumed, before.seconds
            applied.seconds += first.seconds
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM: nothing half-written stays (a killed run's is resumed next time)
        left = remove_tree(work)
        if left is not None:
            sys.stderr.write(f"warning: could not remove {left} (a check's process still wrote in it); the next "
                             "run removes it\n")
        raise
    version_note = release(Repo(work), _fork_version(analysis))
    put_in_place(work, spec.out)
    applied.out = str(spec.out)
    analysis.timings["batches"] = time.perf_counter() - t1
    _restore_in_plan(analysis.plan, applied, stages)
    if back is not None:
        _put_back_in_plan(stages, back, applied)
    sections = stages.reports + [("Verified batches", applied.to_markdown())]
    if version_note:
        sections.append(("Version", version_note[0].upper() + version_note[1:] + "."))
    data = write_reports(analysis, spec.out, spec.report_dir, sections, {**stages.data, "batches": applied.to_dict()})
    return ShrinkResult(analysis, data, spec.out, spec.report_dir, applied)


def _fork_version(analysis: Analysis) -> str:
    """The original's version with the fork's local suffix (none where kept code reads its own version)."""
    dist = analysis.tree.dist
    if dist is None or not dist.version:
        return ""
    return local_version(dist.version, fork_suffix(analysis, SimpleNamespace(kept=analysis.plan.kept, warnings=[])))


def _default_tests(spec: Spec, analysis: Analysis) -> None:
    """A project with tests is checked against them: without a ``[checks.pytest]`` table (and with pytest not
    skipped) the test folders the fork keeps run as the pytest check, so a name only run time uses cannot leave
    unnoticed where a test covers it. The ``testpaths`` the project's pytest configuration names run too (what
    plain ``pytest`` runs there: a ``README.md`` collected as a doctest), once each."""
    checks = spec.sections.get("checks") or ChecksSpec()
    if checks.pytest is not None or not checks.enabled("pytest"):
        return
    root = analysis.tree.root
    # a tests file is run too (texttable's tests.py, pygtrie's test.py: pytest collects a file it is given whatever
    # its name); before, only folders were, and such a project's checked run verified no test
    folders = [f for f in tests_of(analysis) if not set("*?[") & set(f)
               and ((root / f).is_dir() or f.endswith(".py") and (root / f).is_file())]
    config = read_pytest_config(root)
    if folders:
        folders += _root_doctests(analysis, folders, config)
        for entry in config.testpaths:
            entry = entry.strip().removeprefix("./").rstrip("/")
            if entry.startswith(("/", "..")):
                continue  # outside the tree: not the fork's to run
            named = sorted(p.relative_to(root).as_posix() for p in root.glob(entry)) if set("*?[") & set(entry) \
                else [entry] if entry and entry != "." and (root / entry).exists() else []
            folders += [p for p in named if p not in folders
                        and not any(p.startswith(f.rstrip("/") + "/") for f in folders)]
    if folders:
        spec.sections["checks"] = replace(checks, pytest=PytestSpec(tuple(folders)))


def _root_doctests(analysis: Analysis, folders: list[str], config) -> list[str]:
    """The text files outside ``folders`` that plain ``pytest`` at the root collects as doctests where no
    ``testpaths`` narrows it (``--doctest-glob=*.md`` and a ``README.md`` with examples): the plan keeps what their
    examples import, so the check runs them too (before, such a file was held by the plan alone, never verified)."""
    if config.testpaths:
        return []
    root = analysis.tree.root
    found = doctest_files(sorted(analysis.index.other_files), config.doctest_globs, [], [], config.norecursedirs)
    return [p for p in found if not any(p.startswith(f.rstrip("/") + "/") for f in folders)
            and ">>>" in (root / p).read_text("utf-8", "replace")]


def _claim_output(out: Path) -> None:
    """Refuse to write into a folder slimfork did not create (a fork has its report beside it)."""
    ours = (out.with_name(out.name + ".report") / "report.json").exists() or (out / ".git" / "slimfork-journal.json").exists()
    if out.exists() and any(out.iterdir()) and not ours:
        raise SlimforkError(f"output folder {out} exists and was not written by slimfork", key="out",
                            hint="choose another --out or remove that folder")


def _check_writable(out: Path, source: Path | None = None) -> None:
    """The fork and its report are written beside each other in ``out``'s parent: a folder in which nothing can be
    created (a read-only filesystem, no permission) stops the run before any work, not with a traceback at its end.
    Probed by creating (and removing) a folder in the nearest existing ancestor, which is what the run does."""
    import tempfile

    if source is not None and (out == source or out.is_relative_to(source) or source.is_relative_to(out)):
        raise SlimforkError(f"the output {out} and the source {source} overlap", key="out",
                            hint="write the fork to a folder outside the source")
    if out.exists() and not out.is_dir():
        raise SlimforkError(f"the output {out} is a file, not a folder", key="out",
                            hint="choose another --out (the fork is a folder, its report beside it)")
    probe = out.parent
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:
        Path(tempfile.mkdtemp(prefix=f".{out.name}.slimfork-probe-", dir=probe)).rmdir()
    except OSError as exc:
        raise SlimforkError(f"cannot write the fork to {out}: {exc.strerror or exc} in {probe}", key="out",
                            hint="choose an --out in a folder you can write to (the report goes beside it: "
                                 f"{out.name}.report)") from None


def _tests_back(analysis: Analysis, applied: ApplyReport) -> TestsBack | None:
    """The batch returning the tests of what a check restored (None when nothing was restored)."""
    tests = next((b for b in applied.batches if b.name == "tests"), None)
    restored = frozenset(r.path for name, r in applied.restored if name not in ("tests", "test data"))
    if tests is None or not restored:
        return None
    return tests_back(analysis, analysis.stages, analysis.tree.root, {e["path"] for e in tests.removed}, restored)


def _put_back_in_plan(stages: Stages, back: TestsBack, applied: ApplyReport) -> None:
    """Tests the last batch returned are no removals of the tests stage any more."""
    result = next(b for b in applied.batches if b.name == back.batch.name)
    kept = {e["path"] for e in result.removed}
    whole = {r.path for r in stages.test_removals if r.symbol is None and back.returned(r, kept)}
    still = [r for path in sorted(kept) for r in back.still[path]]  # what the put-back file still leaves out
    stages.test_removals = [r for r in stages.test_removals if r.path not in kept] + [
        Removal(RemovalKind.TEST, r.path, r.reason, symbol=r.qualname, group="tests") for r in still]
    stages.plan.kept += [Kept(path, None, KeptKind.RESTORED, "tests of code a check needed (put back by the last "
                              "batch)") for path in sorted(whole)]
    data = stages.data["tests"]
    data["removed"] = sorted([r for r in data["removed"] if r["path"] not in kept] + [
        {"path": r.path, "test": r.qualname, "category": r.category, "reason": r.reason} for r in still],
        key=lambda r: (r["path"], r["test"] or ""))
    data["put_back"] = [{"path": path, "tests": sorted(t or "" for t in back.units[path])} for path in sorted(kept)]


def _restore_in_plan(plan: Plan, applied: ApplyReport, stages: Stages | None = None) -> None:
    """Edits a check needed undone are kept files again, with the failing check as their reason (and no longer
    removals of the plan or of the tests stage)."""
    restored = {r.path: r for _, r in applied.restored if r.kind != PUT_BACK}  # a test not put back stays out
    if not restored:
        return
    plan.removals = [r for r in plan.removals if r.path not in restored]
    if stages is not None:
        stages.test_removals = [r for r in stages.test_removals if r.path not in restored]
        if "tests" in getattr(stages, "data", {}):  # a test file whose cut was undone keeps all its tests
            tests = stages.data["tests"]
            tests["removed"] = [r for r in tests["removed"] if r["path"] not in restored]
    for path, r in sorted(restored.items()):
        if r.action == "delete":
            first = r.failures[0] if r.failures else "failed"
            plan.kept.append(Kept(path, None, KeptKind.RESTORED, f"{r.check} check failed without it ({first})"))
