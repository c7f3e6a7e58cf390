"""The planning step for mapping registries: cut each dict in the scratch copy before the plan is made again,
so the modules only removed entries named leave the fork (their strings are gone from the mapping file)."""

from __future__ import annotations

from pathlib import Path

from slimfork.errors import SpecError, did_you_mean
from slimfork.mapping.cut import MappingCut, cut_mapping


def cut_mappings(analysis, scratch: Path) -> list[MappingCut]:
    """Rewrite every mapping registry of the spec under ``scratch``; return what each cut."""
    cuts = []
    mm = analysis.graph.mm
    for registry in analysis.spec.sections.get("registries") or []:
        info = mm.modules.get(registry.module)
        if info is None or info.path is None:
            raise SpecError(f"no module '{registry.module}' in the source", key=f"{registry.key}.package",
                            hint=did_you_mean(registry.module, [m for m in mm.modules if mm.is_internal(m)],
                                              "name the module that holds the dict"))
        path = scratch / info.path
        cut = cut_mapping(registry, info.path, path.read_bytes(),
                          lambda s: s in mm.modules and mm.is_internal(s), lambda keys: _home(mm, keys))
        if cut.new_source is not None:
            path.write_bytes(cut.new_source)
        cuts.append(cut)
    return cuts


def _home(mm, keys: list[str]) -> str | None:
    """The one package of the source every key is a submodule of (``holidays.countries`` for ``"albania"``)."""
    homes: set[str] | None = None
    for key in keys:
        found = {m.rpartition(".")[0] for m in mm.modules if m.endswith("." + key) and mm.is_internal(m)}
        homes = found if homes is None else homes & found
        if not homes:
            return None
    return next(iter(homes)) if homes and len(homes) == 1 else None


def mapping_report(cuts: list[MappingCut]) -> str:
    lines = []
    for cut in cuts:
        reg = cut.registry
        modules = sorted(cut.unnamed_modules())
        lines += [f"`{reg.module}.{reg.variable}` ({cut.path}): kept {len(cut.kept)} entries, removed "
                  f"{len(cut.removed)}; {len(modules)} modules only removed entries named"
                  + (f" ({reg.reason})" if reg.reason else "") + ".", "",
                  "Kept: " + ", ".join(f"`{e.key}`" for e in cut.kept), ""]
    return "\n".join(lines)


def mapping_data(cuts: list[MappingCut]) -> list[dict]:
    return [{"module": c.registry.module, "variable": c.registry.variable, "path": c.path,
             "kept": [e.key for e in c.kept], "removed": [e.key for e in c.removed]} for c in cuts]
