"""The native sources a ``setup.py`` names in the code that still runs once the platform facts are folded.

Conditions (``if WINDOWS:``, ``sys.platform.startswith("linux")``, ``x if MACOS else y``) are evaluated with the
facts' three-valued evaluator; the project's own flags are the module-level constants of ``setup.py`` and of the
project modules it imports them from (``from _common import LINUX`` after a ``sys.path`` insert). Strings,
``os.path.join`` pieces, f-strings and ``+`` concatenations become glob patterns (a computed piece is ``*``);
those in a branch the facts rule out are *dead*, the others *live*. A directory listing with a computed
argument makes the builder unknown (unknown means keep).
"""

from __future__ import annotations

import posixpath
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from slimfork.facts.evaluate import Evaluator, FactTable
from slimfork.facts.literals import dotted_name, literal_value
from slimfork.facts.model import UNKNOWN, Truth

_JOINS = {"os.path.join", "posixpath.join", "path.join", "join"}
_LISTINGS = {"glob.glob": False, "glob.iglob": False, "glob": False, "os.listdir": True, "os.scandir": True,
             "os.walk": True, "listdir": True}


@dataclass
class BuilderRefs:
    """What one builder (setup.py or CMakeLists.txt) names; patterns are relative to its folder."""

    path: str
    live: list[tuple[str, str]] = field(default_factory=list)  # (pattern, where)
    dead: list[tuple[str, str]] = field(default_factory=list)  # (pattern, "the branch `if X:` of setup.py:12")
    unknown: list[str] = field(default_factory=list)  # why every native file below the builder stays
    conditions_left: int = 0  # platform conditions the facts do not decide
    conditions_folded: int = 0
    imports: list[tuple[str, str]] = field(default_factory=list)  # (project file, name) setup.py imports
    flag_modules: dict[str, str] = field(default_factory=dict)  # project file -> the module name setup.py imports


class _Scope:
    def __init__(self, names: dict[str, str]):
        self.names = names
        self.shadowed: list[set[str]] = []  # names functions being visited bind locally

    def resolve(self, dotted: str) -> str | None:
        head, _, rest = dotted.partition(".")
        if any(head in names for names in self.shadowed):
            return None
        found = self.names.get(head)
        return None if found is None else f"{found}.{rest}" if rest else found


def _bindings(module: cst.Module, own: str) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """Local name -> qualified name (imports, and the module's own assignments as ``own.NAME``), and the
    ``(module, name)`` pairs imported with ``from``."""
    names: dict[str, str] = {}
    imported: list[tuple[str, str]] = []
    for node in _walk(module):
        if isinstance(node, cst.Import):
            for alias in node.names:
                full = dotted_name(alias.name) or ""
                local = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) \
                    else full.split(".")[0]
                names[local] = full if alias.asname else local
        elif isinstance(node, cst.ImportFrom) and not node.relative and node.module is not None \
                and not isinstance(node.names, cst.ImportStar):
            source = dotted_name(node.module) or ""
            for alias in node.names:
                name = dotted_name(alias.name) or ""
                local = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else name
                names[local] = f"{source}.{name}"
                imported.append((source, name))
    for name in _assigned_once(module):
        names.setdefault(name, f"{own}.{name}")
    return names, imported


def _walk(module: cst.Module):
    """Statements at module level, inside if/try/with blocks too (not in functions or classes)."""
    stack = list(module.body)
    while stack:
        stmt = stack.pop(0)
        if isinstance(stmt, cst.SimpleStatementLine):
            yield from stmt.body
        elif isinstance(stmt, (cst.If, cst.Try, cst.With, cst.Else, cst.Finally, cst.ExceptHandler)):
            stack[:0] = list(stmt.body.body) + [x for x in (getattr(stmt, "orelse", None),
                                                            getattr(stmt, "finalbody", None)) if x is not None] \
                + list(getattr(stmt, "handlers", ()))


def _assigned_once(module: cst.Module) -> set[str]:
    counts: Counter = Counter()
    for node in _walk(module):
        if isinstance(node, cst.Assign):
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    counts[target.target.value] += 1
                else:
                    counts.update(n.value for n in _names_in(target.target))
        elif isinstance(node, (cst.AnnAssign, cst.AugAssign)) and isinstance(node.target, cst.Name):
            counts[node.target.value] += 2 if isinstance(node, cst.AugAssign) else 1
    return {n for n, c in counts.items() if c == 1}


