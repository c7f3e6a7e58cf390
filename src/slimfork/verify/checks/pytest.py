"""Check 6: the spec's test selection passes in the fork wherever it passed in the original (per test, junit xml)."""

from __future__ import annotations

import os
import re
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Collection
from pathlib import Path

from slimfork.progress import counted
from slimfork.source.layout import read_distribution
from slimfork.verify.env import VerifyEnv
from slimfork.verify.messages import error_line
from slimfork.verify.model import Baseline, CheckResult
from slimfork.verify.process import ProcessResult, run_process
from slimfork.verify.spec import PytestSpec
from slimfork.verify.tree import TreeLayout


class PytestCheck:
    name = "pytest"
    cost = 6
    cache_baseline = True  # its baseline is plain data: reused across runs, profiles and workers

    def __init__(self, layout: TreeLayout, env: VerifyEnv, spec: PytestSpec):
        self.layout, self.env, self.spec = layout, env, spec
        self.original: Path | None = None  # the ladder sets it: a test failing in a fork runs there again

    def execute(self, tree: Path, leave: tuple[str, ...] = (), only: tuple[str, ...] = ()
                ) -> tuple[dict[str, tuple[str, str, str]] | None, ProcessResult]:
        """Run the selection (without the entries ``leave``; ``only``: these node ids instead) on ``tree``: test
        id -> (outcome, message, file), or None if pytest did not report."""
        tree = Path(tree).resolve()
        python_root = tree / self.layout.python_root if self.layout.python_root else tree
        gone = set(self.missing(tree)) | set(leave)  # pytest runs nothing at all when one entry is not found
        tests = list(only) or [t for t in self.spec.tests if t not in gone]
        if self.spec.tests and not tests:
            return {}, ProcessResult(0, "", "", 0.0)  # the whole selection left the tree: nothing ran
        with tempfile.TemporaryDirectory(prefix="slimfork-pytest-") as tmp:
            report = Path(tmp) / "junit.xml"
            # a test file that does not collect (Python 2 syntax, a missing optional dependency) fails alone,
            # in the original as in the fork, instead of stopping the whole run before any test
            argv = [str(self.env.python), "-m", "pytest", "-p", "no:cacheprovider", "-q", "-o",
                    "junit_family=xunit1", f"--junitxml={report}", "--continue-on-collection-errors",
                    *own_config(tree, Path(tmp)), *self.spec.args, *tests]
            if self.spec.k:
                argv += ["-k", self.spec.k]
            env = self.env.process_env(python_root, tree=tree)
            if own_plugins(tree, python_root, Path(tmp)):  # found through importlib.metadata, as installed
                env["PYTHONPATH"] = os.pathsep.join(p for p in (env.get("PYTHONPATH"), tmp) if p)
            proc = run_process(argv, env, tree, self.spec.timeout)
            if proc.timed_out or not report.is_file():
                return None, proc
            return read_junit(report), proc

    def missing(self, tree: Path) -> list[str]:
        """Selected paths and node ids whose file or folder is not in ``tree`` (a fork may have removed them)."""
        return [t for t in self.spec.tests if not (Path(tree) / t.split("::")[0]).exists()]

    def baseline(self, original: Path) -> Baseline:
        start = time.monotonic()
        missing = self.missing(original)
        if missing:
            return Baseline(self.name, False, None, f"selected tests not in the original: {', '.join(missing)}")
        outcomes, proc = self.execute(original)
        if outcomes is None:
            return self.unreported(proc, start)
        passed = {test for test, (outcome, _, _) in outcomes.items() if outcome == "passed"}
        note = f"{len(passed)} of {len(outcomes)} tests pass in the original" + failing_note(outcomes, original)
        return Baseline(self.name, bool(passed), passed, note, time.monotonic() - start)

    def unreported(self, proc: ProcessResult, start: float) -> Baseline:
        """The baseline of a run on the original that gave no report: why, without running it again."""
        why = f"timed out after {self.spec.timeout}s" if proc.timed_out else \
            f"pytest did not run (exit {proc.exit_code}): {proc.stderr_tail(3) or proc.stdout[-300:].strip()}"
        return Baseline(self.name, False, None, why, time.monotonic() - start)

    def run(self, fork: Path, baseline: Baseline) -> CheckResult:
        start = time.monotonic()
        outcomes, proc = self.execute(fork)
        if outcomes is None:
            why = f"timed out after {self.spec.timeout}s" if proc.timed_out else \
                f"pytest did not run (exit {proc.exit_code}): {proc.stderr_tail(3) or proc.stdout[-300:].strip()}"
            return CheckResult(self.name, False, (why,), (), time.monotonic() - start)
        failed: dict[str, tuple[str, str, str]] = {}
        renamed = RenamedIds(outcomes, baseline.data)
        for test in sorted(baseline.data):
            outcome, message, file = outcomes.get(test, ("not run", "", ""))
            if outcome == "not run" and renamed.ran(test):
                continue
            if outcome != "passed":
                failed[test] = (outcome, message, file)
        flaky = passing_again(self, fork, failed)
        original = failing_in_original(self, {t: v for t, v in failed.items() if t not in flaky})
        failures = [f"{t}: {o} in the fork{': ' + m if m else ''}" for t, (o, m, _) in failed.items()
                    if t not in flaky and t not in original]
        paths = list(dict.fromkeys(f for t, (_, _, f) in failed.items() if f and t not in flaky | original))
        return CheckResult(self.name, not failures, tuple(failures), tuple(paths), time.monotonic() - start,
                           f"{len(baseline.data)} tests that pass in the original" + flaky_note(flaky, original))


