"""The registry kinds (``[[registries]] kind``), one table line each: the name a spec gives, the stage that reads
its entries and what it means (the spec table's text). Two shapes share the table:

- ``graph``: the kind filters. The module graph reads its entries (``spec.registries``) and follows only the
  members they keep (``graph/edges.py``); nothing is rewritten.
- ``mapping`` and ``symbols``: the kind rewrites. Its own module cuts the entries the spec does not keep, in the
  planning stages' scratch copy: a ``mapping`` kind before the plan is made again (its handler is a
  ``RewritingKind`` line in ``mapping/kinds.py``, which a test holds to this table), a ``symbols`` kind in the symbol
  stage (``prune/registries.py``, as its rounds prune what only the removed keys used).

The spec layer is below every stage, so the handlers cannot sit in this table; ``spec/fields.py`` (choices and
text), the loader and the planning stages read it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RegistryKind:
    name: str
    stage: str  # "graph" (filters), "mapping" or "symbols" (rewrites)
    what: str  # how the spec table explains it


REGISTRY_KINDS: tuple[RegistryKind, ...] = (
    RegistryKind("scan", "graph", "a package scanned at run time"),
    RegistryKind("mapping", "mapping", "a module-level dict whose string values name the modules, e.g. pygments' "
                 "LEXERS (keys strings or named constants, Provider.EC2); package is then the module holding it "
                 "and keep matches its keys or their modules"),
    RegistryKind("dict", "symbols", "a dict whose keys select implementations, or a list of key strings: package "
                 "is its dotted path, 'pkg.mod.NAME' or 'pkg.mod.Class.NAME'; other keys are removed and what only "
                 "they used is pruned"),
    RegistryKind("decorator", "mapping", "definitions registered by a decorator call with a literal key, "
                 "@register_attention_backend(\"fa3\"): package is the decorator's qualified name; registrations "
                 "of other keys are deleted"),
    RegistryKind("call", "mapping", "module-level statements register(\"key\", \"pkg.mod\", ...): package is the "
                 "registering function's or method's qualified name, 'pkg.mod.Factory.register_backend'; statements "
                 "of other keys are deleted"),
    RegistryKind("if-chain", "mapping", "an if/elif chain in a function comparing `variable` to string literals: "
                 "package is the function, 'pkg.mod.func' or 'pkg.mod.Class.method'; arms of other keys are deleted"),
    RegistryKind("imports", "mapping", "a package __init__ importing its submodules so they register: package is "
                 "that package, keep matches submodule names; the other imports and their __all__ names are "
                 "deleted"),
    RegistryKind("subclasses", "mapping", "classes registered by subclassing a base: __init_subclass__, a "
                 "metaclass, __subclasses__(): package is the base class, keep matches a subclass's name or, with "
                 "variable, the strings of that class attribute, names = [\"en\", ...]; other subclasses are "
                 "deleted"),
)

KIND_NAMES = tuple(k.name for k in REGISTRY_KINDS)
DEFAULT_KIND = "scan"


def kinds_of(*stages: str) -> tuple[str, ...]:
    """The names of the kinds a stage reads."""
    return tuple(k.name for k in REGISTRY_KINDS if k.stage in stages)


FILTERING_KINDS = kinds_of("graph")  # the graph follows only what they keep
REWRITING_KINDS = kinds_of("mapping", "symbols")  # their cuts rewrite code: the planning stages run for them


def kinds_doc() -> str:
    """The spec table's text for ``kind``."""
    parts = [f"'{k.name}' ({k.what})" for k in REGISTRY_KINDS]
    return parts[0] + " or " + "; or ".join(parts[1:]) + "."
