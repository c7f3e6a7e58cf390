"""What the fork still has, as tests see it: modules, the names each binds, facts fixed to a value, and the
entries mapping registries lost. ``broken`` and ``fakes`` answer for one use or one patch in a test."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from slimfork.facts.model import ENV, FUNCTION, METHOD, NAME
from slimfork.mapping.spec import key_form
from slimfork.testsuite.paths import FILE_USE, PACKAGE_SCAN
from slimfork.testsuite.scan import NAMESPACE, UNKNOWN, Patch


@dataclass
class Library:
    original: dict[str, set[str]]  # internal module -> names bound at module level in the original
    fork: dict[str, set[str]]  # the same for the modules the fork keeps (after folding)
    open_modules: set[str] = field(default_factory=set)  # names not knowable (module __getattr__, dynamic)
    removed_entries: dict[str, str] = field(default_factory=dict)  # registry key/alias -> "module.VARIABLE"
    facts: dict[str, object] = field(default_factory=dict)  # "sys.platform" / "env:VAR" -> fixed value
    removed_keys: dict[str, str] = field(default_factory=dict)  # key_form(key or class) -> why it is gone
    removed_members: set[str] = field(default_factory=set)  # "Enum.MEMBER" an enum table of a registry lost
    pruned: set[tuple[str, str]] = field(default_factory=set)  # (module, name) symbol pruning removed
    test_gone: dict[str, str] = field(default_factory=dict)  # "helpers.both" a removed test unit was -> why
    effects: dict[str, str] = field(default_factory=dict)  # module -> what its import does besides binding names
    namespaces: set[str] = field(default_factory=set)  # implicit namespace packages (no __init__.py) of the tree
    dependencies: set[str] = field(default_factory=set)  # other distributions' parts of them the library imports
    removed_files: set[str] = field(default_factory=set)  # paths of the Python files the fork removes
    stars: dict[str, list[str]] = field(default_factory=dict)  # module -> the modules it star-imports
    unknowable: set[str] = field(default_factory=set)  # open for another reason (module __getattr__, dynamic)
    fork_stars: dict[str, list[str]] = field(default_factory=dict)  # the same in the fork (pruning removes some)
    fork_unknowable: set[str] = field(default_factory=set)  # open in the fork for another reason than a star
    fork_all: dict[str, set[str]] = field(default_factory=dict)  # a fork module's literal __all__ (what a star
    # import of it binds)
    original_all: dict[str, set[str]] = field(default_factory=dict)  # an original module's literal __all__
    loading: dict[str, str] = field(default_factory=dict)  # module -> what loading it may do besides binding names
    # (any statement with an effect, a class with an imported base, a third-party import kept code lacks)
    loads: dict[str, set[str]] = field(default_factory=dict)  # module -> the internal modules its import loads
    _methods: dict[str, str] | None = field(default=None, repr=False, compare=False)

    def pruned_method(self, attr: str) -> str | None:
        """``module.Class.method`` for a private method symbol pruning removed that is named ``attr``, or None. Only
        private names (``_check``, not ``__x__``): a public one (``public_methods = true``) is often spelled alike
        by other classes (``get``, ``run``), and would take tests of kept code with it."""
        if self._methods is None:
            self._methods = {}
            for module, name in sorted(self.pruned):
                if "." in name and name.rsplit(".", 1)[1].startswith("_") and not name.endswith("__"):
                    self._methods.setdefault(name.rsplit(".", 1)[1], f"{module}.{name}")
        return self._methods.get(attr)

    def foreign(self, dotted: str) -> str | None:
        """The part of one of the tree's namespace packages that ``dotted`` names and the tree does not have,
        another distribution's (``opentelemetry.test`` beside opentelemetry-api's ``opentelemetry.trace``), when
        no module of the library imports it: a test dependency, which may itself import this project's modules
        (opentelemetry-test-utils imports ``opentelemetry._logs._internal``). None for a name the tree has, a
        part the library imports (its dependency, ``google.auth``: it cannot import the project back) and any
        name outside the namespace packages."""
        parts = dotted.split(".")
        for i in range(len(parts) - 1, 0, -1):
            parent = ".".join(parts[:i])
            if parent in self.namespaces:
                part = f"{parent}.{parts[i]}"
                if part in self.original or part in self.namespaces or part in self.dependencies:
                    return None
                return part
        return None

    def removed_key(self, unit) -> str | None:
        """Why a test unit uses a removed registry entry: a string literal equal to one of its keys (case and
        '-'/'_' aside), starting with one followed by a comma (``"oracle, version = 19"``: a key with options) or
        a URL with it as scheme (``"amqps://broker"``, ``"postgresql+psycopg://..."``), a test class named
        Test<RemovedClass>, or a member an enum of the entries lost; None otherwise."""
        names = {key_form(s) for s in unit.strings}
        names |= {key_form(m.group(1)) for s in unit.strings if (m := KEY_WITH_OPTIONS.match(s))}
        names |= {key_form(m.group(1)) for s in unit.strings if (m := URL_SCHEME.match(s))}  # "amqps://host"
        if unit.kind == "class" and unit.qualname.startswith("Test"):
            names.add(key_form(unit.qualname[4:]))
        hit = sorted(names & self.removed_keys.keys())
        if hit:
            return self.removed_keys[hit[0]]
        member = next((u.dotted for u in unit.uses if ".".join(u.dotted.split(".")[-2:]) in self.removed_members), None)
        return f"{member}, an enum member of a removed registry entry" if member else None


    def loading_effect(self, module: str) -> str | None:
        """What importing ``module``, a module the fork removes, may do besides binding names: its own effects or
        those of the removed modules its import loads, transitively (the kept ones load in the fork anyway); None
        where it does nothing else."""
        seen, todo = {module}, [module]
        while todo:
            current = todo.pop()
            if current in self.loading:
                return f"loading {current} {self.loading[current]}"
            for other in self.loads.get(current, ()):
                if other not in seen and other not in self.fork:
                    seen.add(other)
                    todo.append(other)
        return None

    def module_of(self, dotted: str) -> str | None:
        parts = dotted.split(".")
        for i in range(len(parts), 0, -1):
            if ".".join(parts[:i]) in self.original:
                return ".".join(parts[:i])
        return None

    def broken(self, dotted: str) -> str | None:
        """Why a use of ``dotted`` fails in the fork, or None when it works (or cannot be known)."""
        if dotted.endswith(PACKAGE_SCAN) and dotted[:-len(PACKAGE_SCAN)] in self.original:
            package = dotted[:-len(PACKAGE_SCAN)]  # pkgutil.iter_modules(pkg.__path__): what it lists
            lost = sorted(m for m in self.original if m.startswith(package + ".") and m not in self.fork)
            if lost:
                return f"the modules of {package}, which it lists, and the fork removes {lost[0]}"
            # what it reads off each module it lists is not known: a public name pruned from one (mutagen's
            # TModuleImportAll reads mod.error of each) fails it as a removed module does
            cut = sorted(f"{m}.{n}" for m in self.original if m.startswith(package + ".") and m not in self.open_modules
                         for n in self.original[m] - self.fork[m] if not n.startswith("_"))
            return f"the modules of {package}, which it lists, and the fork removes {cut[0]}" if cut else None
        if dotted.startswith(FILE_USE):  # a file run or read by its path: "file:examples/demo.py"
            end = dotted[len(FILE_USE):]
            gone_file = next((p for p in sorted(self.removed_files) if p == end or p.endswith("/" + end)), None)
            return f"the file {gone_file}, which the fork removes (the test runs or reads it by its path)" \
                if gone_file else None
        gone = next((g for g in self.test_gone if dotted == g or dotted.startswith(g + ".")), None)
        if gone is not None:
            return f"{gone}, which goes from the tests ({self.test_gone[gone]})"
        module = self.module_of(dotted)
        if module is None:
            part = self.foreign(dotted)
            if part is None or (self.original.keys() == self.fork.keys() and not self.pruned):
                return None
            return (f"{part}, another distribution's part of the namespace package {part.rpartition('.')[0]} that "
                    "the library does not import: what it imports of this project is unknown, and the fork removes "
                    "some of it")
        if module not in self.fork:
            return f"module {module}, which the fork removes"
        rest = dotted[len(module) + 1:].split(".")[0]
        if rest == NAMESPACE and module not in self.open_modules:  # vars(mod): every public name it binds
            lost = sorted(n for n in self.original[module] - self.fork[module] if not n.startswith("_"))
            if lost:
                return f"every name of {module} (it lists them), and the fork removes {module}.{lost[0]}"
        if rest == NAMESPACE and module not in self.fork_unknowable and module in self.fork_all \
                and module in self.original_all:  # names star imports bind: the literal __all__ says which go
            lost = sorted(n for n in self.original_all[module] - self.fork_all[module] if not n.startswith("_"))
            if lost:  # vars(httpx) of httpx's test_exported_members.py and test_exceptions.py
                return f"every name of {module} (it lists them), and the fork's {module}.__all__ no longer lists " \
                       f"{lost[0]}"
        if rest == NAMESPACE:
            return None
        if not rest or rest in self.fork[module]:
            return None
        if rest in self.removed_entries:
            return f"{module}.{rest}, an entry removed from the registry {self.removed_entries[rest]}"
        if rest in self.original[module] and (module not in self.open_modules or module not in self.fork_unknowable
                                              and not self._star_binds(module, rest)):
            return f"{module}.{rest}, which " + ("symbol pruning removed" if (module, rest) in self.pruned
                                                  else "folding removed")
        if rest not in self.original[module] and module in self.stars:
            return self._lost_through_star(module, rest)
        return None

    def _star_binds(self, module: str, name: str, seen: frozenset[str] = frozenset()) -> bool:
        """Whether a star import the fork's ``module`` still has (followed) may bind ``name``: a source that binds
        it, or one whose names cannot be known."""
        for source in self.fork_stars.get(module, ()):
            if source in seen:
                continue
            if source not in self.fork:
                if source not in self.original:
                    return True  # another distribution's module: unknown
                continue
            if source in self.fork_unknowable:
                return True
            if source in self.fork_all and name not in self.fork_all[source]:
                continue  # its __all__ says what a star import of it binds
            if name in self.fork[source] and (source, name) not in self.pruned:
                return True
            if self._star_binds(source, name, seen | {module}):
                return True
        return False

    def _lost_through_star(self, module: str, name: str) -> str | None:
        """Why ``module.name``, which only ``module``'s star imports bind (``from pkg import Clamp`` where
        ``pkg/__init__.py`` has ``from pkg.validators import *``), is gone from the fork: every module that bound
        it in the original (its star sources, followed) lost it to symbol pruning or left. None when one still
        binds it, or a module on the way cannot be known (a module ``__getattr__``, a dynamic ``__all__``)."""
        had: list[str] = []
        todo, seen = list(self.stars.get(module, ())), {module}
        while todo:
            source = todo.pop()
            if source in seen:
                continue
            seen.add(source)
            if source not in self.original or source in self.unknowable:
                return None
            if name in self.original[source]:
                had.append(source)
            todo += self.stars.get(source, ())
        if not had or self._star_binds(module, name):
            return None
        source = sorted(had)[0]
        how = "symbol pruning removed it" if (source, name) in self.pruned else "the fork removes that module" \
            if source not in self.fork else "folding removed it" if name not in self.fork[source] \
            else "symbol pruning removed the star import"
        return f"{module}.{name}, which {module} re-exports from {source} with a star import, and {how}"

    def fakes(self, patch: Patch) -> str | None:
        """Why ``patch`` sets a folded fact to a value the fork never has, or None."""
        fact = self._fact_for(patch.target)
        if fact is None:
            return None
        target, value = fact
        if patch.value is UNKNOWN:
            return f"patches {target} to a value only known at run time; the fork fixes it to {value!r}"
        if _same(patch.value, value):
            return None
        shown = patch.value[1] if isinstance(patch.value, tuple) and patch.value[:1] == ("returns",) else patch.value
        return f"patches {target} to {shown!r}; the fork fixes it to {_show(value)!r}"

    def _fact_for(self, target: str):
        if target in self.facts:
            return target, self.facts[target]
        module, _, name = target.rpartition(".")
        if module in self.original:  # a flag imported into another module: same name, same package
            top = module.split(".")[0]
            for qualname, value in self.facts.items():
                if qualname.rsplit(".", 1)[-1] == name and qualname.split(".")[0] == top:
                    return target, value
        return None


def _same(patched: object, fixed: object) -> bool:
    if isinstance(fixed, tuple) and fixed[:1] == ("returns",):
        return isinstance(patched, tuple) and patched[:1] == ("returns",) and patched[1] == fixed[1]
    return patched == fixed


def _show(value: object) -> object:
    return value[1] if isinstance(value, tuple) and value[:1] == ("returns",) else value


def fact_values(facts, flags: dict[str, object]) -> dict[str, object]:
    """The facts of a FactSet and the constant flags folding found, keyed as patches name them."""
    out: dict[str, object] = {}
    for fact in getattr(facts, "facts", ()) or ():
        if fact.kind == NAME:
            out[fact.target] = fact.value
        elif fact.kind in (FUNCTION, METHOD):
            out[fact.target] = ("returns", fact.value)
        elif fact.kind == ENV:
            out[f"env:{fact.target}"] = {True: "1", False: "0"}.get(fact.value, fact.value) \
                if isinstance(fact.value, bool) else str(fact.value)
    for qualname, value in (flags or {}).items():
        out.setdefault(qualname, value)
    return out


KEY_WITH_OPTIONS = re.compile(r"\s*([\w.-]+)\s*,")
URL_SCHEME = re.compile(r"([A-Za-z][\w.-]*)(?:\+[\w.-]+)?://")  # a URL's scheme names a transport or dialect key
