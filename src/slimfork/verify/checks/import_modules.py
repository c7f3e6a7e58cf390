"""Check 4: every selected module of the fork imports, each in its own process, in the verification environment.

The baseline imports each selected module of the original and records which files of the tree it loaded. A
fork in which every one of those files is still there with the same content imports the module the same way, so
the module is not imported again (only the files a batch touched cost time). The same holds against the last
tree in which the module imported: after a batch that rewrote files every module loads, the next batches do not
import everything again. Modules that fail in the original are not counted.

With a remote executor (``--executor ray``) the modules are spread over its workers, each job a share of them
carrying the tree; locally (and on a worker checking a candidate tree) they run ``jobs`` at a time here.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from slimfork.errors import SpecError
from slimfork.verify.env import VerifyEnv
from slimfork.verify.executor import Executor, Job
from slimfork.verify.importer import RawOutcome, import_modules
from slimfork.verify.model import Baseline, CheckResult
from slimfork.verify.spec import ImportModulesSpec
from slimfork.verify.tree import Tree, TreeLayout, open_tree

_MISSING = re.compile(r"No module named '([\w.]+)'|cannot import name '\w+' from '([\w.]+)'")

@dataclass(frozen=True)
class ImportOutcome:
    module: str
    ok: bool
    error: str = ""
    frames: tuple[str, ...] = ()  # "rel/path.py:line" inside the tree, innermost last
    loaded: tuple[str, ...] = ()  # files of the tree the import loaded
    seconds: float = 0.0
    lost: tuple[str, ...] = ()  # promised public names the module lacks (in a fork: getattr failed)
    lazy: bool = False  # it has a module __getattr__ (the baseline does not ask it: its lost may be lazy names)
    dir_names: tuple[str, ...] = ()  # (the baseline) the lazy names its module __dir__ lists that resolve: a fork
    # that imports it again asks them too (``from pkg import Heavy`` through a lazy table whose module a batch removed)
    dir_skipped: int = 0  # (the baseline) of a long list, the names not tried (the budget spent): unchecked


class ImportModulesCheck:
    name = "import-modules"
    cost = 4
    cache_baseline = True  # its baseline is plain data: reused across runs, profiles and workers
    executor: Executor | None = None  # set by the ladder: where the imports run (its baseline then runs here)

    def __init__(self, layout: TreeLayout, env: VerifyEnv, spec: ImportModulesSpec = ImportModulesSpec(),
                 promised: dict[str, tuple[str, ...]] | None = None):
        self.layout, self.env, self.spec = layout, env, spec
        # module -> the public names the plan promises of it (prune.inputs.promised_names): a module imported again
        # must still give each one the original gives
        self.promised = {m: tuple(sorted(n)) for m, n in sorted((promised or {}).items()) if n}
        self.original_lost: dict[str, tuple[str, ...]] = {}  # module -> promised names the original lacks too
        for i, name in enumerate(spec.preload):
            if layout.internal(name):
                raise SpecError(f"'{name}' belongs to the package under test", key=f"checks.import_modules.preload[{i}]",
                                hint="preload only third-party modules (torch, transformers): the tree's own import "
                                "order must stay as it is")
        self.include = [glob_regex(p) for p in spec.modules]
        self.passed: dict[str, dict[str, str | None]] = {}  # module -> its loaded files' keys where it imported
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
        outcomes = {o.module: o for o in self.import_all(tree, modules, ask=False, lazy_dir=True)}  # a lazy name
        # stays unloaded, but those a module __dir__ lists (within a budget)
        ok = [m for m, o in outcomes.items() if o.ok]
        failing = sorted(m for m, o in outcomes.items() if not o.ok)
        note = f"{len(ok)} of {len(modules)} modules import in the original"
        if failing:
            note += "; not counted: " + "; ".join(f"{m} ({outcomes[m].error})" for m in failing[:5])
            note += f" and {len(failing) - 5} more" if len(failing) > 5 else ""
        if self.promised:
            unselected = sorted(m for m in self.promised if m in tree.modules and m not in outcomes)
            note += (f"; the promised public names of {sum(m in ok for m in self.promised)} modules are checked, "
                     f"not those of {len(unselected)} outside the selection"
                     + (f" ({', '.join(unselected[:3])}{', ...' if len(unselected) > 3 else ''})" if unselected else "")
                     + f" nor of {sum(m in failing for m in self.promised)} failing in the original")
        if skipped := {m: o.dir_skipped for m, o in outcomes.items() if o.dir_skipped}:
            note += (f"; the lazy names of {len(skipped)} modules' __dir__ resolved only in part ("
                     + ", ".join(f"{m}: {n} not tried" for m, n in sorted(skipped.items())[:3])
                     + ", ..." * (len(skipped) > 3) + "): removing what only those load is not caught")
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
            last = self.passed.get(module)
            if last is not None and all(_file_key(tree, rel) == key for rel, key in last.items()):
                continue  # as in the last tree where it imported
            todo.append(module)
        imported = self.import_all(tree, todo, extra={m: outcomes[m].dir_names for m in todo
                                                      if m in outcomes and outcomes[m].dir_names})
        gone = self.lost_names(baseline.data["tree"], outcomes, [o for o in imported if o.ok and o.lost])
        for outcome in imported:
            if outcome.ok and gone.get(outcome.module):
                file = tree.modules[outcome.module]
                failures += [f"{file}: {outcome.module} lost public name '{n}'" for n in gone[outcome.module]]
                paths += [file] if file not in paths else []
            elif outcome.ok:
                self.passed[outcome.module] = {rel: _file_key(tree, rel) for rel in outcome.loaded}
            else:
                where = f" (at {outcome.frames[-1]})" if outcome.frames else ""
                failures.append(f"{tree.modules[outcome.module]}: import {outcome.module}: {outcome.error}{where}")
                named = _MISSING.search(outcome.error)  # the module the fork lost, as a file of the original
                lost = baseline.data["tree"].modules.get(named.group(1) or named.group(2)) if named else None
                for rel in [tree.modules[outcome.module], *[f.rpartition(":")[0] for f in outcome.frames[-1:]], lost]:
                    if rel is not None and rel not in paths:
                        paths.append(rel)
        return CheckResult(self.name, not failures, tuple(failures), tuple(paths), time.monotonic() - start,
                           f"{len(todo)} imported, the rest load only files unchanged since the original or since the last "
                           "tree where they imported")

    def lost_names(self, original: Tree, before: dict[str, ImportOutcome], outcomes: list[ImportOutcome]) \
            -> dict[str, list[str]]:
        """Module -> the promised names the fork's module lost that the original's has at run time: those in the
        original's namespace (the baseline listed the others). A name the original lacks there but a module
        ``__getattr__`` may give is asked of the original, once per module (only then is it imported again)."""
        for o in outcomes:
            base = before.get(o.module)
            if base is not None and not base.lazy:
                self.original_lost.setdefault(o.module, base.lost)
        ask = [o.module for o in outcomes if o.module not in self.original_lost
               and set(o.lost) & set(before[o.module].lost if o.module in before else o.lost)]
        for outcome in self.import_all(original, ask):
            self.original_lost[outcome.module] = outcome.lost if outcome.ok else tuple(self.promised[outcome.module])
        absent = {m: set(b.lost) for m, b in before.items()}
        return {o.module: [n for n in o.lost if n not in self.original_lost.get(o.module, absent.get(o.module, ()))]
                for o in outcomes}

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop("executor", None)  # a copy on a worker imports there
        return state

    def import_all(self, tree: Tree, modules: list[str], ask: bool = True, lazy_dir: bool = False,
                   extra: dict[str, tuple[str, ...]] | None = None) -> list[ImportOutcome]:
        """Each module's promised public names (and ``extra``'s) it lacks (``ImportOutcome.lost``); ``ask``: its
        module ``__getattr__`` is asked for them; ``lazy_dir``: the lazy names its ``__dir__`` lists are resolved."""
        if not modules:
            return []
        promised = {**self.promised, **{m: tuple(sorted({*self.promised.get(m, ()), *names}))
                                        for m, names in (extra or {}).items()}}
        if self.executor is None or self.executor.name == "local" or len(modules) < 2:
            raw = _import_share(tree.root, self.env, self.spec, self.layout.python_root, modules,
                                self.spec.jobs or os.cpu_count() or 1, promised, ask, lazy_dir)
        else:  # a share of the modules per job, a few per worker so that a slow share does not hold the rest
            per_worker = 1 if self.spec.preload else 4  # (each share preloading torch would cost seconds)
            count = min(len(modules), per_worker * self.executor.workers)
            jobs = [Job(_import_share, tree.root, (self.env, self.spec, self.layout.python_root, modules[i::count], 1,
                                                   promised, ask, lazy_dir))
                    for i in range(count)]
            by_module = {r.module: r for share in self.executor.map(jobs) for r in share}
            raw = [by_module[m] for m in modules]
        return [_outcome(r, self.spec.timeout) for r in raw]


def _import_share(root: Path, env: VerifyEnv, spec: ImportModulesSpec, python_root: str, modules: list[str],
                  jobs: int, promised: dict[str, tuple[str, ...]] | None = None, ask: bool = True,
                  lazy_dir: bool = False) -> list[RawOutcome]:
    """Import ``modules`` of the tree at ``root``, ``jobs`` at a time (a job of the executor, or all of them here)."""
    variables = env.process_env(root / python_root if python_root else root, spec.stubs, tree=root)
    with tempfile.TemporaryDirectory(prefix="slimfork-imports-") as tmp:
        return import_modules(env.python, variables, root, modules, jobs, spec.timeout, spec.preload, Path(tmp),
                              names={m: promised[m] for m in modules if m in promised} if promised else None, ask=ask,
                              lazy_dir=lazy_dir)


def _outcome(raw: RawOutcome, timeout: int) -> ImportOutcome:
    if raw.timed_out:
        return ImportOutcome(raw.module, False, f"timed out after {timeout}s", seconds=raw.seconds)
    if raw.data is None:
        return ImportOutcome(raw.module, False, raw.why, seconds=raw.seconds)
    data = raw.data
    return ImportOutcome(raw.module, data["ok"], data.get("error", ""), tuple(data.get("frames", ())),
                         tuple(data["loaded"]), raw.seconds, tuple(data.get("lost", ())),
                         bool(data.get("lazy")), tuple(data.get("dir_names", ())), int(data.get("dir_skipped", 0)))


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
