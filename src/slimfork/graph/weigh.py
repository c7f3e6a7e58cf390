"""What each kept module holds in the fork: the lines that would leave with it.

A module *dominates* another when every import chain from the roots to the other passes through it; cutting the
imports of a module (a fact, a registry, a drop) removes it and everything it dominates, and nothing else. The
*retained* lines of a module are its own plus those of every module it dominates, like a heap profiler's
retained size. Dominators are computed with the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple,
Fast Dominance Algorithm", 2001) over the reached part of the graph, from a virtual root above the spec's roots.
"""

from __future__ import annotations

from dataclasses import dataclass, field

_ROOT = "<roots>"


@dataclass
class Weight:
    module: str
    path: str | None
    lines: int  # its own Python lines
    retained: int  # its own and those of every module it dominates
    modules: int  # how many modules it dominates, itself included
    importers: list[dict] = field(default_factory=list)  # {"module", "path", "line", "how"} of each kept import

    def to_dict(self) -> dict:
        return {"module": self.module, "path": self.path, "lines": self.lines, "retained": self.retained,
                "modules": self.modules, "importers": self.importers}


def dominators(graph) -> dict[str, str]:
    """Immediate dominator of every reached module (a root's is ``"<roots>"``)."""
    reached = graph.reached
    succ: dict[str, list[str]] = {_ROOT: [r.module for r in graph.roots if r.module in reached]}
    for module in reached:
        succ[module] = list(dict.fromkeys(e.target for e in graph.edges.get(module, ())
                                          if e.target in reached and e.target != module))
    order = _postorder(succ)
    number = {m: i for i, m in enumerate(order)}
    preds: dict[str, list[str]] = {m: [] for m in order}
    for m, targets in succ.items():
        for t in targets:
            if t in preds:
                preds[t].append(m)
    idom = {_ROOT: _ROOT}
    changed = True
    while changed:
        changed = False
        for m in reversed(order):  # reverse postorder, the root first
            if m == _ROOT:
                continue
            done = [p for p in preds[m] if p in idom]
            if not done:
                continue
            new = done[0]
            for p in done[1:]:
                new = _intersect(p, new, idom, number)
            if idom.get(m) != new:
                idom[m] = new
                changed = True
    del idom[_ROOT]
    return idom


def _postorder(succ: dict[str, list[str]]) -> list[str]:
    order, seen, stack = [], {_ROOT}, [(_ROOT, iter(succ[_ROOT]))]
    while stack:
        node, children = stack[-1]
        for child in children:
            if child not in seen:
                seen.add(child)
                stack.append((child, iter(succ.get(child, ()))))
                break
        else:
            order.append(node)
            stack.pop()
    return order


def _intersect(a: str, b: str, idom: dict[str, str], number: dict[str, int]) -> str:
    while a != b:
        while number[a] < number[b]:
            a = idom[a]
        while number[b] < number[a]:
            b = idom[b]
    return a


def weigh(graph, lines_of) -> list[Weight]:
    """Every reached module with its retained lines, heaviest first. ``lines_of(module)``: its Python lines."""
    idom = dominators(graph)
    children: dict[str, list[str]] = {}
    for m, d in idom.items():
        children.setdefault(d, []).append(m)
    retained: dict[str, tuple[int, int]] = {}
    for m in _postorder({_ROOT: children.get(_ROOT, []), **children}):
        if m != _ROOT:
            subtree = [retained[c] for c in children.get(m, ())]
            retained[m] = (lines_of(m) + sum(s[0] for s in subtree), 1 + sum(s[1] for s in subtree))
    out = []
    for m, (total, count) in retained.items():
        info = graph.modules.get(m)
        out.append(Weight(m, info.path if info else None, lines_of(m), total, count, _importers(graph, m)))
    out.sort(key=lambda w: (-w.retained, w.module))
    return out


def _importers(graph, module: str) -> list[dict]:
    found = []
    for src, edge in graph.importers(module):
        if src in graph.reached and edge.kind != "parent":
            how = edge.kind + (f" ({edge.detail})" if edge.detail else "")
            found.append({"module": src, "path": graph.modules[src].path, "line": edge.line, "how": how})
    for root in graph.roots:
        if root.module == module:
            found.append({"module": None, "path": None, "line": None, "how": f"root: {root.reason}"})
    return sorted(found, key=lambda f: (f["module"] or "", f["line"] or 0))



