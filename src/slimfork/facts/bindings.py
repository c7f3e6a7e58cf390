"""Module-level bindings (read-only, stdlib ``ast``) and qualified-name resolution across modules.

A name is resolved to a *canonical* qualified name: ``from sglang.srt.utils import is_hip`` in any module
resolves ``is_hip`` to ``sglang.srt.utils.common.is_hip`` because ``sglang/srt/utils/__init__.py`` re-exports it
with a star import. Names bound more than once (or rebound by ``global``) are ambiguous and never resolve.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from slimfork.facts.evaluate import STDLIB_FACTS
from slimfork.index.bindings import FromName
from slimfork.index.build import summary_of
from slimfork.index.relative import absolute_module


@dataclass
class ModuleBindings:
    module: str
    path: str
    is_package: bool = False
    imports: dict[str, str] = field(default_factory=dict)  # local name -> absolute qualified target
    assigns: dict[str, str] = field(default_factory=dict)  # name bound once by `name = expr` -> expr source
    defs: set[str] = field(default_factory=set)  # def/class bound once
    ambiguous: set[str] = field(default_factory=set)  # bound several times or in ways we do not follow
    star_imports: list[str] = field(default_factory=list)
    all_names: list[str] | None = None
    patched: dict[str, int] = field(default_factory=dict)  # names given as strings to setattr/patch -> line
    error: str | None = None

    def binds(self, name: str) -> bool:
        return name in self.imports or name in self.assigns or name in self.defs or name in self.ambiguous


def read_bindings(root: Path, rel: str, module: str) -> ModuleBindings:
    """The bindings of module ``module`` (file ``rel``): the facts' part of the file's summary, its relative imports
    resolved against the module's package."""
    out = ModuleBindings(module, rel, is_package=rel.endswith("__init__.py"))
    try:
        found = summary_of((root / rel).read_bytes()).bindings
    except OSError as exc:
        out.error = f"{exc.__class__.__name__}: {exc}"
        return out
    if found.error is not None:
        out.error = found.error
        return out
    package = module if out.is_package else module.rpartition(".")[0]
    for level, source in found.star_imports:
        target = absolute_module(package, level, source)
        if target:
            out.star_imports.append(target)
    out.all_names = list(found.all_names) if found.all_names is not None else None
    out.patched = dict(found.patched)
    for name, raw in found.events.items():
        seen = [(kind, _resolved(package, payload)) for kind, payload in raw]
        if any(kind != "del" for kind, _ in seen):
            seen = [event for event in seen if event[0] != "del"]
        kinds = {kind for kind, _ in seen}
        if kinds == {"import"} and len({payload for _, payload in seen}) == 1 and seen[0][1]:
            out.imports[name] = seen[0][1]
        elif kinds == {"assign"} and len({payload for _, payload in seen}) == 1 and seen[0][1] is not None:
            out.assigns[name] = seen[0][1]  # bound once, or several times by the same text (`_is_xpu = is_xpu()`)
        elif len(seen) == 1 and kinds == {"def"}:
            out.defs.add(name)
        else:
            out.ambiguous.add(name)
    return out


def _resolved(package: str, payload: str | FromName | None) -> str | None:
    if isinstance(payload, FromName):
        source = absolute_module(package, payload.level, payload.module)
        return f"{source}.{payload.name}" if source else None
    return payload


