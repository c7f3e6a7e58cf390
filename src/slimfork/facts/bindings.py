"""Module-level bindings (read-only, stdlib ``ast``) and qualified-name resolution across modules.

A name is resolved to a *canonical* qualified name: ``from sglang.srt.utils import is_hip`` in any module
resolves ``is_hip`` to ``sglang.srt.utils.common.is_hip`` because ``sglang/srt/utils/__init__.py`` re-exports it
with a star import. Names bound more than once (or rebound by ``global``) are ambiguous and never resolve.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

from slimfork.facts.evaluate import STDLIB_FACTS
from slimfork.index.parse import decode, parse_python
from slimfork.index.relative import absolute_module

_PATCHERS = {"setattr", "patch", "object", "setitem", "delattr"}


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
    out = ModuleBindings(module, rel, is_package=rel.endswith("__init__.py"))
    try:
        text = decode((root / rel).read_bytes())
        tree = parse_python(text)
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError, LookupError, RecursionError) as exc:
        out.error = f"{exc.__class__.__name__}: {exc}"
        return out
    events: dict[str, list[tuple[str, str | None]]] = {}
    package = module if out.is_package else module.rpartition(".")[0]

    def add(name: str, kind: str, payload: str | None = None) -> None:
        events.setdefault(name, []).append((kind, payload))

    def absolute(node: ast.ImportFrom) -> str | None:
        return absolute_module(package, node.level, node.module)

    def statements(body, top: bool) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        add(alias.asname, "import", alias.name)
                    else:
                        first = alias.name.split(".")[0]
                        add(first, "import", first)
            elif isinstance(node, ast.ImportFrom):
                source = absolute(node)
                for alias in node.names:
                    if alias.name == "*":
                        if source:
                            out.star_imports.append(source)
                    else:
                        add(alias.asname or alias.name, "import", f"{source}.{alias.name}" if source else None)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                add(node.name, "def")
            elif isinstance(node, ast.Assign):
                simple = top and all(isinstance(t, ast.Name) for t in node.targets)
                for target in node.targets:
                    _targets(target, lambda n: add(n, "assign" if simple else "other", _src(text, node.value)))
                if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
                    out.all_names = _strings(node.value)
            elif isinstance(node, ast.AnnAssign):
                simple = top and node.value is not None and isinstance(node.target, ast.Name)
                _targets(node.target, lambda n: add(n, "assign" if simple else "other",
                                                    _src(text, node.value) if node.value else None))
            elif isinstance(node, ast.Delete):  # `del sys` at the end: every read that succeeds sees the binding
                for target in node.targets:
                    _targets(target, lambda n: add(n, "del"))
            elif isinstance(node, ast.AugAssign):
                _targets(node.target, lambda n: add(n, "other"))
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                _targets(node.target, lambda n: add(n, "other"))
                statements(node.body, False)
                statements(node.orelse, False)
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                for item in node.items:
                    if item.optional_vars is not None:
                        _targets(item.optional_vars, lambda n: add(n, "other"))
                statements(node.body, False)
            elif isinstance(node, (ast.If, ast.While)):
                statements(node.body, False)
                statements(node.orelse, False)
            elif isinstance(node, (ast.Try, ast.TryStar)):
                statements(node.body, False)
                for handler in node.handlers:
                    if handler.name:
                        add(handler.name, "other")
                    statements(handler.body, False)
                statements(node.orelse, False)
                statements(node.finalbody, False)
            elif isinstance(node, ast.Match):
                for case in node.cases:
                    statements(case.body, False)

    statements(tree.body, True)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                add(name, "other")
        elif isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
            add(node.target.id, "other")
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in _PATCHERS:
                for arg in node.args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value:
                        out.patched.setdefault(arg.value, node.lineno)
                        out.patched.setdefault(arg.value.rsplit(".", 1)[-1], node.lineno)
    for name, seen in events.items():
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


def _targets(target: ast.AST, add) -> None:
    if isinstance(target, ast.Name):
        add(target.id)
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            _targets(element, add)
    elif isinstance(target, ast.Starred):
        _targets(target.value, add)


def _src(text: str, node: ast.AST) -> str | None:
    return ast.get_source_segment(text, node)


def _strings(node: ast.AST) -> list[str] | None:
    if isinstance(node, (ast.List, ast.Tuple)):
        strings = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if len(strings) == len(node.elts):
            return strings
    return None


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
