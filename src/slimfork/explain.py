"""``why``: for a module, file or module:symbol, the shortest chain from a root, or why it is removed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from slimfork.decisions import REMOVAL_CONFIDENCE, RemovalKind
from slimfork.errors import SlimforkError, did_you_mean
from slimfork.plan.build import step_reason


@dataclass
class WhyAnswer:
    target: str
    module: str | None
    path: str | None
    kept: bool
    chain: list[dict]  # for a kept target: each step from a root, with file:line
    reason: str  # one line a user can read
    kind: str = ""  # the Kept or Removal kind of the target's file ("" when the plan does not list it)
    confidence: int | None = None  # how sure that decision is (0-100)

    def to_dict(self) -> dict:
        return {"target": self.target, "module": self.module, "path": self.path, "kept": self.kept,
                "reason": self.reason, "chain": self.chain, "kind": self.kind, "confidence": self.confidence}


def explain(analysis, target: str) -> WhyAnswer:
    graph, plan = analysis.graph, analysis.plan
    module, symbol, path = locate(analysis, target)
    kept = {k.path: k for k in plan.kept}
    removed = {r.path: r for r in plan.removals}
    if path in removed:
        r = removed[path]
        return WhyAnswer(target, module, path, False, [], f"removed ({r.kind}): {r.reason}", str(r.kind), r.confidence)
    chain = []
    if module in graph.reached:
        for step in graph.chain(module):
            info = graph.modules[step.module]
            chain.append({"module": step.module, "path": info.path, "reason": step_reason(graph, step),
                          "line": step.edge.line if step.edge else None,
                          "from": graph.modules[step.via].path if step.via else None})
    reason = kept[path].reason if path in kept else (chain[-1]["reason"] if chain else "kept")
    kind, confidence = (str(kept[path].kind), kept[path].confidence) if path in kept else ("", None)
    symbols = analysis.stages.symbols if analysis.stages else None
    if symbol and symbols is not None:
        gone = symbols.removed_symbol(module, symbol.split(".")[0])
        if gone is not None:
            return WhyAnswer(target, module, path, False, [], f"removed: {gone.reason} ({gone.path}:{gone.line})",
                             "symbol", REMOVAL_CONFIDENCE[RemovalKind.SYMBOL])
        used = symbols.reach.first_use.get((module, symbol.split(".")[0])) if symbols.reach else None
        if used:
            reason = f"'{symbol}' is kept: {used}; its module: {reason}"
    if symbol and not reason.startswith(f"'{symbol}'"):
        reason = f"'{symbol}' is kept because its module is kept: {reason}"
    return WhyAnswer(target, module, path, True, chain, reason, kind, confidence)


def locate(analysis, target: str) -> tuple[str | None, str | None, str | None]:
    graph, tree = analysis.graph, analysis.tree
    candidate = Path(target)
    if candidate.is_absolute():
        try:
            target = candidate.resolve().relative_to(tree.root).as_posix()
        except ValueError:
            raise SlimforkError(f"{target} is not inside the source {tree.root}", key="TARGET",
                                hint="give a path relative to the source, a module or module:symbol") from None
    all_paths = set(analysis.index.files) | set(analysis.index.other_files)
    path_like = target.endswith((".py", ".pyi")) and target.partition(":")[0] not in graph.modules  # setup.py
    if target in all_paths or "/" in target or path_like:
        if target not in all_paths:
            raise SlimforkError(f"no file '{target}' in the source", key="TARGET",
                            hint=did_you_mean(target, sorted(all_paths), "paths are relative to the source"))
        return graph.module_of(target), None, target
    module, _, symbol = target.partition(":")
    if module not in graph.modules:
        raise SlimforkError(f"no module '{module}' in the source", key="TARGET",
                            hint=did_you_mean(module, list(graph.modules), "give a module (pkg.mod), a file "
                                              "relative to the source (pkg/mod.py) or pkg.mod:name"))
    info = graph.modules[module]
    if symbol and info.path and symbol.split(".")[0] not in analysis.index.files[info.path].defs:
        raise SlimforkError(f"module '{module}' defines no '{symbol}'", key="TARGET",
                            hint="names it defines: " + ", ".join(sorted(analysis.index.files[info.path].defs)[:10]))
    return module, symbol or None, info.path