@dataclass
class InitHold:
    """What the fork keeps only through one kind of import: a package ``__init__``'s that is no root (its
    re-exports, which ``[symbols] package_api`` keeps as the package's API; the user's line to cut them is
    ``public_api = "roots"``), or ``if TYPE_CHECKING:`` imports (``type_checking_imports = "ignore"``)."""

    lines: int
    modules: list[str]
    inits: list[str]  # the modules whose such imports hold them

    def to_dict(self) -> dict:
        return {"lines": self.lines, "modules": self.modules, "inits": self.inits}


def held_by_package_inits(graph, lines_of) -> InitHold:
    """The reached modules no chain from the roots reaches without passing through an import a package
    ``__init__`` makes (a package that is itself a root keeps its imports: they are the root's API)."""
    roots = {r.module for r in graph.roots}
    inits = {m for m in graph.reached if (info := graph.modules.get(m)) is not None and info.is_package
             and m not in roots}
    return _held(graph, lines_of, lambda src, edge: src in inits and edge.kind != "parent")


def held_by_type_checking(graph, lines_of) -> InitHold:
    """The reached modules only ``if TYPE_CHECKING:`` imports reach (``type_checking_imports = "keep"``)."""
    return _held(graph, lines_of, lambda src, edge: "TYPE_CHECKING only" in (edge.detail or ""))


def held_by_open_imports(graph, lines_of) -> InitHold:
    """The reached modules only imports of a name computed entirely at run time reach (``graph.open_imports``: the
    loose modules such a name may be; the spec's ``outside_imports`` lets them go)."""
    return _held(graph, lines_of, lambda src, edge: edge.kind == "dynamic" and LOOSE in (edge.detail or ""))


def held_by_star_imports(graph, lines_of, api: set[str]) -> InitHold:
    """The reached modules only star imports of API modules reach (``api``: the modules whose star imports
    re-export the fork's API, ``prune.star_exports``): a star import elsewhere keeps only what its consumers use,
    one of an API module everything its source exports. Package ``__init__``s are ``held_by_package_inits``'."""
    def star(src: str, edge) -> bool:
        info = graph.modules.get(src)
        if src not in api or info is None or info.is_package or info.path is None or edge.kind != "from":
            return False
        summary = graph.index.files.get(info.path)
        return summary is not None and any(i.line == edge.line and i.names == ("*",) for i in summary.imports)
    return _held(graph, lines_of, star)


# graph.open_imports: the detail of an edge to a loose module
LOOSE = "a name computed at run time may name it"


# graph.roots: the reason of a package a literal ``packages = [...]`` lists (graph.roots.resolve_roots)
LISTED = "listed by name in the build configuration's packages"


def held_by_listed_packages(graph, lines_of) -> InitHold:
    """The reached modules only the build configuration's ``packages`` list keeps (toolz 1.0.0's setup.py lists
    ``toolz.curried``, ``toolz.sandbox`` and ``tlz``): packages no other root lies in, which stay because
    setuptools fails on a listed folder the fork lacks, and what only they reach. ``inits``: those packages."""
    listed = {r.module for r in graph.roots if r.reason.startswith(LISTED)}
    start = {r.module for r in graph.roots if not r.reason.startswith(LISTED)}

    def from_the_list(src: str, edge) -> bool:  # setup.py's own string naming a listed package
        info = graph.modules.get(src)
        return edge.kind == "string" and edge.target in listed and info is not None \
            and (info.path or "").rsplit("/", 1)[-1] == "setup.py"
    hold = _held(graph, lines_of, from_the_list, start)
    return InitHold(hold.lines, hold.modules, sorted(listed & set(hold.modules)))


def _held(graph, lines_of, skipped, start: set[str] | None = None) -> InitHold:
    seen = {m for m in (start if start is not None else {r.module for r in graph.roots}) if m in graph.reached}
    stack = list(seen)
    while stack:
        module = stack.pop()
        for edge in graph.edges.get(module, ()):
            if edge.target in graph.reached and edge.target not in seen and not skipped(module, edge):
                seen.add(edge.target)
                stack.append(edge.target)
    held = sorted(set(graph.reached) - seen)
    holders = {m for m in graph.reached for e in graph.edges.get(m, ())
               if e.target in held and skipped(m, e) and m not in held}
    return InitHold(sum(lines_of(m) for m in held), held, sorted(holders))