class Resolver:
    """Canonical qualified names across the modules of one tree (bindings are read lazily and cached)."""

    def __init__(self, root: Path, modules: dict[str, str], known: dict[str, ModuleBindings] | None = None):
        self.root = Path(root)
        self.paths = {module: rel for rel, module in modules.items()}
        self.cache: dict[str, ModuleBindings | None] = dict(known or {})
        self._canonical: dict[str, str] = {}

    def bindings(self, module: str) -> ModuleBindings | None:
        if module not in self.cache:
            rel = self.paths.get(module)
            self.cache[module] = read_bindings(self.root, rel, module) if rel else None
        return self.cache[module]

    def canonical(self, qualname: str, depth: int = 0) -> str:
        if depth == 0 and qualname in self._canonical:
            return self._canonical[qualname]
        result = self._resolve(qualname, depth)
        if depth == 0:
            self._canonical[qualname] = result
        return result

    def _resolve(self, qualname: str, depth: int) -> str:
        if depth > 25:
            return qualname
        parts = qualname.split(".")
        for i in range(len(parts), 0, -1):
            module = ".".join(parts[:i])
            if module in self.paths:
                break
        else:
            return qualname
        rest = parts[i:]
        if not rest:
            return qualname
        found = self.bindings(module)
        if found is None:
            return qualname
        first, tail = rest[0], (("." + ".".join(rest[1:])) if rest[1:] else "")
        if first in found.imports:
            target = found.imports[first]
            if target == f"{module}.{first}" or target == module:
                return qualname
            return self.canonical(target + tail, depth + 1)
        if found.binds(first):
            return qualname
        for star in found.star_imports:
            if self._star_binds(star, first, depth + 1):
                return self.canonical(f"{star}.{first}{tail}", depth + 1)
        if f"{module}.{first}" in self.paths:  # a submodule reached as an attribute
            return qualname
        return qualname

    def _star_binds(self, module: str, name: str, depth: int) -> bool:
        if depth > 25 or name.startswith("_"):
            return False
        found = self.bindings(module)
        if found is None:
            return False
        if found.all_names is not None:
            return name in found.all_names
        if found.binds(name):
            return True
        return any(self._star_binds(star, name, depth + 1) for star in found.star_imports)


class ModuleScope:
    """Resolve dotted names as written in one module; ``shadow`` holds local names that hide module ones."""

    def __init__(self, resolver: Resolver, bindings: ModuleBindings, shadow: frozenset[str] = frozenset(),
                 words: set[str] | None = None, aliases: dict[str, tuple[str, tuple[int, int]]] | None = None):
        self.resolver = resolver
        self.bindings = bindings
        self.shadow = shadow
        self.words = words  # when given, only names ending in one of these words are resolved (speed)
        self.aliases = aliases or {}  # local name -> (the qualified name it stands for, (its line, block end))
        self.line = 0  # where the expression being resolved is: an alias counts only after its line

    def with_shadow(self, names: frozenset[str], aliases: dict | None = None) -> "ModuleScope":
        return ModuleScope(self.resolver, self.bindings, names, self.words, aliases)

    def resolve(self, dotted: str) -> str | None:
        if not dotted:
            return None
        base, _, rest = dotted.partition(".")
        tail = "." + rest if rest else ""
        alias = self.aliases.get(base)
        if alias is not None and alias[1][0] < self.line <= alias[1][1]:
            return self.resolver.canonical(alias[0] + tail)
        if self.words is not None and dotted.rpartition(".")[2] not in self.words and base not in self.words:
            return None
        b = self.bindings
        if base in self.shadow or base in b.ambiguous:
            return None
        if base in b.imports:
            return self.resolver.canonical(b.imports[base] + tail)
        if base in b.assigns or base in b.defs:
            return self.resolver.canonical(f"{b.module}.{dotted}")
        for star in b.star_imports:
            if self.resolver._star_binds(star, base, 0):
                return self.resolver.canonical(f"{star}.{dotted}")
        return None


def renamed_imports(bindings: ModuleBindings, resolver: Resolver, words: set[str]) -> set[str]:
    """Local names of a module's imports that rename something a fact may match (``from m import is_hip as
    h``, or a name another module binds to one: ``PLATFORM`` of ``from sys import platform as PLATFORM``): they must
    be looked up too, though no fact ends in ``h``."""
    out = set()
    for name, target in bindings.imports.items():
        if target in STDLIB_FACTS and target.rpartition(".")[2] in words:
            out.add(name)  # `from platform import system`: the line says `system()`, not `platform.system`
            continue
        if name in words:
            continue
        if target.rpartition(".")[2] in words or resolver.canonical(target).rpartition(".")[2] in words:
            out.add(name)  # also a re-export under the same name (`from .compat import PLATFORM`, sys.platform)
    return out
