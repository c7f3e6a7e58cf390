"""Platform facts a project's code tests: `sys.platform`, `os.name`, `platform.system()`, and the project's own
module-level flags (`WINDOWS = os.name == "nt"`) and predicates (`def is_windows(): return ...`) derived from them,
each with its use count and its value on Linux (what `[facts]` would fold)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from slimfork.index.relative import absolute_module, package_of
from slimfork.init.project import Project

# the spec key, the spelling in code, the value on Linux
SOURCES = (("sys_platform", "sys.platform", "linux"), ("os_name", "os.name", "posix"),
           ("platform_system", "platform.system()", "Linux"))
LINUX = {text: value for _key, text, value in SOURCES}
UNKNOWN = object()


@dataclass
class Found:
    kind: str  # "source" (a [facts] key), "flag" (module-level name) or "predicate" (function)
    name: str  # the facts key or the qualified name
    value: object  # on Linux
    definition: str = ""  # "pkg/mod.py:3: WIN = sys.platform.startswith('win')"
    uses: list[str] = field(default_factory=list)  # "file:line"


def find_platform_facts(project: Project) -> list[Found]:
    trees = {m: t for m, p in project.internal_modules().items() if (t := project.parse(p)) is not None}
    modules = {m: p for m, p in project.internal_modules().items() if m in trees}
    imports = {m: _imported_names(project, m, trees[m]) for m in modules}
    found: dict[str, Found] = {key: Found("source", key, value, text) for key, text, value in SOURCES}
    known: dict[str, object] = {}  # qualified flag or predicate -> value on Linux
    candidates = {m: list(_candidates(trees[m])) for m in modules}
    changed = True
    while changed:  # flags derived from flags, in any order across modules
        changed = False
        for module, items in candidates.items():
            for kind, name, node, expr in items:
                qual = f"{module}.{name}"
                if qual in known:
                    continue
                scope = _Scope(module, imports[module], known)
                if isinstance(_eval(expr, scope), bool) and _mentions_platform(expr, scope):
                    known[qual] = _eval(expr, scope)
                    text = ast.unparse(node if kind == "flag" else expr).splitlines()[0][:80]
                    found[qual] = Found(kind, qual, known[qual], f"{modules[module]}:{node.lineno}: "
                                        + (text if kind == "flag" else f"def {name}(): return {text}"))
                    changed = True
    for module, rel in modules.items():
        _count_uses(trees[module], rel, _Scope(module, imports[module], known), found)
    for f in found.values():
        f.uses.sort(key=lambda use: (use.rsplit(":", 1)[0], int(use.rsplit(":", 1)[1])))
    return [f for f in found.values() if f.uses]


def _candidates(tree: ast.Module):
    """Module-level names bound once by a plain assignment, and functions with no parameters that only return."""
    counts: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                for n in ast.walk(target):
                    if isinstance(n, ast.Name):
                        counts[n.id] = counts.get(n.id, 0) + 1
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and counts.get(node.targets[0].id) == 1:
            yield "flag", node.targets[0].id, node, node.value
        elif isinstance(node, ast.ClassDef):  # class-level flags: `class DataSource: is_windows = ...`
            for item in node.body:
                if isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name) \
                        and counts.get(item.targets[0].id) == 1:
                    yield "flag", f"{node.name}.{item.targets[0].id}", item, item.value
        elif isinstance(node, ast.FunctionDef) and not _has_params(node.args):
            body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
            if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
                yield "predicate", node.name, node, body[0].value


def _has_params(args: ast.arguments) -> bool:
    return bool(args.posonlyargs or args.args or args.vararg or args.kwonlyargs or args.kwarg)


def _imported_names(project: Project, module: str, tree: ast.Module) -> dict[str, str]:
    """Local name -> qualified name, for `from X import a as b`, `import X as y` and `import X` anywhere in the module."""
    out: dict[str, str] = {}
    is_package = project.mm.modules[module].is_package
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = absolute_module(package_of(module, is_package), node.level, node.module) or ""
            for alias in node.names:
                out[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:  # `import a.b` binds `a`
                out[alias.asname or alias.name.partition(".")[0]] = alias.name if alias.asname else \
                    alias.name.partition(".")[0]
    return out


@dataclass
class _Scope:
    module: str
    imports: dict[str, str]
    known: dict[str, object]

    def qualify(self, node: ast.AST) -> str | None:
        if isinstance(node, ast.Name):
            return self.imports.get(node.id, f"{self.module}.{node.id}")
        if isinstance(node, ast.Attribute):
            base = self.qualify(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def lookup(self, node: ast.AST) -> object:
        qual = self.qualify(node)
        return self.known.get(qual, UNKNOWN) if qual else UNKNOWN


def _source_text(node: ast.AST) -> str | None:
    """'sys.platform', 'os.name' or 'platform.system()' when ``node`` spells one of them."""
    if isinstance(node, ast.Call) and not node.args and not node.keywords:
        inner = _source_text(node.func)
        return inner + "()" if inner == "platform.system" else None
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        text = f"{node.value.id}.{node.attr}"
        return text if text in ("sys.platform", "os.name", "platform.system") else None
    return None


def _mentions_platform(expr: ast.AST, scope: _Scope) -> bool:
    for node in ast.walk(expr):
        if (text := _source_text(node)) and text in LINUX:
            return True
        if isinstance(node, (ast.Name, ast.Attribute)) and scope.qualify(node) in scope.known:
            return True
    return False


_COMPARE = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.In: lambda a, b: a in b,
            ast.NotIn: lambda a, b: a not in b}


def _eval(node: ast.AST, scope: _Scope) -> object:
    """The value on Linux, or UNKNOWN: literals, the three sources, known flags and predicates, comparisons,
    `not`/`and`/`or`, and str.startswith/endswith/lower/upper."""
    text = _source_text(node)
    if text in LINUX:
        return LINUX[text]
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        items = [_eval(e, scope) for e in node.elts]
        return UNKNOWN if any(i is UNKNOWN for i in items) else tuple(items)
    if isinstance(node, (ast.Name, ast.Attribute)):
        return scope.lookup(node)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        value = _eval(node.operand, scope)
        return UNKNOWN if value is UNKNOWN else not value
    if isinstance(node, ast.BoolOp):
        values = [_eval(v, scope) for v in node.values]
        stop = isinstance(node.op, ast.Or)  # or: the first true decides; and: the first false
        for value in values:
            if value is UNKNOWN:
                return UNKNOWN
            if bool(value) == stop:
                return value
        return values[-1]
    if isinstance(node, ast.Compare) and all(type(op) in _COMPARE for op in node.ops):
        left = _eval(node.left, scope)
        for op, right_node in zip(node.ops, node.comparators):
            right = _eval(right_node, scope)
            if left is UNKNOWN or right is UNKNOWN:
                return UNKNOWN
            try:
                if not _COMPARE[type(op)](left, right):
                    return False
            except TypeError:
                return UNKNOWN
            left = right
        return True
    if isinstance(node, ast.Call) and not node.keywords:
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("startswith", "endswith", "lower", "upper"):
            base = _eval(node.func.value, scope)
            args = [_eval(a, scope) for a in node.args]
            if isinstance(base, str) and all(isinstance(a, (str, tuple)) for a in args):
                return getattr(base, node.func.attr)(*args)
        elif not node.args:
            return scope.lookup(node.func)
    return UNKNOWN


def _count_uses(tree: ast.Module, rel: str, scope: _Scope, found: dict[str, Found]) -> None:
    sources = {text: key for key, text, _v in SOURCES}
    for node in ast.walk(tree):
        text = _source_text(node)
        if text in sources and isinstance(node, ast.expr) \
                and not (isinstance(node, ast.Attribute) and text == "platform.system"):  # (text: an expr's)
            found[sources[text]].uses.append(f"{rel}:{node.lineno}")
            continue
        if isinstance(node, ast.Call) and not node.args and not node.keywords:
            qual = scope.qualify(node.func)
            if qual in found and found[qual].kind == "predicate":
                found[qual].uses.append(f"{rel}:{node.lineno}")
        elif isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Load):
            qual = scope.qualify(node)
            if qual in found and found[qual].kind == "flag":
                found[qual].uses.append(f"{rel}:{node.lineno}")
