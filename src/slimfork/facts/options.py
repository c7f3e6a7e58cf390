"""Command-line options a feature fact makes inert: ``parser.add_argument("--enable-lora", ...)`` whose
destination (``dest=``, else the first long option with dashes as underscores) is an attribute a fact fixes,
and config fields a CLI is generated from (``enable_lora: bool = False`` in a class named like the fact's
receiver, or holding the receiver as a string: sglang's ``class Lora`` with ``_NS_PATH = "lora"``), shown as
``--enable-lora``. The option still parses, but the code that read it was folded away: the report lists it so
users see what the fork no longer supports."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

from slimfork.index.parse import decode, parse_python


class InertOption(NamedTuple):
    option: str  # "--enable-lora"
    dest: str  # "enable_lora"
    fact: str  # the fact's key in the spec
    path: str
    line: int


def inert_options(root: Path, rels: list[str], facts: dict[str, list[tuple[str, str]]]) -> list[InertOption]:
    """``facts``: attribute name -> every (receiver, key of the fact that fixes it): one switch is often fixed on
    several receivers (``memory.enable_hisparse``, ``self.enable_hisparse``)."""
    out = []
    for rel in rels:
        try:
            data = (root / rel).read_bytes()
            if b"add_argument" not in data and not any(a.encode() in data for a in facts):
                continue
            tree = parse_python(decode(data))
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError, LookupError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                out += _config_fields(node, facts, rel)
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "add_argument"):
                continue
            flags = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            longs = [f for f in flags if f.startswith("--")]
            dest = next((k.value.value for k in node.keywords if k.arg == "dest"
                         and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)), None)
            dest = dest or (longs[0][2:].replace("-", "_") if longs else None)
            if dest in facts:
                out.append(InertOption(longs[0] if longs else flags[0], dest, facts[dest][0][1], rel, node.lineno))
    return sorted(out, key=lambda o: (o.option, o.path))


def _config_fields(node: ast.ClassDef, facts: dict[str, list[tuple[str, str]]], rel: str) -> list[InertOption]:
    names = {node.name.lower()} | {s.value.value for s in node.body if isinstance(s, ast.Assign)
                                   and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)}
    out = []
    for s in node.body:
        if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name):
            key = next((key for receiver, key in facts.get(s.target.id, ()) if receiver in names), None)
            if key is not None:
                out.append(InertOption("--" + s.target.id.replace("_", "-"), s.target.id, key, rel, s.lineno))
    return out


class InertValue(NamedTuple):
    option: str  # "--moe-runner-backend"
    value: str  # "aiter"
    predicate: str  # "MoeRunnerBackend.AITER" (what the folded predicate tested for)
    fact: str
    path: str
    line: int


def inert_values(root: Path, rels: list[str], predicates: dict[str, str]) -> list[InertValue]:
    """Option values whose code a predicate fact folded away: ``--moe-runner-backend aiter`` where ``choices`` (or a
    ``Literal[...]`` field type) offers ``"aiter"`` and ``*.is_aiter()`` is fixed false, ``is_aiter`` being an enum's
    ``return self.value == Backend.AITER.value``. ``predicates``: method name -> the key of the fact fixing it false.
    Only an option whose choices are nearly all (80%, at least two) values of that enum is taken to choose among its
    members: ``--attention-backend``'s choices also hold ``"aiter"``, but they are not a MoE runner enum's values."""
    trees, with_choices = {}, set()
    for rel in rels:
        try:
            data = (root / rel).read_bytes()
            if b"choices" in data or any(f"def {p}(".encode() in data for p in predicates):
                trees[rel] = parse_python(decode(data))
                if b"choices" in data:
                    with_choices.add(rel)
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError, LookupError):
            continue
    members: dict[str, dict[str, str]] = {}  # class name -> member name -> string value
    lists: dict[str, list[list[str]]] = {}  # module-level name -> each list of strings bound to it
    for tree in trees.values():
        for statement in tree.body:
            if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                    and isinstance(statement.targets[0], ast.Name)
                    and (found := _strings(statement.value, {})) is not None):
                lists.setdefault(statement.targets[0].id, []).append(found)
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                members.setdefault(node.name, {}).update(
                    {s.targets[0].id: s.value.value for s in node.body if isinstance(s, ast.Assign)
                     and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                     and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)})
    tested: list[tuple[str, str, set[str], str]] = []  # (value, "Enum.MEMBER", the enum's values, fact)
    for tree in trees.values():
        for function in ast.walk(tree):
            if isinstance(function, ast.FunctionDef) and function.name in predicates:
                for cls, member in _tested_members(function):
                    if member in members.get(cls, {}):
                        tested.append((members[cls][member], f"{cls}.{member}", set(members[cls].values()),
                                       predicates[function.name]))
    known = {name: found[0] for name, found in lists.items() if all(f == found[0] for f in found)}
    out: dict[tuple[str, str, str], InertValue] = {}
    for rel in sorted(with_choices):
        for option, choices, line in _choices(trees[rel], known):
            for value, member, enum_values, fact in sorted(tested):
                if value in choices and len(enum_values & set(choices)) >= max(2, 0.8 * len(set(choices))):
                    out.setdefault((option, value, rel), InertValue(option, value, member, fact, rel, line))
    return sorted(out.values(), key=lambda v: (v.option, v.value, v.path))


def _strings(node: ast.expr, known: dict[str, list[str]]) -> list[str] | None:
    """The strings of a list/tuple/set literal, a name bound to one, a sum of those, ``set(...)``/``frozenset(...)``
    of one; None for anything else."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        if all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
            return [e.value for e in node.elts]  # type: ignore[attr-defined]
        return None
    if isinstance(node, ast.Name):
        return known.get(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.BitOr)):
        left, right = _strings(node.left, known), _strings(node.right, known)
        return None if left is None or right is None else left + right
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("set", "frozenset")
            and len(node.args) == 1 and not node.keywords):
        return _strings(node.args[0], known)
    return None


