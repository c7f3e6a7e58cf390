"""What folding did: per file the branches folded and lines removed, per fact where it matched."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from slimfork.facts.model import Fact
from slimfork.facts.unmatched import TYPO
from slimfork.rewrite.fold_nodes import Fold
from slimfork.progress import counted

BRANCH_KINDS = {"if", "elif", "else", "while", "ternary", "filter", "assert", "dead code"}


@dataclass
class FileFold:
    path: str
    module: str
    changed: bool = False
    lines_before: int = 0
    lines_after: int = 0
    folds: list[Fold] = field(default_factory=list)
    matches: list[tuple[str, int]] = field(default_factory=list)  # (fact key, line)
    blocked: list[tuple[int, str]] = field(default_factory=list)  # (line, why a known condition stayed)
    removed_names: list[str] = field(default_factory=list)  # imports, flags, defs only deleted code used
    unresolved: list[tuple[int, str]] = field(default_factory=list)  # (line, why a fact's spelling was not folded)
    failure: str | None = None  # the file was left unmodified because of this
    public_kept: list[tuple[str, str]] = field(default_factory=list)  # (name, why): unused after the fold, kept as API

    @property
    def branches(self) -> int:
        return sum(1 for f in self.folds if f.kind in BRANCH_KINDS)

    def then(self, second: FileFold) -> FileFold:
        """This file's fold followed by a second pass over its output (unused methods, constant arguments)."""
        if second.failure:  # the second pass left the file as the first one wrote it
            return replace(self, blocked=self.blocked + [(0, f"second pass not applied: {second.failure}")])
        if not second.changed:
            return self
        # The second pass's lines are those of the first pass's output.
        return replace(self, changed=True, lines_after=second.lines_after, folds=self.folds + second.folds,
                       matches=self.matches + second.matches, blocked=second.blocked,
                       removed_names=self.removed_names + second.removed_names,
                       public_kept=self.public_kept + [k for k in second.public_kept if k not in self.public_kept])

    @property
    def lines_removed(self) -> int:
        return self.lines_before - self.lines_after if self.changed else 0


