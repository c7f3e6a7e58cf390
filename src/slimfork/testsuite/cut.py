"""Remove test functions, classes and methods from a test file with LibCST (everything else byte for byte)."""

from __future__ import annotations

import libcst as cst


def cut_units(source: bytes, qualnames: set[str]) -> bytes:
    """``qualnames``: "test_x", "TestA" or "TestA.test_y", "import NAME" (the module-level import of NAME),
    "table NAME[I]" (entry I of the module-level tuple, list or dict NAME) or "table NAME@K" (the K-th module-level
    ``NAME[key] = value``), "assign NAME" (a module-level ``NAME = value``). A class left without tests goes too; a class body left empty gets ``pass``. The result
    is checked to parse."""
    module = cst.parse_module(source)
    new = module.visit(_Cut(qualnames))
    out = new.code.encode(module.encoding)
    compile(out, "<cut>", "exec")  # never hand back a file that does not parse
    return out


class _Cut(cst.CSTTransformer):
    def __init__(self, qualnames: set[str]):
        self.qualnames = qualnames
        self.depth = 0
        self.cls: str | None = None
        self.params: dict[str, set[tuple[str, str]]] = {}  # "param test_x mod=a": test_x -> {("mod", "a")}
        self.tables: dict[str, set[int]] = {}  # "table ALGS[3]": ALGS -> {3}
        self.stores: dict[str, set[int]] = {}  # "table ALGS@1": ALGS -> {1}
        for q in qualnames:
            if q.startswith("table ") and "@" in q:
                name, _, index = q[len("table "):].partition("@")
                self.stores.setdefault(name, set()).add(int(index))
            elif q.startswith("table "):
                name, _, index = q[len("table "):].rstrip("]").partition("[")
                self.tables.setdefault(name, set()).add(int(index))
            if q.startswith("param "):
                _, qualname, rest = q.split(" ", 2)
                name, _, value = rest.partition("=")
                self.params.setdefault(qualname, set()).add((name, value))

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.depth += 1
        if self.depth == 1:
            self.cls = node.name.value
        return self.depth == 1

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.depth += 1
        return False

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef):
        self.depth -= 1
        qualname = f"{self.cls}.{original.name.value}" if self.depth == 1 and self.cls else original.name.value
        if self.depth <= 1 and qualname in self.params:
            decorators = [_without_values(d, self.params[qualname]) for d in updated.decorators]
            return updated.with_changes(decorators=decorators)
        return updated

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef):
        self.depth -= 1
        if self.depth or original.name.value in self.qualnames:
            return updated
        prefix = original.name.value + "."
        body = updated.body
        if not isinstance(body, cst.IndentedBlock) or not any(q.startswith(prefix) for q in self.qualnames):
            return updated
        before = [s for s in body.body if _is_test(s)]
        kept = [s for s in body.body if not (isinstance(s, (cst.FunctionDef, cst.ClassDef))
                                             and prefix + s.name.value in self.qualnames)]
        if before and not any(_is_test(s) for s in kept):
            return cst.RemoveFromParent()
        if not kept:
            kept = [cst.SimpleStatementLine([cst.Pass()])]
        return updated.with_changes(body=body.with_changes(body=kept))

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        body = [s for s in updated.body if not (isinstance(s, (cst.FunctionDef, cst.ClassDef))
                                                and s.name.value in self.qualnames or _tags(s, self.qualnames))]
        if self.tables:
            body = [_without_entries(stmt, self.tables) for stmt in body]
        if self.stores:
            body = _without_stores(body, self.stores)
        assigned = {q[len("assign "):] for q in self.qualnames if q.startswith("assign ")}
        if assigned:  # "assign NAME": a module-level `NAME = value` (each of its targets named)
            body = [s for s in body if not (isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1
                                            and isinstance(s.body[0], cst.Assign) and all(
                                                isinstance(t.target, cst.Name) and t.target.value in assigned
                                                for t in s.body[0].targets))]
        names = {q[len("import "):] for q in self.qualnames if q.startswith("import ")}
        if names:
            body = [s for s in (_without(stmt, names) for stmt in body) if s is not None]
        return updated.with_changes(body=body)


