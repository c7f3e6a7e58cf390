"""Read a mapping registry's dict (or list, tuple or set of names or records) and cut the entries the spec does
not keep (LibCST, formatting kept). A sequence of strings is the registry of an import loop
(``for name in NAMES: import_module(f"{__name__}.{name}")``): an entry names the module ``<module>.<name>`` when
there is one, else the module the string itself names. A sequence of records (``Family(name="qwen_vl",
processor="pkg.mod:Class", ...)``) is keyed by each record's ``name=`` (else its first string) and names the
module its strings name (``"pkg.mod:Class"`` names ``pkg.mod``). A dict's key is a string or a named constant
(``Provider.EC2``, matched as written). ``keep = []`` removes every entry."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

import libcst as cst

from slimfork.errors import SpecError
from slimfork.mapping.spec import MappingRegistry, key_form


@dataclass(frozen=True)
class MappingEntry:
    key: str
    module: str | None  # the first string of the value that names a module of the source
    names: tuple[str, ...]  # every string in the value (aliases, file patterns, ...)
    line: int
    constant: bool = False  # the key is a named constant (``Provider.EC2``), not a string


@dataclass
class MappingCut:
    registry: MappingRegistry
    path: str  # the file holding the dict
    kept: list[MappingEntry] = field(default_factory=list)
    removed: list[MappingEntry] = field(default_factory=list)
    new_source: bytes | None = None  # None when nothing was cut

    def removed_names(self) -> set[str]:
        """Keys and aliases of the removed entries that no kept entry also has: what now fails as unknown."""
        kept = {n for e in self.kept for n in (e.key, *e.names)}
        return {n for e in self.removed for n in (e.key, *e.names)} - kept

    def removed_keys(self) -> dict[str, str]:
        """For the tests stage: each string key only removed entries have (in key_form) -> why it is gone: a test
        passing it (``Connection(transport="filesystem")``) uses a removed entry."""
        kept = {key_form(e.key) for e in self.kept}
        where = f"{self.registry.module}.{self.registry.variable}"
        return {key_form(e.key): f"'{e.key}', a key of {where} the spec does not keep" for e in self.removed
                if not e.constant and key_form(e.key) not in kept}

    def removed_members(self) -> set[str]:
        """``Kind.NAME`` of each named-constant key only removed entries have (a test reading one, as in
        ``get_driver(Provider.AZURE)``, uses a removed entry)."""
        kept = {e.key for e in self.kept}
        return {".".join(e.key.split(".")[-2:]) for e in self.removed if e.constant and "." in e.key
                and e.key not in kept}

    def unnamed_modules(self) -> set[str]:
        """The modules only removed entries named: a computed import name no longer keeps them."""
        return {e.module for e in self.removed if e.module} - {e.module for e in self.kept}


def cut_mapping(registry: MappingRegistry, path: str, source: bytes, is_module, home=None) -> MappingCut:
    """Split the entries of ``registry`` in ``source`` into kept and removed; ``is_module(dotted)`` says whether
    a string names a module of the source; ``home(keys)``: the one package every key is a submodule of, if any
    (a dict whose values name no module is keyed by module names). Raises SpecError when the dict is missing or
    keep matches nothing."""
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError as exc:
        raise SpecError(f"{path} does not parse: {exc}", key=f"{registry.key}.package", hint="") from None
    finder = _Finder(registry.variable)
    module.visit(finder)
    if finder.dict_node is None:
        raise SpecError(f"no module-level dict '{registry.variable} = {{...}}' (or list, tuple or set of strings) "
                        f"in {path}", key=f"{registry.key}.variable",
                        hint="name the literal that maps keys to modules, or lists the names an import loop loads")
    result = MappingCut(registry, path)
    sequence = not isinstance(finder.dict_node, cst.Dict)
    read = [(element, _entry(registry, element, line, sequence, is_module, path))
            for element, line in zip(finder.dict_node.elements, _lines(source, registry.variable))]
    package = home([e.key for _, e in read]) if home and not sequence and all(e.module is None for _, e in read) \
        else None
    keep_ids = set()
    for element, entry in read:
        if package:  # COUNTRIES = {"albania": ("Albania", "AL")}: every key names a module of one package
            entry = MappingEntry(entry.key, f"{package}.{entry.key}", entry.names, entry.line, entry.constant)
        if registry.keeps(entry.key, entry.module):
            result.kept.append(entry)
            keep_ids.add(id(element))
        else:
            result.removed.append(entry)
    if not result.kept and registry.keep:  # keep = [] removes every entry on purpose
        raise SpecError(f"keep matches no key of {registry.module}.{registry.variable}", key=f"{registry.key}.keep",
                        hint="keys: " + ", ".join(e.key for e in result.removed[:12]) + " (keep = [] removes all)")
    if result.removed:
        new = module.visit(_Cut(finder.dict_node, keep_ids))
        result.new_source = new.code.encode(module.encoding) if isinstance(new.code, str) else new.code
    return result


def _entry(registry: MappingRegistry, element, line: int, sequence: bool, is_module, path: str) -> MappingEntry:
    names: tuple[str, ...]
    target: str | None
    constant = False
    if sequence and isinstance(element, cst.Element) and (key := _literal_string(element.value)) is not None:
        names = (key,)
        target = f"{registry.module}.{key}" if is_module(f"{registry.module}.{key}") else \
            key if is_module(key) else None
    elif not sequence and isinstance(element, cst.DictElement) \
            and (key := _literal_string(element.key) or _constant_name(element.key)) is not None:
        constant = _literal_string(element.key) is None
        names = tuple(_strings(element.value))
        target = next((m for n in names if (m := named_module(n, is_module))), None)
    elif sequence and isinstance(element, cst.Element) and (key := _record_key(element.value)) is not None:
        names = tuple(_strings(element.value))
        target = next((m for n in names if (m := named_module(n, is_module))), None)
    else:
        shape = "'string' or Record(name='key', ...)" if sequence else "'string': value or Kind.NAME: value"
        raise SpecError(f"{path}:{line}: {registry.variable} has an entry that is not {shape}",
                        key=f"{registry.key}.variable", hint="only literals of string keys can be cut")
    return MappingEntry(key, target, names, line, constant)


def named_module(text: str, is_module) -> str | None:
    """The module a string names: ``pkg.mod``, ``pkg.mod:Class`` or ``pkg.mod.Class`` (kombu's transport aliases
    spell both)."""
    module, colon, _ = text.partition(":")
    if is_module(module):
        return module
    head = module.rpartition(".")[0]
    return head if not colon and head and is_module(head) else None


class _Finder(cst.CSTVisitor):
    def __init__(self, variable: str):
        self.variable = variable
        self.dict_node: cst.Dict | cst.List | cst.Tuple | cst.Set | None = None

    def visit_Module(self, node: cst.Module) -> bool:
        for stmt in node.body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    value = None
                    if isinstance(small, cst.Assign) and any(
                            isinstance(t.target, cst.Name) and t.target.value == self.variable for t in small.targets):
                        value = small.value
                    elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) \
                            and small.target.value == self.variable:
                        value = small.value
                    if isinstance(value, (cst.Dict, cst.List, cst.Tuple, cst.Set)):
                        self.dict_node = value
        return False


class _Cut(cst.CSTTransformer):
    def __init__(self, target: cst.Dict | cst.List | cst.Tuple | cst.Set, keep_ids: set[int]):
        self.target, self.keep_ids = target, keep_ids

    def leave_Dict(self, original, updated):
        return self._cut(original, updated, "rbrace")

    def leave_Set(self, original, updated):
        return self._cut(original, updated, "rbrace")

    def leave_List(self, original, updated):
        return self._cut(original, updated, "rbracket")

    def leave_Tuple(self, original, updated):
        return self._cut(original, updated, "rpar")

    def _cut(self, original, updated, closing: str):
        if original is not self.target:
            return updated
        kept = [new for old, new in zip(original.elements, updated.elements) if id(old) in self.keep_ids]
        if not kept:
            return _empty(updated)
        last = updated.elements[-1] if updated.elements else None
        if not kept or last is None or kept[-1] is last:
            return updated.with_changes(elements=kept)
        # The removed last entry's comma style and the brace's indentation stay; the end-of-line comment before
        # the brace becomes the new last entry's own (the removed entry's comment goes with it).
        own = kept[-1].comma.whitespace_after if isinstance(kept[-1].comma, cst.Comma) else None
        kept[-1] = kept[-1].with_changes(comma=last.comma)
        if closing == "rpar" and not updated.rpar:
            return updated.with_changes(elements=kept)  # a tuple without parentheses
        rbrace = updated.rpar[-1] if closing == "rpar" else getattr(updated, closing)
        if isinstance(own, cst.ParenthesizedWhitespace) and \
                isinstance(rbrace.whitespace_before, cst.ParenthesizedWhitespace):
            rbrace = rbrace.with_changes(whitespace_before=rbrace.whitespace_before.with_changes(
                first_line=own.first_line))
        if closing == "rpar":
            return updated.with_changes(elements=kept, rpar=[*updated.rpar[:-1], rbrace])
        return updated.with_changes(elements=kept, **{closing: rbrace})


def _empty(node):
    """The literal with no entries, on one line (``()``, ``[]``, ``{}``; an empty set is ``set()``)."""
    if isinstance(node, cst.Set):
        return cst.Call(cst.Name("set"))
    if isinstance(node, cst.Tuple):
        return node.with_changes(elements=[], lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    opening, closing = ("lbrace", "rbrace") if isinstance(node, cst.Dict) else ("lbracket", "rbracket")
    return node.with_changes(elements=[], **{opening: type(getattr(node, opening))(),
                                             closing: type(getattr(node, closing))()})


def _literal_string(node: cst.BaseExpression) -> str | None:
    """The value of a plain string literal (not a bytes one)."""
    if isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str):
        return node.evaluated_value
    return None


def _constant_name(node: cst.BaseExpression) -> str | None:
    """A key that is a named constant, ``Provider.EC2`` (``DRIVERS = {Provider.EC2: ("pkg.drivers.ec2", "EC2")}``):
    the name as written, which ``keep`` matches as it matches a string key."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute) and (base := _constant_name(node.value)) is not None:
        return f"{base}.{node.attr.value}"
    return None


