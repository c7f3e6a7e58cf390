"""Names an API module re-exports with ``from m import *`` (pitfall 3): code outside the fork may import them
from the API module, so they stay in ``m`` like the API module's own public names. ``m``'s literal ``__all__``
says which; without one, every public name ``m`` binds, its own star imports followed. With ``[symbols]
package_api = false`` a package ``__init__`` is no such ``m``: its names go when unused, and its literal
``__all__`` loses their entries, so the star import still works.

The star import statements on the way (the API module's, and those of each source without a literal ``__all__``,
whose own star imports re-export too) stay with the names: ``star_api_modules`` says which modules hold them. A
star import anywhere else stays only while a consumer uses a name it binds (``graph.symbols``)."""

from __future__ import annotations

from slimfork.graph.modules import ModuleMap
from slimfork.graph.public_api import PublicApi
from slimfork.index.relative import absolute_module, package_of
from slimfork.index.symbols import SymbolSummary


def star_export_roots(api_modules: dict[str, str], summaries: dict[str, SymbolSummary], mm: ModuleMap,
                      api: PublicApi, package_api: bool,
                      star_api: dict[str, str] | None = None) -> list[tuple[str, str, str]]:
    """``(module, name, why)`` symbol roots for every name an API module (module -> why) star-imports.
    ``star_api`` (filled when given): module -> why its star imports stay (they re-export the API)."""
    out = []
    for module, why in sorted(api_modules.items()):
        if module not in summaries:
            continue
        dropped = api.dropped.get(module, frozenset())
        seen: set[str] = set()
        todo = [module]
        while todo:
            current = todo.pop()
            sources = _star_sources(current, summaries, mm)
            if sources and star_api is not None:
                star_api.setdefault(current, f"re-exports the API of {module} (a star import); {why}")
            for base in sources:
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
