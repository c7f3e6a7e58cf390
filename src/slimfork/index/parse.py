"""Summarise one Python file with the standard ``ast`` (read-only, fast)."""

from __future__ import annotations

import ast
import hashlib
import io
import re
import tokenize
import warnings

from slimfork.index.scans import find_scans, literal_calls
from slimfork.index.summary import GUARDED_TRY, RUNTIME_PACKAGE, DynamicImport, ImportEdge, ModuleSummary

_DOTTED_STRING = re.compile(r"""(["'])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?::[A-Za-z_]\w*(?:\.\w+)*)?\1""")
_BLOCKS = (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith)


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def summarize(data: bytes, sha: str | None = None) -> ModuleSummary:
    sha = sha or content_hash(data)
    lines = count_lines(data)
    try:
        text = decode(data)
    except (UnicodeDecodeError, SyntaxError, LookupError) as exc:
        return ModuleSummary(sha, lines, error=f"cannot decode: {exc}")
    try:
        tree = parse_python(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        where = f" (line {exc.lineno})" if isinstance(exc, SyntaxError) and exc.lineno else ""
        return ModuleSummary(sha, lines, error=f"cannot parse{where}: {exc.__class__.__name__}: {exc}")
    summary = ModuleSummary(sha, lines)
    _Collector(summary, text.splitlines()).statements(tree.body, "module", (), False)
    if "import_module" in text or "__import__" in text or "iter_modules" in text or "walk_packages" in text:
        _scan_calls(tree, summary)
        summary.dir_scans = find_scans(tree, _unparse, listing=bool(summary.dynamic_imports))
    prose = _docstring_lines(tree)
    summary.strings = [(found, line) for found, line in _dotted_strings(text) if line not in prose]
    if summary.strings:
        summary.literal_calls = literal_calls(tree)
    return summary


def _docstring_lines(tree: ast.Module) -> set[int]:
    """The lines of docstrings without doctests: prose (an example in one imports nothing when the module runs)."""
    out: set[int] = set()
    todo: list[ast.AST] = [tree]
    while todo:  # statements only: a docstring is the first statement of a module, class or function
        node = todo.pop()
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body:
            first = body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str) and ">>>" not in first.value.value:
                out.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, field, None)
            if isinstance(children, list):
                todo.extend(child for child in children if isinstance(child, ast.AST))
    return out


