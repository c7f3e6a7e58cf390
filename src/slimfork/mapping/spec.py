"""``[[registries]]`` entries of kind "mapping": which dict, which keys stay."""

from __future__ import annotations

from dataclasses import dataclass

from slimfork.errors import SpecError
from slimfork.spec.stale import key_matches


# Registry kinds whose cut rewrites code before the plan is made again (the planning stages run for them).


@dataclass(frozen=True)
class MappingRegistry:
    module: str  # the module that holds the dict ("pygments.lexers._mapping")
    variable: str  # its module-level name ("LEXERS")
    keep: tuple[str, ...]  # globs (or "re:" regexes) on the keys, or on the module an entry names
    reason: str = ""
    key: str = "registries[0]"  # where it is in the spec, for errors

    def keeps(self, key: str, module: str | None) -> bool:
        return any(_match(p, key) or (module is not None and _match(p, module)) for p in self.keep)


_match = key_matches  # every registry kind matches its keys the same way


def parse_mappings(raw: list, key: str = "registries") -> list[MappingRegistry]:
    """The mapping entries of ``[[registries]]`` (scan entries are parsed by the spec loader)."""
    out = []
    for i, reg in enumerate(raw):
        where = f"{key}[{i}]"
        if "key_keyword" in reg and reg.get("kind") not in ("call", "decorator"):
            raise SpecError("'key_keyword' is only for kind = \"call\" or \"decorator\"", key=f"{where}.key_keyword",
                            hint="add kind = \"call\", or remove it")
        if "lookup" in reg and reg.get("kind") != "call":
            raise SpecError("'lookup' is only for kind = \"call\"", key=f"{where}.lookup",
                            hint="add kind = \"call\", or remove it")
        if reg.get("kind", "scan") != "mapping":
            if "variable" in reg and reg.get("kind", "scan") not in ("dict", "if-chain", "subclasses"):
                raise SpecError("'variable' is only for kind = \"mapping\", \"dict\", \"if-chain\" or "
                                "\"subclasses\"",
                                key=f"{where}.variable", hint="add kind = \"mapping\", or remove variable")
            continue
        variable = reg.get("variable")
        if not variable or not variable.isidentifier():
            raise SpecError("a mapping registry needs the name of its dict", key=f"{where}.variable",
                            hint="e.g. variable = \"LEXERS\" for pygments.lexers._mapping")
        out.append(MappingRegistry(reg["package"], variable, tuple(reg["keep"]), reg.get("reason", ""), where))
    return out


def cut_outcome(failure: str | None, kept: list[str], removed: list[str], removed_what: str = "removed") -> str:
    """One registry cut for the report: what stayed and what went, or why the file was left as it was."""
    if failure:
        return f"left unmodified: {failure}"
    return (f"kept {', '.join(f'`{k}`' for k in kept) or 'nothing'}; {removed_what} "
            + (", ".join(removed) or "nothing"))


def key_form(text: str) -> str:
    """A registry key or class name as tests spell it: case and `_`/`-` ignored."""
    return text.casefold().replace("_", "-")
