"""Check 4: every selected module of the fork imports, each in its own process, in the verification environment.

The baseline imports each selected module of the original and records which files of the tree it loaded. A
fork in which every one of those files is still there with the same content imports the module the same way, so
the module is not imported again (only the files a batch touched cost time). Modules that fail in the original
are not counted.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from slimfork.verify.env import VerifyEnv
from slimfork.verify.model import Baseline, CheckResult
from slimfork.verify.process import run_process
from slimfork.verify.spec import ImportModulesSpec
from slimfork.verify.tree import Tree, TreeLayout, open_tree

_MISSING = re.compile(r"No module named '([\w.]+)'|cannot import name '\w+' from '([\w.]+)'")
_RUNNER = r"""
import importlib, json, os, sys, traceback
name, out, root = sys.argv[1], sys.argv[2], sys.argv[3] + os.sep
result = {"ok": True}
try:
    importlib.import_module(name)
except BaseException as exc:
    frames = [f"{os.path.relpath(f.filename, root)}:{f.lineno}" for f in traceback.extract_tb(exc.__traceback__)
              if f.filename.startswith(root)]
    text = str(exc).strip().splitlines()
    result = {"ok": False, "error": f"{type(exc).__name__}: {text[0] if text else ''}"[:500], "frames": frames[-3:]}
files = {getattr(m, "__file__", None) for m in list(sys.modules.values())}
result["loaded"] = sorted(os.path.relpath(f, root) for f in files if isinstance(f, str) and f.startswith(root))
with open(out, "w") as fh:
    json.dump(result, fh)
sys.stdout.flush()
os._exit(0)
"""


@dataclass(frozen=True)
class ImportOutcome:
    module: str
    ok: bool
    error: str = ""
    frames: tuple[str, ...] = ()  # "rel/path.py:line" inside the tree, innermost last
    loaded: tuple[str, ...] = ()  # files of the tree the import loaded
    seconds: float = 0.0


class ImportModulesCheck:
    name = "import-modules"
    cost = 4

    def __init__(self, layout: TreeLayout, env: VerifyEnv, spec: ImportModulesSpec = ImportModulesSpec()):
        self.layout, self.env, self.spec = layout, env, spec
        self.include = [glob_regex(p) for p in spec.modules]
        self.exclude = [glob_regex(p) for p in spec.exclude]

    def select(self, tree: Tree) -> list[str]:
        return sorted(m for m in tree.modules if any(r.match(m) for r in self.include)
                      and not any(r.match(m) for r in self.exclude))

    def baseline(self, original: Path) -> Baseline:
        start = time.monotonic()
        tree = open_tree(original, self.layout, original=True)
        modules = self.select(tree)
        if not modules:
            return Baseline(self.name, False, None, "no module of the original matches [checks.import_modules] "
                            "modules", time.monotonic() - start)
        outcomes = {o.module: o for o in self.import_all(tree, modules)}
        ok = [m for m, o in outcomes.items() if o.ok]
        failing = sorted(m for m, o in outcomes.items() if not o.ok)
        note = f"{len(ok)} of {len(modules)} modules import in the original"
        if failing:
            note += "; not counted: " + "; ".join(f"{m} ({outcomes[m].error})" for m in failing[:5])
            note += f" and {len(failing) - 5} more" if len(failing) > 5 else ""
        shas = {rel: _file_key(tree, rel) for o in outcomes.values() for rel in o.loaded}
        data = {"outcomes": outcomes, "shas": shas, "tree": tree}
        return Baseline(self.name, bool(ok), data, note, time.monotonic() - start)

    def run(self, fork: Path, baseline: Baseline) -> CheckResult:
        start = time.monotonic()
        tree = open_tree(fork, self.layout)
        outcomes: dict[str, ImportOutcome] = baseline.data["outcomes"]
        shas: dict[str, str | None] = baseline.data["shas"]
        failures, paths = [], []
        for module in self.spec.modules:  # a module the spec names outright must stay
            if not any(c in module for c in "*?[") and module in outcomes and outcomes[module].ok \
                    and module not in tree.modules:
                failures.append(f"{module}: named in [checks.import_modules] but not in the fork")
        todo = []
        for module in self.select(tree):
            before = outcomes.get(module)
            if before is not None and not before.ok:
                continue  # fails in the original too
            if before is not None and all(_file_key(tree, rel) == shas[rel] for rel in before.loaded):
                continue  # every file it loaded is unchanged: it imports as before
            todo.append(module)
        for outcome in self.import_all(tree, todo):
            if not outcome.ok:
                where = f" (at {outcome.frames[-1]})" if outcome.frames else ""
                failures.append(f"{tree.modules[outcome.module]}: import {outcome.module}: {outcome.error}{where}")
                named = _MISSING.search(outcome.error)  # the module the fork lost, as a file of the original
                lost = baseline.data["tree"].modules.get(named.group(1) or named.group(2)) if named else None
                for rel in [tree.modules[outcome.module], *[f.rpartition(":")[0] for f in outcome.frames[-1:]], lost]:
                    if rel is not None and rel not in paths:
                        paths.append(rel)
        return CheckResult(self.name, not failures, tuple(failures), tuple(paths), time.monotonic() - start,
                           f"{len(todo)} imported, the rest unchanged since the original")

    def import_all(self, tree: Tree, modules: list[str]) -> list[ImportOutcome]:
        jobs = self.spec.jobs or os.cpu_count() or 1
        env = self.env.process_env(tree.python_root, self.spec.stubs)
        with tempfile.TemporaryDirectory(prefix="slimfork-imports-") as tmp:
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                return list(pool.map(lambda m: self._import(tree, m, env, Path(tmp)), modules))

    def _import(self, tree: Tree, module: str, env: dict[str, str], tmp: Path) -> ImportOutcome:
        out = tmp / f"{module}.json"
        argv = [str(self.env.python), "-c", _RUNNER, module, str(out), str(tree.root)]
        proc = run_process(argv, env, tmp, self.spec.timeout)
        if proc.timed_out:
            return ImportOutcome(module, False, f"timed out after {self.spec.timeout}s", seconds=proc.seconds)
        try:
            data = json.loads(out.read_text())
        except (OSError, ValueError):
            return ImportOutcome(module, False, f"the import process died (exit {proc.exit_code}): "
                                 f"{proc.stderr_tail(2)}", seconds=proc.seconds)
        return ImportOutcome(module, data["ok"], data.get("error", ""), tuple(data.get("frames", ())),
                             tuple(data["loaded"]), proc.seconds)


def _file_key(tree: Tree, rel: str) -> str | None:
    """The content hash of a Python file; for a compiled module, whether it is there."""
    if rel in tree.shas:
        return tree.shas[rel]
    return "present" if (tree.root / rel).is_file() else None


def glob_regex(pattern: str) -> re.Pattern[str]:
    """Globs on dotted names: '*' within one component, '**' across components, 'a.**' is a and below it."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith(".**", i) and i + 3 == len(pattern):
            out += r"(\..*)?"
            i += 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + r"[^.]*", i + 1
        elif pattern[i] == "?":
            out, i = out + r"[^.]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + r"\Z")