def failing_note(outcomes: dict[str, tuple[str, str, str]], original: Path | None = None) -> str:
    """When no test passed, why the first did not (a collection error names the missing module); when some
    failed, that they are not counted against the fork, and why the first failed (stack_data 0.6.3: "14 of 21
    tests pass in the original", and nothing said what the other 7 were); and those that need the project's own
    git repository where the ``original`` has none."""
    failed = [(test, message) for test, (outcome, message, _) in sorted(outcomes.items()) if outcome != "passed"]
    if failed and len(failed) == len(outcomes):
        return f" (first: {failed[0][0]}: {failed[0][1][:200] or 'no message'})" + git_note(failed, original)
    failed = [(test, message) for test, (outcome, message, _) in sorted(outcomes.items())
              if outcome in ("failed", "error")]
    if not failed:
        return ""
    return (f"; {counted(len(failed), 'test fails', 'tests fail')} in the original too and "
            f"{'is' if len(failed) == 1 else 'are'} not counted against the fork (first: {failed[0][0]}: "
            f"{failed[0][1][:200] or 'no message'})" + git_note(failed, original))


# an error naming a git repository: a path's .git part, git's own message, GitPython's exception
_GIT = re.compile(r"[/\\]\.git(?:[/\\'\"\s:)]|$)|not a git repository|InvalidGitRepositoryError", re.I | re.M)


def git_note(failed: list[tuple[str, str]], original: Path | None) -> str:
    """gitdb 4.0.12's tests read the project's own ``.git``, which an sdist lacks: 8 failed in the original with
    ``InvalidDBRoot: .../.git/objects``, and only the first was named. Where the original has no ``.git``, the
    failures whose message names one are counted and the way to run them said."""
    if original is None or (Path(original) / ".git").exists():
        return ""
    git = [test for test, message in failed if _GIT.search(message)]
    if not git:
        return ""
    return (f"; {counted(len(git), 'of them needs', 'of them need')} the project's own git repository (the "
            f"error names one) and the source has no .git (an sdist has none, and a fork never holds the project's "
            f"history): no check of the fork can run {'it' if len(git) == 1 else 'them'} (first: {git[0]})")


RERUN_AT_MOST = 20  # more failures than this are no flake: the batch broke them
RERUNS = 2  # execnet 2.1.2's test_channel_passing_over_channel fails one run in three in the original too