@dataclass
class FoldReport:
    files: list[FileFold] = field(default_factory=list)
    unmatched: list[Fact] = field(default_factory=list)  # facts that matched nothing
    unmatched_why: dict[str, Any] = field(default_factory=dict)  # fact key -> facts.unmatched.Unmatched
    flags: dict[str, Any] = field(default_factory=dict)  # module-level names found constant -> value
    patched: list[tuple[str, str, int]] = field(default_factory=list)  # (name, file, line) set by tests
    inert_options: list = field(default_factory=list)  # slimfork.facts.options.InertOption
    inert_values: list = field(default_factory=list)  # slimfork.facts.options.InertValue
    methods_kept: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # unused method -> reads of it
    constant_parameters: list = field(default_factory=list)  # rewrite.constant_args.ConstantParameter
    scanned: int = 0  # Python files looked at
    candidates: int = 0  # files that mention a fact or a constant flag
    seconds: float = 0.0
    phases: dict[str, float] = field(default_factory=dict)  # seconds per part of the fold, in order (benchmarks)
    later_removed: set[str] = field(default_factory=set)  # folded files the plan made again then left out

    @property
    def changed(self) -> list[FileFold]:
        return [f for f in self.files if f.changed]

    @property
    def in_fork(self) -> list[FileFold]:
        """Folded files the fork keeps: what the counts of branches and lines are about."""
        return [f for f in self.changed if f.path not in self.later_removed]

    @property
    def failures(self) -> list[FileFold]:
        return [f for f in self.files if f.failure]

    @property
    def branches(self) -> int:
        return sum(f.branches for f in self.in_fork)

    @property
    def lines_removed(self) -> int:
        return sum(f.lines_removed for f in self.in_fork)

    def _gone_summary(self) -> str:
        gone = [f for f in self.changed if f.path in self.later_removed]
        return (f"; {counted(len(gone), 'more file')} {'was' if len(gone) == 1 else 'were'} folded "
                f"({counted(sum(f.branches for f in gone), 'branch', 'branches')}) and then left the fork as "
                "unreachable, not counted here") if gone else ""

    def fact_matches(self) -> dict[str, list[tuple[str, int]]]:
        out: dict[str, list[tuple[str, int]]] = {}
        for f in self.files:
            for key, line in f.matches:
                out.setdefault(key, []).append((f.path, line))
        return out

    def methods_removed(self) -> dict[str, int]:
        """Declared unused method name -> how many class bodies lost it."""
        return dict(sorted(Counter(f.detail.split(":")[0].rsplit(".", 1)[-1] for file in self.changed
                                   for f in file.folds if f.kind == "method").items()))

    def unmatched_message(self, fact: Fact) -> str:
        why = self.unmatched_why.get(fact.key)
        return why.message if why is not None else f"the fact {fact.describe()} matched nothing (a typo?)"

    @property
    def typos(self) -> list[Fact]:
        """Unmatched facts whose name exists nowhere (those not explained count as such)."""
        return [f for f in self.unmatched if getattr(self.unmatched_why.get(f.key), "why", TYPO) == TYPO]

    def to_dict(self) -> dict[str, Any]:
        return {
            "summary": {"files_changed": len(self.in_fork), "files_folded_then_removed": len(self.changed) - len(self.in_fork), "branches_folded": self.branches,
                        "lines_removed": self.lines_removed, "failures": len(self.failures),
                        "scanned": self.scanned, "candidates": self.candidates, "seconds": round(self.seconds, 2),
                        "phases": {name: round(sec, 2) for name, sec in self.phases.items()}},
            "facts": {key: [{"path": p, "line": line} for p, line in places]
                      for key, places in sorted(self.fact_matches().items())},
            "unmatched_facts": [{"key": f.key, "fact": f.describe(), "message": self.unmatched_message(f),
                                 **({"why": w.why, "path": w.path, "line": w.line}
                                    if (w := self.unmatched_why.get(f.key)) is not None else {})}
                                for f in self.unmatched],
            "constant_flags": dict(sorted(self.flags.items())),
            "patched_by_tests": [{"name": n, "path": p, "line": line} for n, p, line in self.patched],
            "inert_options": [o._asdict() for o in self.inert_options],
            "inert_values": [v._asdict() for v in self.inert_values],
            "constant_parameters": [{"path": c.path, "function": c.function, "line": c.line,
                                     "parameter": c.parameter, "value": c.value, "calls": c.calls}
                                    for c in self.constant_parameters],
            "unused_methods": {"removed": self.methods_removed(),
                               "kept": {name: [{"path": p, "line": line} for p, line in places]
                                        for name, places in sorted(self.methods_kept.items())}},
            "files": [{
                "path": f.path, "module": f.module, "changed": f.changed, "branches_folded": f.branches,
                "lines_removed": f.lines_removed, "failure": f.failure, "removed_names": f.removed_names,
                "folds": [asdict(x) for x in f.folds],
                "matches": [{"fact": k, "line": line} for k, line in f.matches],
                "kept_for_side_effects": [{"line": line, "why": why} for line, why in f.blocked],
                "public_kept": [{"name": name, "why": why} for name, why in f.public_kept],
                "not_folded": [{"line": line, "why": why} for line, why in f.unresolved],
            } for f in self.files if f.changed or f.failure or f.blocked or f.public_kept or f.unresolved],
        }

    def to_markdown(self, limit: int = 50) -> str:
        out = ["# Platform facts folded", "",
               f"{counted(len(self.in_fork), 'file')} of the fork changed, "
               f"{counted(self.branches, 'branch', 'branches')} folded, {counted(self.lines_removed, 'line')} removed, "
               f"{counted(len(self.failures), 'file')} left unmodified ({self.candidates} of "
               f"{counted(self.scanned, 'file')} mention a fact; {self.seconds:.1f} s){self._gone_summary()}.", ""]
        if self.unmatched:
            out += ["## Facts that matched nothing", ""]
            spelled = Counter(why.split("(", 1)[1].split(")", 1)[0] for f in self.files for _, why in f.unresolved)
            out += [f"- `{f.describe()}` ({f.key}): {self.unmatched_message(f)}"
                    + (f"; {spelled[f.target]} mentions not folded, see below" if spelled.get(f.target) else "")
                    for f in self.unmatched] + [""]
        matches = self.fact_matches()
        if matches:
            out += ["## Facts used", "", "| fact | matches | first place |", "|---|---:|---|"]
            for key, places in sorted(matches.items()):
                out.append(f"| `{key}` | {len(places)} | {places[0][0]}:{places[0][1]} |")
            out.append("")
        if self.failures:
            out += ["## Files left unmodified", ""]
            out += [f"- {f.path}: {f.failure}" for f in self.failures] + [""]
        unresolved = [(f.path, line, why) for f in self.files for line, why in f.unresolved]
        if unresolved:
            out += ["## Mentions of a fact not folded", ""]
            out += [f"- {p}:{line}: {why}" for p, line, why in unresolved[:limit]]
            out += ([f"- ... {len(unresolved) - limit} more (report.json: `not_folded`)"]
                    if len(unresolved) > limit else []) + [""]
        blocked = [(f.path, line, why) for f in self.files for line, why in f.blocked]
        if blocked:
            binds = sum("it binds" in why for _, _, why in blocked)
            out += ["## Known conditions kept", "",
                    f"{len(blocked)} conditions the facts decide are not deleted: {binds} arms bind names that kept "
                    "code still mentions (an arm that never runs stays as `if False:`, so no name becomes undefined), "
                    f"{len(blocked) - binds} conditions have an operand with a side effect that must still run.", ""]
            out += [f"- {p}:{line}: {why}" for p, line, why in blocked[:limit]]
            out += ([f"- ... {len(blocked) - limit} more (report.json: `kept_for_side_effects`)"]
                    if len(blocked) > limit else []) + [""]
        public = [(f.path, name, why) for f in self.files for name, why in f.public_kept]
        if public:
            out += ["## Public API kept", "", "Names only folded code used, kept because code outside the fork may "
                    "import them (`[symbols] drop = [\"pkg.mod:name\"]` lets one go):", ""]
            out += [f"- {p}: `{name}`: {why}" for p, name, why in public[:limit]]
            out += ([f"- ... {len(public) - limit} more (report.json: `public_kept`)"]
                    if len(public) > limit else []) + [""]
        removed = self.methods_removed()
        if removed or self.methods_kept:
            out += ["## Unused methods", ""]
            out += [f"- `{name}`: removed from {n} classes" for name, n in removed.items()]
            out += [f"- `{name}`: kept everywhere, kept code still reads it at "
                    + ", ".join(f"{p}:{line}" for p, line in places[:3]) + (" ..." if len(places) > 3 else "")
                    for name, places in sorted(self.methods_kept.items())] + [""]
        if self.inert_options:
            out += ["## Command-line options the feature facts make inert", "",
                    "They still parse, but the fork no longer reads them:", ""]
            out += [f"- `{o.option}` ({o.path}:{o.line}): `{o.dest}` is fixed by `{o.fact}`"
                    for o in self.inert_options] + [""]
        if self.inert_values:
            out += ["## Command-line option values the feature facts make inert", "",
                    "They still parse, but the fork treats them as if the predicate that tested for them were "
                    "false:", ""]
            out += [f"- `{v.option} {v.value}` ({v.path}:{v.line}): `{v.predicate}` is never tested for "
                    f"(`{v.fact}`)" for v in self.inert_values] + [""]
        if self.constant_parameters:
            out += ["## Constant arguments", "", "Parameters every call in the kept code passes the same value "
                    "(`[facts] constant_arguments`): each is that constant in its function's body.", "",
                    "| function | parameter | value | calls |", "|---|---|---|---:|"]
            out += [f"| {c.path}:{c.line} `{c.function}` | `{c.parameter}` | `{c.value!r}` | {c.calls} |"
                    for c in self.constant_parameters[:limit]]
            out += ([f"| ... {len(self.constant_parameters) - limit} more | | | |"]
                    if len(self.constant_parameters) > limit else []) + [""]
        if self.patched:
            out += ["## Facts or flags that tests patch (those tests exercise folded code)", ""]
            out += [f"- `{n}` at {p}:{line}" for n, p, line in self.patched[:limit]] + [""]
        changed = sorted(self.changed, key=lambda f: -f.lines_removed)
        if changed:
            out += ["## Files", "", "| file | branches folded | lines removed | names removed |", "|---|---:|---:|---|"]
            for f in changed[:limit]:
                names = ", ".join(f.removed_names[:6]) + (" ..." if len(f.removed_names) > 6 else "")
                out.append(f"| {f.path} | {f.branches} | {f.lines_removed} | {names} |")
            if len(changed) > limit:
                out.append(f"| ... {len(changed) - limit} more | | | |")
            kinds = Counter(x.kind for f in changed for x in f.folds)
            out += ["", "Folds by kind: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()), ""]
        return "\n".join(out)
