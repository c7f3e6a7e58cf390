"""The graph: modules, import edges, registries; reachability from the roots and why-chains."""

from slimfork.graph.edges import Edge, MissingImport
from slimfork.graph.graph import ModuleGraph, Step, build_graph
from slimfork.graph.modules import ModuleInfo, ModuleMap

__all__ = ["Edge", "MissingImport", "ModuleGraph", "ModuleInfo", "ModuleMap", "Step", "build_graph"]
