"""The public API of the fork's kept modules: the public names (no leading underscore, and every name of a
literal ``__all__``) of a root module, and of every public module (no ``_`` path part) of a package that is
itself a root (``pkg``, or a glob such as ``pkg.**``), and by default of every public module the fork keeps,
stay whatever symbol pruning or a fact's clean-up finds unused: code outside the fork may import them
(``[symbols] public_api = "roots"`` limits this to the roots). ``[symbols] drop = ["pkg.mod:name"]`` withdraws that promise for
one name (it then goes only if nothing kept uses it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Callable
from fnmatch import fnmatchcase

from slimfork.graph.modules import ModuleMap
from slimfork.index.built_names import Slot

_GLOB = set("*?[")


@dataclass(frozen=True)
class PublicApi:
    """The API modules (module -> why) and the names the spec drops explicitly (module -> names)."""

    modules: dict[str, str] = field(default_factory=dict)
    dropped: dict[str, frozenset[str]] = field(default_factory=dict)
    defined_only: frozenset[str] = frozenset()  # kept modules: what they import is no API unless in __all__

    def keeps(self, module: str, name: str, all_names=None, imported: bool = False) -> str | None:
        """Why ``module.name`` stays as public API, or None. ``imported``: the module binds the name only by an
        import, which PEP 8 calls an implementation detail of a module that is no root, unless ``__all__`` lists
        it."""
        why = self.modules.get(module)
        if why is None or not is_public_name(name, all_names) or name in self.dropped.get(module, ()):
            return None
        if imported and module in self.defined_only and name not in (all_names or ()):
            return None
        return f"public API: {why}"


def public_api(roots, mm: ModuleMap, drop=(), kept=()) -> PublicApi:
    """``kept``: the modules the fork keeps whose public names are API too (empty under ``public_api = "roots"``)."""
    modules = api_modules(roots, mm)
    defined_only = set()
    for module in sorted(kept):
        if module not in modules and mm.is_internal(module) and _public_path(module.partition(".")[2]):
            modules[module] = ("a public module the fork keeps: code outside it may import what it defines "
                               "([symbols] public_api = \"roots\" keeps only the roots')")
            defined_only.add(module)
    return PublicApi(modules, dropped_names(tuple(drop)), frozenset(defined_only))


def kept_api(symbols, modules) -> tuple[str, ...]:
    """The kept modules whose public names are API under the spec's ``[symbols] public_api`` (default "kept")."""
    return tuple(modules) if symbols is None or symbols.public_api == "kept" else ()


def outside_callers(roots, mm: ModuleMap, symbols) -> Callable[[str, Slot], bool]:
    """May code outside the project call a function (``Slot.function`` of ``Slot.owner``, in a module) with any
    argument? Under ``public_api = "kept"`` (the default) every public function of a public module; under
    ``"roots"`` those of a root module and a symbol root's (the function or its class)."""
    if symbols is None or symbols.public_api == "kept":
        return lambda module, slot: _public_path(module)
    modules = set(api_modules(roots, mm))
    named = {(r.value, r.symbol) for r in roots if r.kind == "symbol"}
    return lambda module, slot: module in modules or bool({(module, slot.owner), (module, slot.function)} & named)


def api_modules(roots, mm: ModuleMap) -> dict[str, str]:
    """Module -> why its public names are the fork's API (a reason the report shows)."""
    out: dict[str, str] = {}
    for root in roots:
        if root.kind in ("symbol", "script", "file"):
            continue
        value = root.value
        if _GLOB & set(value):
            for module in sorted(mm.modules):
                if _glob_matches(value, module) and _public_path(module):
                    out.setdefault(module, f"a public module matched by root '{root}' (the package's public API)")
            continue
        info = mm.modules.get(value)
        if info is None:
            continue
        out.setdefault(value, f"root module '{root}': its public names are its API")
        if info.is_package:
            for module in mm.descendants(value):
                if _public_path(module[len(value) + 1:]):
                    out.setdefault(module, f"a public module of package root '{root}' (the package's public API)")
    return out


def is_public_name(name: str, all_names=None) -> bool:
    return not name.startswith("_") or name in (all_names or ())


def dropped_names(drop: tuple[tuple[str, str], ...]) -> dict[str, frozenset[str]]:
    """``[symbols] drop`` as module -> names."""
    out: dict[str, set[str]] = {}
    for module, name in drop:
        out.setdefault(module, set()).add(name)
    return {m: frozenset(n) for m, n in out.items()}


def _glob_matches(pattern: str, module: str) -> bool:
    if pattern.endswith(".**"):  # pkg.** covers pkg and everything below it
        base = pattern[:-3]
        return module == base or module.startswith(base + ".")
    return fnmatchcase(module, pattern)


def _public_path(dotted: str) -> bool:
    return not any(part.startswith("_") for part in dotted.split(".") if part)