def _tested_members(node: ast.FunctionDef) -> list[tuple[str, str]]:
    """``return self == E.M`` / ``self.value == E.M.value`` / ``self in (E.M, E.N)``: the (E, M) pairs."""
    body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(test := body[0].value, ast.Compare):
        return []
    if len(test.ops) != 1 or not isinstance(test.ops[0], (ast.Eq, ast.In)):
        return []
    left = test.left.value if isinstance(test.left, ast.Attribute) and test.left.attr == "value" else test.left
    if not (isinstance(left, ast.Name) and left.id == "self"):
        return []
    right = test.comparators[0]
    items = right.elts if isinstance(test.ops[0], ast.In) and isinstance(right, (ast.Tuple, ast.List, ast.Set)) \
        else [right] if isinstance(test.ops[0], ast.Eq) else []
    out = []
    for item in items:
        item = item.value if isinstance(item, ast.Attribute) and item.attr == "value" else item
        if isinstance(item, ast.Attribute) and isinstance(item.value, ast.Name):
            out.append((item.value.id, item.attr))
        else:
            return []  # a comparison with something else: not an enum predicate
    return out


def _choices(tree: ast.Module, known: dict[str, list[str]]) -> list[tuple[str, list[str], int]]:
    """(option, its string choices, line) for ``add_argument("--x", choices=...)`` and for config fields
    ``x: A[str, Arg(choices=...)]`` or ``x: Literal["a", "b"]`` (shown as ``--x``) in a file that names ``choices``."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
            longs = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
                     and a.value.startswith("--")]
            choices = next((_strings(k.value, known) for k in node.keywords if k.arg == "choices"), None)
            if longs and choices:
                out.append((longs[0], choices, node.lineno))
        elif isinstance(node, ast.ClassDef):
            for s in node.body:
                if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name):
                    found = _field_choices(s.annotation, known)
                    if found:
                        out.append(("--" + s.target.id.replace("_", "-"), found, s.lineno))
    return out


def _field_choices(annotation: ast.expr, known: dict[str, list[str]]) -> list[str] | None:
    for node in ast.walk(annotation):
        if isinstance(node, ast.Call):
            for k in node.keywords:
                if k.arg == "choices" and (found := _strings(k.value, known)):
                    return found
        if (isinstance(node, ast.Subscript) and isinstance(node.value, (ast.Name, ast.Attribute))
                and (node.value.id if isinstance(node.value, ast.Name) else node.value.attr) == "Literal"):
            inner = node.slice
            found = _strings(inner if isinstance(inner, ast.Tuple) else ast.Tuple(elts=[inner]), known)
            if found:
                return found
    return None