def count_lines(data: bytes) -> int:
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def decode(data: bytes) -> str:
    """Decode as Python does: BOM, then a PEP 263 coding line, else UTF-8."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)
    return text[1:] if text.startswith("\ufeff") else text


class _Collector:
    def __init__(self, summary: ModuleSummary, lines: list[str]):
        self.s = summary
        self.lines = lines

    def test_text(self, node) -> str:
        """The condition as written on its first line (cheaper than ast.unparse, and what the user sees)."""
        line = self.lines[node.lineno - 1] if node.lineno <= len(self.lines) else ""
        if node.end_lineno == node.lineno:
            text = line[node.col_offset:node.end_col_offset]
        else:
            text = line[node.col_offset:].rstrip(" \\(") + " ..."
        return text if len(text) <= 120 else text[:117] + "..."

    def statements(self, body, scope: str, conds: tuple[str, ...], type_checking: bool) -> None:
        for node in body:
            self.statement(node, scope, conds, type_checking)

    def statement(self, node, scope, conds, tc) -> None:
        s = self.s
        if isinstance(node, ast.Import):
            for alias in node.names:
                s.imports.append(ImportEdge(alias.name, 0, (), node.lineno, "import", scope, _cond(conds), tc))
                if scope == "module":
                    self.bind(alias.asname or alias.name.split(".")[0], node.lineno)
        elif isinstance(node, ast.ImportFrom):
            names = tuple(a.name for a in node.names)
            s.imports.append(ImportEdge(node.module, node.level, names, node.lineno, "from", scope, _cond(conds), tc))
            if scope == "module":
                for alias in node.names:
                    if alias.name != "*":
                        self.bind(alias.asname or alias.name, node.lineno)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if scope == "module":
                self.bind(node.name, node.lineno)
                if node.name == "__getattr__":
                    s.module_getattr = True
            self.statements(node.body, "function", conds, tc)
        elif isinstance(node, ast.ClassDef):
            if scope == "module":
                self.bind(node.name, node.lineno)
            self.statements(node.body, "function" if scope == "function" else "class", conds, tc)
        elif isinstance(node, ast.If):
            test = self.test_text(node.test)
            is_tc = test in ("TYPE_CHECKING", "typing.TYPE_CHECKING", "False")  # `if False:` never runs either
            self.statements(node.body, scope, conds + (f"if {test}",), tc or is_tc)
            self.statements(node.orelse, scope, conds + (f"not ({test})",), tc)
        elif isinstance(node, (ast.Try, ast.TryStar)):
            guarded = any(_catches_import_error(h.type) for h in node.handlers)
            self.statements(node.body, scope, conds + (GUARDED_TRY if guarded else "try",), tc)
            for handler in node.handlers:
                kind = self.test_text(handler.type) if handler.type is not None else "any error"
                self.statements(handler.body, scope, conds + (f"except {kind}",), tc)
            self.statements(node.orelse, scope, conds + ("try else",), tc)
            self.statements(node.finalbody, scope, conds, tc)
        elif isinstance(node, _BLOCKS):
            if scope == "module":
                for target in _targets(node):
                    self.bind_target(target, node.lineno)
            self.statements(node.body, scope, conds, tc)
            self.statements(getattr(node, "orelse", []), scope, conds, tc)
        elif isinstance(node, ast.Match):
            for case in node.cases:
                self.statements(case.body, scope, conds + (f"case {self.test_text(case.pattern)}",), tc)
        elif scope == "module":
            self.module_assignment(node)

    def module_assignment(self, node) -> None:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                self.bind_target(target, node.lineno)
                if isinstance(target, ast.Name) and target.id == "__all__":
                    self.set_all(node.value, replace=True)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            self.bind_target(node.target, node.lineno)
            if isinstance(node.target, ast.Name) and node.target.id == "__all__":
                self.set_all(node.value, replace=isinstance(node, ast.AnnAssign))
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            func = node.value.func
            if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "__all__"
                    and func.attr in ("extend", "append", "remove")):
                if func.attr == "append" and node.value.args:
                    self.set_all(ast.List([node.value.args[0]]), replace=False)
                elif func.attr == "extend" and node.value.args:
                    self.set_all(node.value.args[0], replace=False)
                else:
                    self.s.all_dynamic = True

    def set_all(self, value, replace: bool) -> None:
        names = _literal_strings(value)
        if names is None:
            self.s.all_dynamic = True
            return
        if replace or self.s.all_names is None:
            self.s.all_names = list(names) if replace else (self.s.all_names or []) + list(names)
        else:
            self.s.all_names.extend(names)

    def bind(self, name: str, line: int) -> None:
        self.s.defs.setdefault(name, line)

    def bind_target(self, target, line: int) -> None:
        if isinstance(target, ast.Name):
            self.bind(target.id, line)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self.bind_target(elt, line)
        elif isinstance(target, ast.Starred):
            self.bind_target(target.value, line)


def _targets(node):
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return [node.target]
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return [item.optional_vars for item in node.items if item.optional_vars is not None]
    return []


def _literal_strings(value) -> list[str] | None:
    if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        out = []
        for elt in value.elts:
            if isinstance(elt, ast.Constant) and isinstance(elt.value, str):
                out.append(elt.value)
            else:
                return None
        return out
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        left, right = _literal_strings(value.left), _literal_strings(value.right)
        return None if left is None or right is None else left + right
    return None


def _cond(conds: tuple[str, ...]) -> str | None:
    return " / ".join(conds) if conds else None


def _unparse(node) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 120 else text[:117] + "..."


def _scan_calls(tree: ast.Module, summary: ModuleSummary) -> None:
    loops = _loop_values(tree)
    consts = module_constants(tree)
    local = _local_names(tree)
    assigned = _assigned_once(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        if name in ("import_module", "__import__") and node.args:
            visible = {k: v for k, v in consts.items() if k not in local.get(id(node), ())}
            call, arg = node, node.args[0]
            if isinstance(arg, ast.Name) and arg.id in assigned.get(id(node), {}):  # module_name = ".x_{}".format(p)
                call = ast.Call(node.func, [assigned[id(node)][arg.id], *node.args[1:]], node.keywords,
                                lineno=node.lineno, col_offset=node.col_offset)
            summary.dynamic_imports.extend(dynamic_imports(call, name, loops.get(id(node), {}), visible))


def _assigned_once(tree: ast.AST) -> dict[int, dict[str, ast.expr]]:
    """For each call inside a function: the function's local names bound exactly once, by a plain ``name = value``
    (no other store, no parameter of that name), with their value."""
    out: dict[int, dict[str, ast.expr]] = {}
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        args = func.args
        params = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
        params |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
        nodes = list(ast.walk(func))
        stores: dict[str, int] = {}
        for node in nodes:
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                stores[node.id] = stores.get(node.id, 0) + 1
        values = {n.targets[0].id: n.value for n in nodes if isinstance(n, ast.Assign) and len(n.targets) == 1
                  and isinstance(n.targets[0], ast.Name)}
        once = {k: v for k, v in values.items() if stores.get(k) == 1 and k not in params}
        for node in nodes:
            if isinstance(node, ast.Call):
                out[id(node)] = once  # an inner function (walked later) replaces it with its own
    return out


def _local_names(tree: ast.AST) -> dict[int, set[str]]:
    """For each call inside a function: the names the enclosing functions bind (parameters, assignments), which
    hide module-level constants of the same name."""
    out: dict[int, set[str]] = {}
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        args = func.args
        names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
        names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
        nodes = list(ast.walk(func))
        names |= {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        for node in nodes:
            if isinstance(node, ast.Call):
                out.setdefault(id(node), set()).update(names)
    return out


def _loop_values(tree: ast.Module) -> dict[int, dict[str, list[str]]]:
    """For calls inside ``for VAR in SEQ`` where SEQ is a literal sequence of strings or a module-level name
    bound once to one (``_GROUPS = ("activation", ...)``): call id -> {VAR: the strings}."""
    sequences: dict[str, list[str] | None] = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    found = _literal_strings(stmt.value) if stmt.value is not None else None
                    sequences[target.id] = found if target.id not in sequences else None  # bound twice: unknown
    out: dict[int, dict[str, list[str]]] = {}
    for loop in ast.walk(tree):
        body: list[ast.AST]
        if isinstance(loop, ast.For):
            pairs, body = [(loop.target, loop.iter)], list(loop.body)
        elif isinstance(loop, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            pairs = [(g.target, g.iter) for g in loop.generators]
            body = [loop.elt] if not isinstance(loop, ast.DictComp) else [loop.key, loop.value]
        else:
            continue
        for target, iterable in pairs:
            if not isinstance(target, ast.Name):
                continue
            values = _literal_strings(iterable)
            if values is None and isinstance(iterable, ast.Name):
                values = sequences.get(iterable.id)
            if not values:
                continue
            for part in body:
                for sub in ast.walk(part):
                    if isinstance(sub, ast.Call):
                        out.setdefault(id(sub), {})[target.id] = values
    return out


def _expand_fstring(arg, variables: dict[str, list[str]]) -> list[str] | None:
    """The module names an f-string import names: ``f"{__name__}.{group}"`` inside a loop over literal strings
    gives one target per string (``{__name__}`` and ``{__package__}`` stay as placeholders the graph fills in).
    None when any other part is computed at run time."""
    if not isinstance(arg, ast.JoinedStr):
        return None
    out = [""]
    for part in arg.values:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            out = [o + part.value for o in out]
        elif isinstance(part, ast.FormattedValue) and part.conversion == -1 and part.format_spec is None \
                and isinstance(part.value, ast.Name):
            name = part.value.id
            if name in ("__name__", "__package__"):
                out = [o + "{" + name + "}" for o in out]
            elif name in variables:
                out = [o + v for o in out for v in variables[name]]
            else:
                return None
        else:
            return None
    return out


def module_constants(tree: ast.Module) -> dict[str, list[str]]:
    """Module-level names bound once to literal strings: a string, a tuple/list/set of them, or a dict whose values
    are all strings (``_LAZY = {"heavy": ".heavy"}``): name -> the strings."""
    found: dict[str, list[str] | None] = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                if isinstance(target, ast.Name):
                    found[target.id] = _strings_of(stmt.value) if target.id not in found else None
    return {k: v for k, v in found.items() if v}


def _strings_of(value) -> list[str] | None:
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return [value.value]
    if isinstance(value, ast.Dict):
        return _literal_strings(ast.List(list(value.values)))
    return _literal_strings(value)


def dynamic_imports(call: ast.Call, name: str, variables: dict[str, list[str]],
                    consts: dict[str, list[str]]) -> list[DynamicImport]:
    """The modules an ``import_module``/``__import__`` call may name: one entry per literal candidate (a string, an
    f-string over a loop of literals, a name or subscript of a module-level literal), else one prefix entry."""
    arg, text = call.args[0], _unparse(call)
    package, dots = _package_of(call, name)
    candidates = _expand_fstring(arg, variables)
    if candidates is None:
        candidates = _candidate_strings(arg, variables, consts)
    if candidates is not None:
        return [DynamicImport(call.lineno, text, dots + target, False, package) for target in candidates]
    prefix = _string_prefix(arg)
    return [DynamicImport(call.lineno, text, (dots + prefix) or None, True, package)]


def _package_of(call: ast.Call, name: str) -> tuple[str | None, str]:
    """(the package a relative name resolves against, the dots ``__import__``'s level adds)."""
    if name == "__import__":
        level = call.args[4] if len(call.args) > 4 else next((k.value for k in call.keywords if k.arg == "level"), None)
        if isinstance(level, ast.Constant) and isinstance(level.value, int) and level.value > 0:
            return "{__package__}", "." * level.value
        return (None, "") if level is None or isinstance(level, ast.Constant) else (RUNTIME_PACKAGE, ".")
    node = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "package"), None)
    if node is None or isinstance(node, ast.Constant) and node.value is None:
        return None, ""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, ""
    if isinstance(node, ast.Name) and node.id in ("__name__", "__package__"):
        return "{" + node.id + "}", ""
    return RUNTIME_PACKAGE, ""


