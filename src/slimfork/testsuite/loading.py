"""What importing each module of the library may do besides binding names, and which of its modules an import loads:
``Library.loading_effect`` walks them for a test file's import of a module the fork removes."""

from __future__ import annotations

_LOADING_KINDS = ("import", "from", "parent")


def loading_effects(analysis, folded, kept: set[str]) -> tuple[dict[str, str], dict[str, set[str]]]:
    """(module -> what its import may do, module -> the internal modules its import loads) for the original's modules;
    ``kept``: the modules the fork keeps, whose third-party imports the fork makes anyway (as ``folded``, the index
    of the fork's files before symbol pruning, has them). An effect is a top-level statement with one (a call, an
    attribute store, a registering decorator or metaclass), a class whose base comes from elsewhere (its
    ``__init_subclass__`` may register it) or a third-party import no kept module makes (what that import does is not
    known here)."""
    mm, index = analysis.graph.mm, analysis.index
    summaries = {name: index.files[info.path].symbols for name, info in mm.modules.items()
                 if info.path is not None and info.path in index.files and mm.is_internal(name)}
    externals = set().union(*(folded.files[path].symbols.external_imports for m in kept
                              if (path := mm.modules[m].path) is not None and path in folded.files))
    effects: dict[str, str] = {}
    for name, summary in summaries.items():
        imported = {b for st in summary.statements if st.kind == "import" for b in st.binds}
        why = next((f"runs line {st.line}: {st.effect}" for st in summary.statements
                    if st.effect and not st.type_only), None)
        why = why or next((f"defines class {st.binds[0]} (line {st.line}) on an imported base, which may register it"
                           for st in summary.statements if st.kind == "class"
                           and (st.hook or any(c[0] in imported or len(c) > 1 for c in st.bases))), None)
        third = sorted(summary.external_imports - externals)
        if why or third:
            effects[name] = why or f"imports {', '.join(third)}, which no kept module imports"
    loads = {name: {e.target for e in analysis.graph.edges.get(name, ()) if e.kind in _LOADING_KINDS
                    and "inside a" not in e.detail and "TYPE_CHECKING" not in e.detail and e.target in summaries}
             for name in summaries}
    return effects, loads

