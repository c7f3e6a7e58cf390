"""The spec's ``[symbols]`` table and the ``[[registries]]`` entries of kind "dict"."""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass

from slimfork.errors import SpecError, Stale, closest
from slimfork.graph.roots import missing_symbol
from slimfork.spec.stale import key_matches
from slimfork.spec.schema import Field, Section, check_table

SYMBOLS = Section("symbols", "Symbol-level pruning: top-level definitions and imports no kept code references.", [
    Field("prune", "bool", "Remove unreferenced top-level functions, classes, assignments and imports of kept "
          "modules (default true when [symbols] is present).", default=True),
    Field("keep", "list[str]", "Symbols that always stay, 'pkg.mod:name', or 'pkg.mod' for every symbol of a "
          "module (names used in ways the analysis cannot see)."),
    Field("drop", "list[str]", "Public names ('pkg.mod:name') the fork need not keep as API: the public names of "
          "a root module (and of the public modules of a package root) otherwise stay even when nothing kept uses "
          "them; a dropped name goes when nothing kept uses it (symbol pruning and the facts' clean-up)."),
    Field("public_api", "str", "Whose public names stay as the fork's API even when nothing kept uses them: 'kept' "
          "(default), every public module the fork keeps (no '_' part below its top-level package), since code "
          "outside the fork may import them; 'roots', only root modules and the public modules of a package root "
          "(a fork whose users only run it, such as a server).", choices=("kept", "roots"), default="kept"),
    Field("pure_decorators", "list[str]", "Decorators (dotted, as written) that do not register what they "
          "decorate, so a function they decorate may be pruned (e.g. 'my_jit')."),
    Field("pure_calls", "list[str]", "Functions (dotted, as written at the call) whose call at import has no "
          "effect worth keeping (e.g. 'get_bool_env_var'; globs too: 'envs.*.get'): a module-level assignment whose value calls only these "
          "may be pruned, and does not keep its module in the fork."),
    Field("methods", "bool", "Also remove private methods (_name) that no kept code names as an attribute, a name "
          "or a word of a string (default true).", default=True),
    Field("public_methods", "bool", "Also remove public methods no kept code names in any of those ways (default "
          "false): code outside the fork may call them, so list in 'keep' the classes ('pkg.mod:Class') whose "
          "methods are an API.", default=False),
    Field("package_api", "bool", "Keep every name a package __init__ binds, as the package's API (default true); "
          "false prunes an __init__ like any module: a name stays when kept code imports or uses it.", default=True),
    Field("unneeded_effects", "list[str]", "Modules (dotted names, * and ? globs) whose import-time effects the "
          "fork does not need (registering the configs of models it leaves out): such a module leaves when nothing "
          "kept uses what it defines, its registrations with it. Other modules with effects stay once loaded."),
    Field("max_rounds", "int", "Prune, plan again, prune again: at most this many rounds (default 6).", default=6),
])


@dataclass(frozen=True)
class SymbolsSpec:
    prune: bool = True
    keep: tuple[tuple[str, str | None], ...] = ()  # (module, name or None for the whole module)
    pure_decorators: frozenset[str] = frozenset()
    max_rounds: int = 6
    methods: bool = True
    package_api: bool = True
    public_methods: bool = False
    unneeded_effects: tuple[str, ...] = ()
    pure_calls: frozenset[str] = frozenset()
    drop: tuple[tuple[str, str], ...] = ()  # (module, name): public names not kept as API
    public_api: str = "kept"  # "kept": every public module the fork keeps is API; "roots": only the roots'