def _names_in(node):
    return [n for n in _iter(node) if isinstance(n, cst.Name)]


def _iter(node):
    yield node
    for child in node.children:
        yield from _iter(child)


def _learn_constants(module: cst.Module, own: str, table: FactTable, scope: _Scope) -> None:
    """Record the known values of the module's constants assigned once (in order, so flags built on flags work)."""
    once = _assigned_once(module)
    for node in _walk(module):
        value = node.value if isinstance(node, (cst.Assign, cst.AnnAssign)) else None
        targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else \
            [node.target] if isinstance(node, cst.AnnAssign) else []
        if value is None or len(targets) != 1 or not isinstance(targets[0], cst.Name) \
                or targets[0].value not in once:
            continue
        found = Evaluator(table, scope).value(value)
        if found is not UNKNOWN:
            table.values[f"{own}.{targets[0].value}"] = found


def _project_module(root: Path, here: str, dotted: str, files: list[str]) -> str | None:
    """The tree file of a module setup.py imports (beside it, or found by its path anywhere: a sys.path insert)."""
    tail = dotted.replace(".", "/")
    for rel in (posixpath.join(here, tail + ".py"), posixpath.join(here, tail, "__init__.py")):
        if (root / rel).is_file():
            return posixpath.normpath(rel)
    matches = [f for f in files if f == tail + ".py" or f.endswith("/" + tail + ".py")]
    return matches[0] if len(matches) == 1 else None


def read_setup_py(root: Path, rel: str, table: FactTable, python_files: list[str]) -> BuilderRefs:
    refs = BuilderRefs(rel)
    try:
        module = cst.parse_module((Path(root) / rel).read_bytes())
    except (cst.ParserSyntaxError, ValueError, UnicodeDecodeError) as exc:
        refs.unknown.append(f"{rel} does not parse ({exc.__class__.__name__})")
        return refs
    own = "<setup>"
    names, imported = _bindings(module, own)
    here = posixpath.dirname(rel)
    for source in sorted({s for s, _ in imported}):  # the project's flags: constants of the modules it imports
        path = _project_module(root, here, source, python_files)
        if path is None or path == rel:
            continue
        refs.imports += [(path, name) for s, name in imported if s == source]
        refs.flag_modules[path] = source
        try:
            other = cst.parse_module((Path(root) / path).read_bytes())
        except Exception:  # noqa: BLE001 - an unreadable module only leaves its flags unknown
            continue
        other_names, _ = _bindings(other, source)
        _learn_constants(other, source, table, _Scope(other_names))
    scope = _Scope(names)
    _learn_constants(module, own, table, scope)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    wrapper.visit(_Collector(Evaluator(table, scope), refs, rel, scope))
    return refs


