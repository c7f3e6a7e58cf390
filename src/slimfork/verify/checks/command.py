"""Check 5: a spec command (``[[checks.command]]``) gives the same result on the fork as on the original.

Each tree runs with its own PYTHONPATH in the same verification environment; with ``installed = true`` it is
pip-installed into a scratch venv instead (``verify/installed.py``) and the command runs from an empty folder with
that venv's console scripts and python. Output is compared after the tree's own path is replaced by ``<tree>``
(and the scratch install's by ``<install>``). The baseline runs the command twice when stdout must match: a command
whose output changes between two runs of the original would make bisection chase noise, so it is not used.
The baseline holds all the check needs (``cache_baseline``): a later run, another profile with the same command
on the same original, or a worker of another machine reuses it. Its key names the scripts it runs by content,
not by the profile's folder.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from slimfork.globs import first_match
from slimfork.index.build import python_files
from slimfork.index.parse import content_hash
from slimfork.verify.env import VerifyEnv
from slimfork.verify.installed import Installed, InstallError, installed
from slimfork.verify.model import Baseline, CheckResult
from slimfork.verify.process import ProcessResult, run_process, tree_frames
from slimfork.verify.reads import ReadSet, collect, traced_env
from slimfork.verify.spec import CommandSpec
from slimfork.verify.trace_runtime import is_python
from slimfork.verify.tree import TreeLayout

_KEEP_PASSED = 4  # read sets of the last trees that passed, tried before running again


@dataclass(frozen=True)
class CommandOutcome:
    exit_code: int | None
    stdout: str
    stderr: str
    seconds: float
    watched: dict[str, str] | None = None  # the original's watched files (baseline only)
    reads: ReadSet | str | None = None  # what the original's run read of it, or why that is not known (baseline)


class CommandCheck:
    cost = 5
    cache_baseline = True

    def __init__(self, layout: TreeLayout, env: VerifyEnv, command: CommandSpec, spec_dir: Path):
        self.layout, self.env, self.command, self.spec_dir = layout, env, command, spec_dir
        self.name = f"command:{command.name}"
        self.passed: list[tuple[ReadSet | None, dict[str, str] | None]] = []  # what trees that passed read

    def key_files(self) -> list[Path]:
        """Files the command names by an absolute path outside the tree (``{spec_dir}/checks/x.py``): their content
        is part of the check's cache key, so a check script edited since a cached run runs again."""
        paths = [Path(_fill(arg, {"spec_dir": str(self.spec_dir)})) for arg in self.command.argv]
        return [p for p in paths if "{" not in str(p) and p.is_absolute() and p.is_file()]

    @property
    def cache_key(self) -> str:
        """The command, its environment and the content of the scripts it names: two profiles in different folders
        running the same command share baselines and results; a ``{spec_dir}`` naming anything but a script
        file keeps the folder in the key."""
        scripts = {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in self.key_files()}
        spec_dir = {"spec_dir": str(self.spec_dir)}
        filled = [_fill(arg, spec_dir) for arg in self.command.argv]
        argv = tuple(f"<script {scripts[str(Path(a))]}>" if str(Path(a)) in scripts else a for a in filled)
        env = {k: _fill(v, spec_dir) for k, v in self.command.env.items()}
        return repr((self.layout, self.env, dataclasses.replace(self.command, argv=argv, env=env)))

    def execute(self, tree: Path, inst: Installed | None = None,
                trace: Path | None = None) -> tuple[CommandOutcome, ProcessResult]:
        """Run the command on ``tree``; with ``inst`` (the tree installed: ``installed = true``) from that install;
        with ``trace`` (a folder) its Python processes write what they read there (``verify/reads.py``)."""
        tree = Path(tree).resolve()
        python_root = tree / self.layout.python_root if self.layout.python_root else tree
        python = inst.python if inst is not None else self.env.python
        values = {"python": str(python), "tree": str(tree), "python_root": str(python_root),
                  "spec_dir": str(self.spec_dir)}
        argv = [_fill(arg, values) for arg in self.command.argv]
        if argv[0] == "python":
            argv[0] = str(python)
        extra = {k: _fill(v, values) for k, v in self.command.env.items()}
        if inst is None:
            cwd = tree / self.command.cwd if self.command.cwd else python_root
            env = self.env.process_env(python_root, self.command.stubs, extra, tree=tree)
        else:  # no tree on the path: what pip installed, its console scripts first on PATH
            cwd = inst.work
            env = self.env.process_env(None, self.command.stubs, extra)
            env["VIRTUAL_ENV"] = str(inst.venv)
            env["PATH"] = str(inst.bin) + os.pathsep + env.get("PATH", "")
            found = shutil.which(argv[0], path=env["PATH"])
            if found is None:  # a console script the install did not write
                proc = ProcessResult(127, "", f"{argv[0]}: command not found (not installed)\n", 0.0)
                return CommandOutcome(127, "", proc.stderr, 0.0), proc
            argv[0] = found
        if trace is not None and is_python(argv[0], env.get("PATH")):
            env = traced_env(env, trace, [tree] + ([inst.site] if inst is not None else []))
        proc = run_process(argv, env, cwd, self.command.timeout)
        outcome = CommandOutcome(proc.exit_code, _normal(proc.stdout, tree, inst), _normal(proc.stderr, tree, inst),
                                 proc.seconds)
        return outcome, proc

    @contextmanager
    def prepared(self, tree: Path) -> Iterator[Installed | None]:
        """The tree installed for the command (``installed = true``), else None; InstallError if it does not."""
        if not self.command.installed:
            yield None
            return
        with installed(tree, self.env.python, self.command.timeout, compile=False) as inst:
            yield inst

    def watched(self, tree: Path) -> dict[str, str] | None:
        """Content hashes of the files the command says it depends on (None: it did not say)."""
        if not self.command.watch:
            return None

        py, other = python_files(Path(tree))
        return {rel: content_hash((Path(tree) / rel).read_bytes()) for rel in py + other
                if first_match(list(self.command.watch), rel) is not None}

    def baseline(self, original: Path) -> Baseline:
        start = time.monotonic()
        try:
            first, _, reads, size, second = self.traced(original, again=self.command.match != "exit")
        except InstallError as exc:
            return Baseline(self.name, False, None, f"the original does not install: {exc}", time.monotonic() - start)
        first = dataclasses.replace(first, watched=self.watched(original), reads=reads)
        if first.exit_code is None:
            return Baseline(self.name, False, None, f"times out on the original after {self.command.timeout}s",
                            time.monotonic() - start)
        if first.exit_code != 0:
            return Baseline(self.name, False, first, f"fails on the original (exit {first.exit_code}): "
                            f"{_tail(first.stderr)}", time.monotonic() - start)
        if second is not None:
            if (second.exit_code, second.stdout) != (first.exit_code, first.stdout):
                return Baseline(self.name, False, first, "its output differs between two runs of the original: "
                                + _first_difference(first.stdout, second.stdout), time.monotonic() - start)
        note = f"{first.seconds:.1f}s on the original" + size + self.removed_parts(first.stdout)
        return Baseline(self.name, True, first, note, time.monotonic() - start)

    def removed_parts(self, text: str) -> str:
        """What the spec's ``removed_output`` takes out of the original's output, for the report: the line each
        part starts in and its length (the options a fork deliberately lacks are listed, not silently skipped)."""
        shown = []
        for pattern in self.command.removed_output:
            for m in re.finditer(pattern, text, re.S | re.M):
                end = text.find("\n", m.start())
                line = text[text.rfind("\n", 0, m.start()) + 1:end if end >= 0 else len(text)].strip()
                lines = m.group(0).strip().count("\n") + 1
                shown.append(repr(line[:70]) + (f" and {lines - 1} more lines" if lines > 1 else ""))
        return f"; the fork deliberately lacks {len(shown)} parts of it, in: {', '.join(shown)}" if shown else ""

    def traced(self, tree: Path, again: bool = False) -> tuple[CommandOutcome, ProcessResult, ReadSet | str, str,
                                                               CommandOutcome | None]:
        """One run on ``tree`` with what it read (or why that is not known) and the install's size note; with
        ``again``, a second run (untraced) from the same install when the first exits 0."""
        with tempfile.TemporaryDirectory(prefix="slimfork-trace-") as trace, self.prepared(tree) as inst:
            outcome, proc = self.execute(tree, inst, Path(trace))
            reads = collect(Path(trace), tree, self.layout.python_root, inst.site if inst is not None else None)
            second = self.execute(tree, inst)[0] if again and outcome.exit_code == 0 else None
            return outcome, proc, reads, _size_note(inst), second

    def unchanged(self, fork: Path, before: CommandOutcome, watched: dict[str, str] | None) -> str | None:
        """Why the run on ``fork`` (``watched``: its watch files) would give what an earlier run gave (None: it must
        run): the files the original's run or a passing fork's run read, or the watch files, are as they were there."""
        if watched is not None and watched == before.watched:
            return "watched files unchanged: not run"
        if isinstance(before.reads, ReadSet) and before.reads.holds(fork, self.layout.python_root):
            return f"the {len(before.reads)} paths the original's run read are unchanged: not run"
        for reads, seen in reversed(self.passed):
            if watched is not None and watched == seen:
                return "watched files as in a tree that passed: not run"
            if reads is not None and reads.holds(fork, self.layout.python_root):
                return f"the {len(reads)} paths its run read are as in a tree that passed: not run"
        return None

    def run(self, fork: Path, baseline: Baseline) -> CheckResult:
        start = time.monotonic()
        before: CommandOutcome = baseline.data
        watched = self.watched(fork)
        why = self.unchanged(fork, before, watched)
        if why is not None:
            return CheckResult(self.name, True, (), (), time.monotonic() - start, why)
        try:
            now, proc, reads, size, _ = self.traced(fork)
        except InstallError as exc:
            return CheckResult(self.name, False, (f"{self.command.name}: the fork does not install: {exc}",), (),
                               time.monotonic() - start)
        failures = []
        if now.exit_code is None:
            failures.append(f"{self.command.name}: timed out after {self.command.timeout}s "
                            f"(the original took {before.seconds:.1f}s)")
        elif self.command.match in ("exit", "both") and now.exit_code != before.exit_code:
            failures.append(f"{self.command.name}: exit code {now.exit_code}, the original's {before.exit_code}: "
                            f"{_tail(now.stderr)}")
        expected, got = self.without_removed(before.stdout), self.without_removed(now.stdout)
        if now.exit_code is not None and self.command.match in ("stdout", "both") and got != expected:
            said = f"; stderr ends: {_tail(now.stderr)}" if now.stderr.strip() else ""  # e.g. a compiler's error
            failures.append(f"{self.command.name}: stdout differs from the original's: "
                            + _first_difference(expected, got) + said)
        paths = tuple(dict.fromkeys(reversed(tree_frames(proc.stderr, Path(fork).resolve())))) if failures else ()
        note = f"{now.seconds:.1f}s" + size
        if not failures:
            self.passed = [*self.passed[-_KEEP_PASSED + 1:], (reads if isinstance(reads, ReadSet) else None, watched)]
        if isinstance(reads, str):  # why the next tree runs it again too
            note += f"; its reads are not known: {reads}"
        if self.command.removed_output:
            dropped = sum(len(re.findall(p, before.stdout, re.S | re.M)) for p in self.command.removed_output)
            note += f"; {dropped} parts of the original's output deliberately removed " \
                    f"({', '.join(map(repr, self.command.removed_output))})"
        return CheckResult(self.name, not failures, tuple(failures), paths, time.monotonic() - start, note)

    def without_removed(self, text: str) -> str:
        """The output without the parts the spec says the fork deliberately drops."""
        for pattern in self.command.removed_output:
            text = re.sub(pattern, "", text, flags=re.S | re.M)
        return text


def _fill(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text


def _normal(text: str, tree: Path, inst: Installed | None = None) -> str:
    if inst is not None:
        text = text.replace(str(inst.scratch), "<install>")
    return text.replace(str(tree), "<tree>")


def _size_note(inst: Installed | None) -> str:
    """The install's size, reported (never compared): what a user's ``pip install`` writes, bytecode left out."""
    if inst is None:
        return ""
    size = inst.size()
    amount = f"{size.bytes / 1e6:,.1f} MB" if size.bytes >= 100_000 else f"{size.bytes / 1e3:.1f} kB"
    return f"; installed {size.files:,} files, {amount}"


def _tail(text: str, lines: int = 4) -> str:
    return " | ".join(line.strip() for line in text.strip().splitlines()[-lines:]) or "no output on stderr"


def _first_difference(before: str, after: str) -> str:
    diff = [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(), "original", "fork",
                                                  n=0, lineterm="") if not line.startswith(("---", "+++"))]
    shown = " | ".join(diff[:7])
    return shown + (f" ... ({len(diff)} diff lines)" if len(diff) > 7 else "")