def passing_again(check: PytestCheck, tree: Path, failed: dict[str, tuple[str, str, str]]) -> set[str]:
    """The failed tests (id -> (outcome, message, file)) that pass when run again on the same tree (up to
    ``RERUNS`` times, those still failing): their outcome does not depend on the tree (a race, a timing, the load),
    so no batch is to blame for them (execnet 2.1.2's gateway tests failed on one batch and on the tree it was
    bisected to, and the batch was put back as "not deterministic"). A test that fails every time stays a failure;
    none is rerun where many failed."""
    nodes = {test: node_id(test, file) for test, (_, _, file) in failed.items()}
    if not failed or len(failed) > RERUN_AT_MOST or None in nodes.values():
        return set()
    passed: set[str] = set()
    for _ in range(RERUNS):
        left = [test for test in failed if test not in passed]
        outcomes, _ = check.execute(tree, only=tuple(dict.fromkeys(nodes[t] or "" for t in left)))
        passed |= {test for test in left if (outcomes or {}).get(test, ("not run",))[0] == "passed"}
        if len(passed) == len(failed):
            break
    return passed


def node_id(test: str, file: str) -> str | None:
    """pytest's node id of a junit test id (``testing.test_gateway.TestBasic::test_x[a-b]`` in
    ``testing/test_gateway.py`` -> ``testing/test_gateway.py::TestBasic::test_x[a-b]``); None where the class
    path does not start with the file's module (another rootdir)."""
    classname, _, name = test.rpartition("::")
    module = file.removesuffix(".py").replace("/", ".")
    if not file.endswith(".py") or not (classname == module or classname.startswith(module + ".")):
        return None
    inner = classname[len(module) + 1:]
    return "::".join([file, *(inner.split(".") if inner else []), name])


def failing_in_original(check: PytestCheck, failed: dict[str, tuple[str, str, str]]) -> set[str]:
    """The tests (id -> (outcome, message, file)) that failed on every run of a fork and fail on one of up to
    ``RERUNS + 1`` runs on the original too: flaky in the original, so their failure in the fork says nothing of
    the fork (execnet 2.1.2's test_channel_passing_over_channel failed three times in a row on a batch's tree, 1 to
    3 of its 6 parametrisations fail in each run of the original, and the batch's ``doc/__init__.py`` was put
    back), with the same kind of error (``error_kind``). A test that passes on every run of the original, or fails
    there otherwise than in the fork, stays a failure of the fork."""
    nodes = {test: node_id(test, file) for test, (_, _, file) in failed.items()}
    original = check.original
    if (not failed or len(failed) > RERUN_AT_MOST or None in nodes.values() or original is None
            or not Path(original).is_dir()):
        return set()
    failing: set[str] = set()
    for _ in range(RERUNS + 1):
        left = [test for test in failed if test not in failing]
        outcomes, _ = check.execute(Path(original), only=tuple(dict.fromkeys(nodes[t] or "" for t in left)))
        if outcomes is None:  # pytest did not report: nothing learnt
            break
        failing |= {test for test in left if outcomes.get(test, ("passed",))[0] in ("failed", "error")
                    and error_kind(outcomes[test][1]) in (error_kind(failed[test][1]), "")}
        if len(failing) == len(failed):
            break
    return failing


def error_kind(message: str) -> str:
    """What a failure message says went wrong, its details aside: the exception's name (``ModuleNotFoundError``
    in the fork is no flake of a test that fails with ``AssertionError`` in the original now and then)."""
    found = re.match(r"\s*(?:\w+\.)*(\w*(?:Error|Exception|Failed|Failure|Timeout|Exit|Interrupt))\b", message)
    if found:
        return found.group(1)
    return "AssertionError" if message.lstrip().startswith("assert") else ""  # pytest's rewritten asserts


def flaky_note(flaky: Collection[str], original: Collection[str] = ()) -> str:
    note = ""
    if flaky:
        note += (f"; {counted(len(flaky), 'test')} failed and then passed on the same tree (flaky, not counted): "
                 f"{_shown(flaky)}")
    if original:
        note += (f"; {counted(len(original), 'test')} failed on every run of the fork and on a run of the original "
                 f"too (flaky in the original, not counted): {_shown(original)}")
    return note