def parse_symbols(raw: dict, key: str = "symbols") -> SymbolsSpec:
    check_table(raw, SYMBOLS)
    keep = []
    for i, text in enumerate(raw.get("keep", [])):
        module, _, name = text.partition(":")
        if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", module) or (name and not name.isidentifier()):
            raise SpecError(f"'{text}' is not 'pkg.mod:name' or 'pkg.mod'", key=f"{key}.keep[{i}]",
                            hint="for example 'sglang.srt.utils:get_bool_env_var'")
        keep.append((module, name or None))
    drop = parse_drop(raw, key)
    rounds = raw.get("max_rounds", 6)
    if rounds < 1:
        raise SpecError("max_rounds must be at least 1", key=f"{key}.max_rounds", hint="the default is 6")
    for i, pattern in enumerate(raw.get("unneeded_effects", [])):
        if not re.fullmatch(r"[A-Za-z_*?][\w*?]*(\.[A-Za-z_*?][\w*?]*)*", pattern):
            raise SpecError(f"'{pattern}' is not a dotted module name or glob", key=f"{key}.unneeded_effects[{i}]",
                            hint="for example 'sglang.srt.configs.*'")
    return SymbolsSpec(raw.get("prune", True), tuple(keep), frozenset(raw.get("pure_decorators", [])), rounds,
                       raw.get("methods", True), raw.get("package_api", True), raw.get("public_methods", False),
                       tuple(raw.get("unneeded_effects", [])), frozenset(raw.get("pure_calls", [])), drop,
                       raw.get("public_api", "kept"))


def parse_drop(raw: dict, key: str = "symbols") -> tuple[tuple[str, str], ...]:
    out = []
    for i, text in enumerate(raw.get("drop", [])):
        module, _, name = text.partition(":")
        if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", module) or not name.isidentifier():
            raise SpecError(f"'{text}' is not 'pkg.mod:name'", key=f"{key}.drop[{i}]",
                            hint="for example 'pkg.console:detect_legacy_windows'")
        out.append((module, name))
    return tuple(out)


@dataclass(frozen=True)
class DictRegistry:
    """A module-level dict (or a class attribute holding one) whose keys select implementations, or a list of
    key strings. ``path`` is the dotted path of the variable, module included, as the spec wrote it."""

    path: str
    keep: tuple[str, ...]
    reason: str = ""
    key: str = "registries[0]"
    variable: str | None = None  # given separately: the module is then ``path`` itself

    def keeps(self, name: str) -> bool:
        return any(key_matches(p, name) for p in self.keep)


def dict_registries(raw_registries: list) -> list[DictRegistry]:
    """The ``kind = "dict"`` entries of ``[[registries]]`` (the loader has checked keys and types)."""
    out = []
    for i, reg in enumerate(raw_registries or []):
        if reg.get("kind") == "dict":
            out.append(DictRegistry(reg["package"], tuple(reg["keep"]), reg.get("reason", ""), f"registries[{i}]",
                                    reg.get("variable")))
    return out


def stale_symbols(config: SymbolsSpec, index, mm, key: str = "symbols") -> list[Stale]:
    """`keep` and `drop` entries naming a module or name the source lacks, and `unneeded_effects` patterns matching
    no module: each with the closest name."""
    out = []
    entries = [(f"{key}.keep[{i}]", m, n) for i, (m, n) in enumerate(config.keep)]
    entries += [(f"{key}.drop[{i}]", m, n) for i, (m, n) in enumerate(config.drop)]
    for where, module, name in entries:
        problem = missing_symbol(module, name, index, mm, where)
        if problem is not None:
            close = (problem.hint or "").startswith("did you mean ")
            out.append(Stale(where, "symbol", problem.message,
                             problem.hint[len("did you mean "):].rstrip("?") if close and problem.hint else None,
                             "" if close else problem.hint or ""))
    modules = [m for m in mm.modules if mm.is_internal(m)]
    for i, pattern in enumerate(config.unneeded_effects):
        if not any(fnmatch.fnmatchcase(m, pattern) for m in modules):
            out.append(Stale(f"{key}.unneeded_effects[{i}]", "symbol", f"'{pattern}' matches no module",
                             closest(pattern.split("*")[0].rstrip("."), modules)))
    return out
