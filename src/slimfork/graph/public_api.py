"""The public API of the fork's kept modules: the public names (no leading underscore, and every name of a
literal ``__all__``) of a root module, and of every public module (no ``_`` path part) of a package that is
itself a root (``pkg``, or a glob such as ``pkg.**``), stay whatever symbol pruning or a fact's clean-up finds
unused: code outside the fork may import them. ``[symbols] drop = ["pkg.mod:name"]`` withdraws that promise for
one name (it then goes only if nothing kept uses it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatchcase

from slimfork.graph.modules import ModuleMap

_GLOB = set("*?[")


@dataclass(frozen=True)
class PublicApi:
    """The API modules (module -> why) and the names the spec drops explicitly (module -> names)."""

    modules: dict[str, str] = field(default_factory=dict)
    dropped: dict[str, frozenset[str]] = field(default_factory=dict)

    def keeps(self, module: str, name: str, all_names=None) -> str | None:
        """Why ``module.name`` stays as public API, or None."""
        why = self.modules.get(module)
        if why is None or not is_public_name(name, all_names) or name in self.dropped.get(module, ()):
            return None
        return f"public API: {why}"


def public_api(roots, mm: ModuleMap, drop=()) -> PublicApi:
    return PublicApi(api_modules(roots, mm), dropped_names(tuple(drop)))


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