class _Collector(cst.CSTVisitor):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, evaluator: Evaluator, refs: BuilderRefs, rel: str, scope: _Scope):
        self.ev, self.refs, self.rel = evaluator, refs, rel
        self.scope = scope  # the evaluator's: functions' local names shadow module flags
        self.dead: list[str | None] = [None]
        self.elifs: set[int] = set()  # ids of the If nodes written `elif`

    def _line(self, node) -> int:
        return self.get_metadata(PositionProvider, node).start.line

    def _code(self, node) -> str:
        text = cst.Module([]).code_for_node(node).strip().splitlines()[0]
        return text if len(text) <= 60 else text[:57] + "..."

    def _branches(self, node, live, dead, header: str) -> None:
        """Visit ``live`` and ``dead`` (either may be None) under the current state; ``dead`` gets a reason."""
        if live is not None:
            live.visit(self)
        if dead is not None:
            self.dead.append(self.dead[-1] or f"the {header} of {self.rel}:{self._line(node)}")
            dead.visit(self)
            self.dead.pop()

    def _truth(self, test) -> Truth:
        if self.dead[-1] is not None:
            return Truth.UNKNOWN
        truth = self.ev.truth(test)
        if truth is Truth.UNKNOWN:
            self.refs.conditions_left += 1 if self._mentions_fact(test) else 0
        else:
            self.refs.conditions_folded += 1
        return truth

    def _mentions_fact(self, test) -> bool:
        """A condition the facts reach only in part: some name or call in it has a known value."""
        return any(isinstance(n, (cst.Name, cst.Attribute, cst.Call)) and literal_value(n) is UNKNOWN
                   and self.ev.value(n) is not UNKNOWN for n in _iter(test))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        """A parameter or local of the same name hides a module flag: unknown inside the function."""
        local = {p.name.value for p in (*node.params.params, *node.params.posonly_params, *node.params.kwonly_params)}
        local |= {n.value for t in _iter(node.body) if isinstance(t, (cst.AssignTarget, cst.AnnAssign, cst.For))
                  for n in _names_in(getattr(t, "target"))}
        self.scope.shadowed.append(local)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.scope.shadowed.pop()

    def visit_If(self, node: cst.If) -> bool:
        node.test.visit(self)
        truth = self._truth(node.test)
        cond = f"{'elif' if id(node) in self.elifs else 'if'} {self._code(node.test)}"
        if isinstance(node.orelse, cst.If):
            self.elifs.add(id(node.orelse))
        if truth is Truth.TRUE:
            self._branches(node, node.body, node.orelse, f"else branch of `{cond}:`")
        elif truth is Truth.FALSE:
            self._branches(node, node.orelse, node.body, f"branch `{cond}:`")
        else:
            self._branches(node, node.body, None, "")
            if node.orelse is not None:
                node.orelse.visit(self)
        return False

    def visit_IfExp(self, node: cst.IfExp) -> bool:
        node.test.visit(self)
        truth = self._truth(node.test)
        cond = self._code(node.test)
        if truth is Truth.TRUE:
            self._branches(node, node.body, node.orelse, f"else arm of `... if {cond} else ...`")
        elif truth is Truth.FALSE:
            self._branches(node, node.orelse, node.body, f"arm `... if {cond}`")
        else:
            node.body.visit(self)
            node.orelse.visit(self)
        return False

    def _add(self, pattern: str | None, node) -> None:
        if not pattern or not pattern.strip("*/."):
            return
        where = f"{self.rel}:{self._line(node)}"
        (self.refs.dead if self.dead[-1] else self.refs.live).append(
            (pattern, self.dead[-1] or where))

    def visit_SimpleString(self, node) -> bool:
        self._add(_pattern(node), node)
        return False

    def visit_ConcatenatedString(self, node) -> bool:
        self._add(_pattern(node), node)
        return False

    def visit_FormattedString(self, node) -> bool:
        self._add(_pattern(node), node)
        return False

    def visit_BinaryOperation(self, node) -> bool:
        if isinstance(node.operator, cst.Add) and _stringish(node):
            self._add(_pattern(node), node)
            return False
        return True

    def visit_Call(self, node: cst.Call) -> bool:
        name = dotted_name(node.func) or ""
        if name in _JOINS:
            self._add(_pattern(node), node)
            return False
        if name in _LISTINGS or name.endswith((".glob", ".rglob", ".iterdir")):
            arg = node.args[0].value if node.args else None
            pattern = _pattern(arg) if arg is not None else None
            if (pattern is None or not pattern.strip("*/.")) and self.dead[-1] is None:
                self.refs.unknown.append(f"{self.rel}:{self._line(node)} lists files at run time "
                                         f"({self._code(node)})")
            elif pattern and _LISTINGS.get(name, name.endswith(".iterdir")):
                self._add(pattern.rstrip("/") + "/*", node)
        return True


def _stringish(node) -> bool:
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return True
    return isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add) and \
        (_stringish(node.left) or _stringish(node.right))


def _pattern(node) -> str | None:
    """A glob pattern for a string expression: computed pieces become ``*``; None when nothing is literal."""
    value = literal_value(node)
    if isinstance(value, str):
        return value
    if isinstance(node, cst.FormattedString):
        parts = [p.value if isinstance(p, cst.FormattedStringText) else "*" for p in node.parts]
        return "".join(parts) if any(p != "*" for p in parts) else None
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add) and _stringish(node):
        return (_pattern(node.left) or "*") + (_pattern(node.right) or "*")
    if isinstance(node, cst.Call) and (dotted_name(node.func) or "") in _JOINS:
        pieces = [_pattern(a.value) if not a.star else None for a in node.args]
        while pieces and pieces[0] is None:  # the base folder (HERE, os.path.dirname(__file__)): a prefix
            pieces.pop(0)
        return "/".join(p if p is not None else "*" for p in pieces) or None
    return None