def _record_key(node: cst.BaseExpression) -> str | None:
    """The key of a record in a sequence registry: ``Family(name="qwen_vl", ...)`` (its ``name=``, else its first
    positional string)."""
    if not isinstance(node, cst.Call):
        return None
    named = [a.value for a in node.args if a.keyword is not None and a.keyword.value == "name"]
    first = [a.value for a in node.args if a.keyword is None][:1]
    for value in named or first:
        if isinstance(value, cst.SimpleString) and isinstance(value.evaluated_value, str):
            return value.evaluated_value
    return None


def _strings(node: cst.CSTNode) -> list[str]:
    out: list[str] = []

    class Strings(cst.CSTVisitor):
        def visit_SimpleString(self, s: cst.SimpleString) -> None:
            value = s.evaluated_value
            if isinstance(value, str):
                out.append(value)

    node.visit(Strings())
    return out


def _lines(source: bytes, variable: str) -> list[int]:
    """Line of each key of the dict (stdlib ast, for the report)."""
    for stmt in ast.parse(source).body:
        if not isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if any(isinstance(t, ast.Name) and t.id == variable for t in targets):
            if isinstance(stmt.value, ast.Dict):
                return [k.lineno if k is not None else stmt.lineno for k in stmt.value.keys]
            if isinstance(stmt.value, (ast.List, ast.Tuple, ast.Set)):
                return [e.lineno for e in stmt.value.elts]
    return []
