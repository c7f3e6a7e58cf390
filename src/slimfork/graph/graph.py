"""The module graph, built once and queried: reachability from the roots and the chain that explains it."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from slimfork.graph.edges import Edge, MissingImport, build_edges
from slimfork.graph.modules import ModuleMap, build_module_map
from slimfork.graph.open_imports import loose_modules, open_import_edges
from slimfork.graph.roots import RootModule, resolve_roots
from slimfork.index.build import Index
from slimfork.index.built_names import Slot
from slimfork.decisions import Uncertain
from slimfork.source.layout import SourceTree
from slimfork.spec.model import RegistrySpec, Root


@dataclass(frozen=True)
class Step:
    """Why a module is reached: from ``via`` over ``edge`` (None for a root)."""

    module: str
    via: str | None
    edge: Edge | None
    root_reason: str = ""


@dataclass
class ModuleGraph:
    tree: SourceTree
    index: Index
    mm: ModuleMap
    edges: dict[str, list[Edge]]
    roots: list[RootModule]
    missing: list[MissingImport] = field(default_factory=list)
    uncertain: list[Uncertain] = field(default_factory=list)
    reached: dict[str, Step] = field(default_factory=dict)
    excluded: set[str] = field(default_factory=set)
    type_only: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # imports that keep nothing
    vacated: frozenset[str] = frozenset()  # modules a registry cut left with nothing but imports
    loose: frozenset[str] = frozenset()  # the original's modules nothing imports or names (graph/open_imports.py)
    _reverse: dict[str, list[tuple[str, Edge]]] | None = field(default=None, repr=False)

    @property
    def modules(self):
        return self.mm.modules

    def module_of(self, path: str) -> str | None:
        return self.mm.module_of(path)

    def reach(self, excluded: set[str] | frozenset[str] = frozenset()) -> dict[str, Step]:
        """Breadth-first from the roots (so chains are shortest), never entering ``excluded`` modules."""
        self.excluded = set(excluded)
        reached: dict[str, Step] = {}
        queue: deque[str] = deque()
        for root in self.roots:
            if root.module not in reached and root.module not in excluded:
                reached[root.module] = Step(root.module, None, None, root.reason)
                queue.append(root.module)
        while queue:
            module = queue.popleft()
            for edge in self.edges.get(module, ()):
                if edge.target not in reached and edge.target not in excluded:
                    reached[edge.target] = Step(edge.target, module, edge)
                    queue.append(edge.target)
        self.reached = reached
        return reached

    def chain(self, module: str) -> list[Step]:
        steps = []
        current: str | None = module
        while current is not None and current in self.reached:
            step = self.reached[current]
            steps.append(step)
            current = step.via
        return list(reversed(steps))

    def importers(self, module: str) -> list[tuple[str, Edge]]:
        """Every (module, edge) that points at ``module`` (a reverse index built on first use)."""
        if self._reverse is None:
            self._reverse = {}
            for src, out in self.edges.items():
                for e in out:
                    if e.target != src:
                        self._reverse.setdefault(e.target, []).append((src, e))
        return self._reverse.get(module, [])


def build_graph(tree: SourceTree, index: Index, roots: list[Root], registries: list[RegistrySpec] | tuple[()] = (),
                excluded: set[str] | frozenset[str] = frozenset(), mm: ModuleMap | None = None,
                type_checking: bool = True, vacated: frozenset[str] = frozenset(),
                outside_imports: tuple[str, ...] | None = None, loose: frozenset[str] | None = None,
                declared: tuple[str, ...] = (), api: Callable[[str, Slot], bool] | None = None) -> ModuleGraph:
    """``type_checking``: whether imports under ``if TYPE_CHECKING:`` are edges (keep what they import);
    ``vacated``: modules a registry cut left with nothing but imports, or that only its removed entries named,
    which a computed module name no longer keeps (the registry declared what may be loaded);
    ``outside_imports``: the spec's globs (None: an audit, whose imports of names computed at run time keep no
    loose module); ``loose``: those of the original when this graph is of a rewritten copy; ``api``: which
    functions code outside the project may call (``public_api.outside_callers``; None: every public one)."""
    mm = mm or build_module_map(tree, index)
    edges, missing, uncertain, type_only = build_edges(mm, index, list(registries), type_checking, vacated, api)
    if outside_imports is not None:
        loose = loose_modules(mm, edges, registries, excluded) if loose is None else loose
        uncertain = open_import_edges(mm, edges, uncertain, loose, outside_imports, declared)
    graph = ModuleGraph(tree, index, mm, edges, resolve_roots(roots, tree, index, mm), missing, uncertain,
                        type_only=type_only, vacated=frozenset(vacated), loose=loose or frozenset())
    graph.reach(excluded)
    return graph
