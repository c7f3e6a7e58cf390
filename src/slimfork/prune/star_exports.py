"""Names an API module re-exports with ``from m import *`` (pitfall 3): code outside the fork may import them
from the API module, so they stay in ``m`` like the API module's own public names. ``m``'s literal ``__all__``
says which; without one, every public name ``m`` binds, its own star imports followed. With ``[symbols]
package_api = false`` a package ``__init__`` is no such ``m``: its names go when unused, and its literal
``__all__`` loses their entries, so the star import still works."""

from __future__ import annotations

from slimfork.graph.modules import ModuleMap
from slimfork.graph.public_api import PublicApi
from slimfork.index.relative import absolute_module, package_of
from slimfork.index.symbols import SymbolSummary


def star_export_roots(api_modules: dict[str, str], summaries: dict[str, SymbolSummary], mm: ModuleMap,
                      api: PublicApi, package_api: bool) -> list[tuple[str, str, str]]:
    """``(module, name, why)`` symbol roots for every name an API module (module -> why) star-imports."""
    out = []
    for module, why in sorted(api_modules.items()):
        if module not in summaries:
            continue
        dropped = api.dropped.get(module, frozenset())
        seen: set[str] = set()
        todo = [module]
        while todo:
            for base in _star_sources(todo.pop(), summaries, mm):
                if base in seen or base not in summaries or not package_api and mm.modules[base].is_package:
                    continue
                seen.add(base)
                summary = summaries[base]
                names = summary.all_names
                if names is None:
                    names = sorted({n for st in summary.statements for n in st.binds if not n.startswith("_")})
                    todo.append(base)  # its own star imports re-export too
                out += [(base, name, f"re-exported by {module} (a star import); {why}") for name in names
                        if name not in dropped]
    return out


def _star_sources(module: str, summaries: dict[str, SymbolSummary], mm: ModuleMap) -> list[str]:
    info = mm.modules.get(module)
    package = package_of(module, info is not None and info.is_package)
    out = []
    for st in summaries[module].statements:
        for alias in st.aliases:
            source = absolute_module(package, alias.level, alias.module) if alias.bound == "*" else None
            if source is not None:
                out.append(source)
    return out