def _candidate_strings(arg, variables: dict[str, list[str]], consts: dict[str, list[str]]) -> list[str] | None:
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return [arg.value]
    if isinstance(arg, ast.Name):
        return variables.get(arg.id) or consts.get(arg.id)
    if isinstance(arg, ast.Subscript) and isinstance(arg.value, ast.Name):  # _LAZY[name]
        return consts.get(arg.value.id)
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "get" \
            and isinstance(arg.func.value, ast.Name) and len(arg.args) == 1:  # _LAZY.get(name)
        return consts.get(arg.func.value.id)
    return None


def _string_prefix(node) -> str:
    """The constant start of an f-string or a string concatenation ('' when there is none)."""
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        return str(node.values[0].value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        if isinstance(node.left, ast.Constant) and isinstance(node.left.value, str):
            return node.left.value
        return _string_prefix(node.left)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) \
            and isinstance(node.left.value, str):  # ".x_%s" % name
        return node.left.value.split("%", 1)[0]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format" \
            and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str):
        return node.func.value.value.split("{", 1)[0]  # ".x_{}".format(name)
    return ""


def _dotted_strings(text: str) -> list[tuple[str, int]]:
    out = []
    line, pos = 1, 0
    for match in _DOTTED_STRING.finditer(text):
        line += text.count("\n", pos, match.start())
        pos = match.start()
        out.append((match.group(2), line))
    return out


_IMPORT_ERROR_BASES = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


def _catches_import_error(handler_type) -> bool:
    """Does ``except <handler_type>:`` catch a failed import? (A bare ``except:`` does.)"""
    if handler_type is None:
        return True
    types = handler_type.elts if isinstance(handler_type, ast.Tuple) else [handler_type]
    return any(isinstance(t, (ast.Name, ast.Attribute)) and (t.id if isinstance(t, ast.Name) else t.attr)
               in _IMPORT_ERROR_BASES for t in types)


def parse_python(source: str | bytes, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse`` without the SyntaxWarnings that old code raises (invalid escapes, ``is`` with a literal): the one
    parse of Python source every stage uses."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source, filename)