def _shown(tests: Collection[str]) -> str:
    return ", ".join(sorted(tests)[:3]) + (" ..." if len(tests) > 3 else "")


class RenamedIds:
    """Parameter ids built from run-time values (``test_x[22:08:35 2026-11-26]``) differ between two runs of the
    same test: a baseline id the fork did not run counts as run when an id of the same test that the original did
    not have passed in the fork (each such id once)."""

    def __init__(self, outcomes: dict[str, tuple[str, str, str]], original: Collection[str]):
        self.left: dict[str, int] = {}
        for test, (outcome, _, _) in outcomes.items():
            if "[" in test and test not in original and outcome == "passed":
                base = test.split("[", 1)[0]
                self.left[base] = self.left.get(base, 0) + 1

    def ran(self, test: str) -> bool:
        base = test.split("[", 1)[0]
        if self.left.get(base, 0) <= 0:
            return False
        self.left[base] -= 1
        return True


def own_plugins(tree: Path, python_root: Path, scratch: Path) -> bool:
    """The tree's own pytest plugins (``pytest11`` entry points whose module is in the tree) load as they would
    installed: a ``.dist-info`` in ``scratch`` declares them, and pytest finds it on the path. pytest-httpserver
    1.1.0's tests use the ``httpserver`` fixture of its plugin: from the source, uninstalled, 85 of its 112 tests
    failed in the original ("fixture 'httpserver' not found") and the check verified the other 27. Where the
    distribution is installed too, pytest loads the first entry point of a name and skips the other."""
    dist = read_distribution(tree)
    plugins = (dist.entry_points.get("pytest11") or {}) if dist else {}
    own = {name: value for name, value in plugins.items()
           if (python_root / value.split(":")[0].strip().split(".")[0]).exists()
           or (python_root / (value.split(":")[0].strip().split(".")[0] + ".py")).is_file()}
    if not own or dist is None:
        return False
    name = re.sub(r"[^A-Za-z0-9.]+", "_", dist.name) or "project"
    info = scratch / f"{name}-{re.sub(r'[^A-Za-z0-9.]+', '_', dist.version) or '0'}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist.name}\nVersion: {dist.version or '0'}\n")
    (info / "entry_points.txt").write_text("[pytest11]\n" + "".join(f"{k} = {v}\n" for k, v in own.items()))
    return True


def own_config(tree: Path, scratch: Path) -> list[str]:
    """pytest looks for its configuration in the folders above the tests too: a fork written inside another
    project (``./corpus-forks/x-fork`` in a repository with ``[tool.pytest.ini_options]``) would run with that
    project's options and rootdir, so its test ids differ from the original's. Pin both to the tree."""
    if has_pytest_config(tree):
        return []  # the nearest configuration is the tree's own
    empty = scratch / "pytest.ini"
    empty.write_text("[pytest]\n")
    return [f"--rootdir={tree}", "-c", str(empty)]


def has_pytest_config(tree: Path) -> bool:
    for name, marker in (("pytest.ini", ""), (".pytest.ini", ""), ("pyproject.toml", "[tool.pytest"),
                         ("tox.ini", "[pytest]"), ("setup.cfg", "[tool:pytest]")):
        path = tree / name
        if path.is_file() and marker in path.read_text(encoding="utf-8", errors="replace"):
            return True
    return False


def read_junit(path: Path) -> dict[str, tuple[str, str, str]]:
    """Test id ("classname::name") -> (outcome, first line of the message, file) from a junit xml report."""
    out = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        test = f"{case.get('classname', '')}::{case.get('name', '')}"
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = {"failure": "failed", "error": "error", "skipped": "skipped"}[child.tag]
                message = error_line(child.get("message") or child.text or "", child.text or "")
                if message == "collection failure":  # the error is in the text: "E   ModuleNotFoundError: ..."
                    errors = [line[1:].strip() for line in (child.text or "").splitlines() if line.startswith("E ")]
                    message += f": {errors[-1][:250]}" if errors else ""
                break
        out[test] = (outcome, message, case.get("file", ""))
    return out
