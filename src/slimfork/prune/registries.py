"""Dict registries (``[[registries]] kind = "dict"``): find each declared variable and cut the keys the spec
does not keep, in the scratch copy, before symbol pruning takes away what only those entries used."""

from __future__ import annotations

from pathlib import Path

from slimfork.errors import SpecError, did_you_mean
from slimfork.prune.spec import DictRegistry
from slimfork.spec.stale import stale_keys
from slimfork.rewrite.registry_cut import cut_registry


def locate(registry: DictRegistry, mm) -> tuple[str, str]:
    """(module, variable) for a registry: ``package`` is the module with ``variable`` given, else the dotted
    path of the variable, module first ("pkg.mod.Class.NAME")."""
    if registry.variable:
        module, variable = registry.path, registry.variable
    else:
        module = mm.longest_module(registry.path) or ""
        variable = registry.path[len(module) + 1:]
    info = mm.modules.get(module)
    if not module or info is None or info.path is None:
        raise SpecError(f"no module in the source holds '{registry.path}'", key=f"{registry.key}.package",
                        hint=did_you_mean(registry.path, [m for m in mm.modules if mm.is_internal(m)],
                                          "for kind = \"dict\", package is the dotted path of the dict: "
                                          "'pkg.mod.NAME' or 'pkg.mod.Class.NAME'"))
    if not variable:
        raise SpecError(f"'{registry.path}' names a module, not the dict in it", key=f"{registry.key}.package",
                        hint="append the variable: 'pkg.mod.NAME' or 'pkg.mod.Class.NAME'")
    return module, variable


def cut_dict_registries(registries: list[DictRegistry], mm, scratch: Path, result) -> dict[str, set[str]]:
    """Cut every registry under ``scratch``; record what each kept and removed in ``result.registries``.
    Returns the modules that hold them, each with the identifiers its removed entries named."""
    modules: dict[str, set[str]] = {}
    for registry in registries:
        module, variable = locate(registry, mm)
        rel = mm.modules[module].path
        data = (scratch / rel).read_bytes()
        cut = cut_registry(data, variable, registry.keeps, rel, may_empty=not registry.keep)
        if cut.failure and not cut.found:
            raise SpecError(f"{rel}: {cut.failure}", key=f"{registry.key}.package",
                            hint="name a dict literal with string keys, or a list of key strings")
        if not cut.found:
            raise SpecError(f"no assignment '{variable} = {{...}}' in {rel}", key=f"{registry.key}.package",
                            hint="name a module-level dict, a class attribute as 'Class.NAME', or a function "
                                 "that builds one dict literal with string keys")
        if not cut.kept and (registry.keep or cut.new is None):
            raise SpecError(f"keep matches no key of {module}.{variable}", key=f"{registry.key}.keep",
                            hint="keys: " + ", ".join(cut.removed[:12]))
        if not cut.unknown and not cut.failure:
            result.stale += stale_keys(registry.key, registry.keep, cut.kept + cut.removed, f"{module}.{variable}")
        modules.setdefault(module, set())
        if cut.new is not None:
            modules[module] |= cut.freed
            (scratch / rel).write_bytes(cut.new)
            result.contents[rel] = cut.new
        elif cut.failure:
            result.failures.append(f"{rel}: registry {variable} not cut: {cut.failure}")
        result.registries.append({"module": module, "variable": variable, "path": rel, "kept": cut.kept,
                                  "removed": cut.removed if cut.new is not None else [],
                                  "unknown_keys_kept": cut.unknown, "reason": registry.reason})
    return modules