def _without(stmt, names: set[str]):
    """A module-level import statement without the aliases binding ``names`` (None when it binds nothing else)."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
            and isinstance(stmt.body[0], (cst.Import, cst.ImportFrom))):
        return stmt
    if isinstance(stmt.body[0].names, cst.ImportStar):  # from test_mark import *: "import test_mark" names it
        star = stmt.body[0]
        assert isinstance(star, cst.ImportFrom)  # only a from-import has a star
        module = cst.Module([]).code_for_node(star.module) if star.module is not None and not star.relative else None
        return None if module in names else stmt
    if not isinstance(stmt.body[0].names, (list, tuple)):
        return stmt
    imp = stmt.body[0]
    aliases = imp.names
    assert not isinstance(aliases, cst.ImportStar)  # checked above: a list or tuple

    def bound(alias: cst.ImportAlias) -> str:
        if alias.asname is not None:
            assert isinstance(alias.asname.name, cst.Name)  # an import's `as` binds a name
            return alias.asname.name.value
        name = cst.Module([]).code_for_node(alias.name)
        return name if isinstance(imp, cst.ImportFrom) else name.split(".")[0]
    def dotted(alias: cst.ImportAlias) -> str:  # "import pkg.gone" names `import pkg.gone`, not `import pkg.kept`
        name = cst.Module([]).code_for_node(alias.name)
        if isinstance(imp, cst.ImportFrom):
            module = cst.Module([]).code_for_node(imp.module) if imp.module is not None and not imp.relative else ""
            return f"{module}.{name}" if module else name
        return name
    kept = [a for a in aliases if bound(a) not in names and (a.asname is not None or dotted(a) not in names)]
    if len(kept) == len(aliases):
        return stmt
    if not kept:
        return None
    if kept[-1] is not aliases[-1]:  # the removed last alias's comma (and line break) ends the list now
        kept[-1] = kept[-1].with_changes(comma=aliases[-1].comma)
    # parentheses stay: "from m import (\n    A,\n)" parses, and without them A's trailing comma would not
    return stmt.with_changes(body=[imp.with_changes(names=kept)])


def _without_stores(body: list, stores: dict[str, set[int]]) -> list:
    """The module body without the K-th ``NAME[key] = value`` statements ``stores`` names for NAME."""
    seen: dict[str, int] = {}
    out = []
    for stmt in body:
        if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign) \
                and len(stmt.body[0].targets) == 1 and isinstance(target := stmt.body[0].targets[0].target,
                                                                  cst.Subscript) \
                and isinstance(target.value, cst.Name) and target.value.value in stores:
            name = target.value.value
            seen[name] = seen.get(name, -1) + 1
            if seen[name] in stores[name]:
                continue
        out.append(stmt)
    return out


def _without_entries(stmt, tables: dict[str, set[int]]):
    """``ALGS = (a, b, c)`` (or a dict) without the entries at the indices ``tables`` names for ALGS."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)
            and len(stmt.body[0].targets) == 1 and isinstance(stmt.body[0].targets[0].target, cst.Name)
            and stmt.body[0].targets[0].target.value in tables
            and isinstance(stmt.body[0].value, (cst.Tuple, cst.List, cst.Dict))):
        return stmt
    assign = stmt.body[0]
    values = assign.value
    assert isinstance(values, (cst.Tuple, cst.List, cst.Dict))  # checked above
    gone = tables[assign.targets[0].target.value]  # type: ignore[attr-defined]  # a Name, checked above
    kept = [e for i, e in enumerate(values.elements) if i not in gone]
    if kept and kept[-1] is not values.elements[-1]:  # the last element's comma (or none) ends the list now
        kept[-1] = kept[-1].with_changes(comma=values.elements[-1].comma)
    if isinstance(values, cst.Tuple) and len(kept) == 1 and isinstance(kept[0].comma, cst.MaybeSentinel):
        kept[0] = kept[0].with_changes(comma=cst.Comma())  # (a,) stays a tuple
    if isinstance(values, cst.Tuple) and not values.lpar:  # a, b -> (a,) or ()
        values = values.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return stmt.with_changes(body=[assign.with_changes(value=values.with_changes(elements=kept))])


def _without_values(deco: cst.Decorator, gone: set[tuple[str, str]]) -> cst.Decorator:
    """``@pytest.mark.parametrize("mod", ["a", "b"])`` without the literals ``gone`` names (("mod", "a"))."""
    call = deco.decorator
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "parametrize"
            and len(call.args) >= 2 and isinstance(call.args[0].value, cst.SimpleString)
            and isinstance(call.args[1].value, (cst.List, cst.Tuple))):
        return deco
    name = str(call.args[0].value.evaluated_value).strip()
    values = call.args[1].value
    kept = [e for e in values.elements if not (isinstance(e.value, cst.SimpleString)
                                               and (name, e.value.evaluated_value) in gone)]
    if len(kept) == len(values.elements) or not kept:
        return deco  # nothing named, or nothing left (decide takes the whole test then)
    if kept[-1] is not values.elements[-1]:  # the last element's comma (or none) ends the list now
        kept[-1] = kept[-1].with_changes(comma=values.elements[-1].comma)
    if isinstance(values, cst.Tuple) and len(kept) == 1 and isinstance(kept[0].comma, cst.MaybeSentinel):
        kept[0] = kept[0].with_changes(comma=cst.Comma())  # ("a",) stays a tuple
    args = list(call.args)
    args[1] = args[1].with_changes(value=values.with_changes(elements=kept))
    return deco.with_changes(decorator=call.with_changes(args=args))


def _tags(stmt, qualnames: set[str]) -> bool:
    """``test_x.unittest = [...]`` at module level, ``test_x`` removed: it goes with the test it tags."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)):
        return False
    targets = [t.target for t in stmt.body[0].targets]
    return all(isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) for t in targets) \
        and len({t.value.value for t in targets}) == 1 and targets[0].value.value in qualnames  # type: ignore


def _is_test(stmt) -> bool:
    return isinstance(stmt, cst.FunctionDef) and stmt.name.value.startswith("test")
