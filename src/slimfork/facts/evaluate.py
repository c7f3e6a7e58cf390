"""The three-valued evaluator: what a LibCST expression evaluates to under the facts, or UNKNOWN.

Leaves are matched by qualified name through a ``Scope`` (which follows imports, aliases and re-exports and
knows when a local name shadows a module-level one); ``not``/``and``/``or``, comparisons, ``in``, ternaries and
a few ``str`` methods combine them. Unknown never folds.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import libcst as cst

from slimfork.facts.expressions import normalize_node
from slimfork.facts.literals import dotted_name, inspected, is_pure, literal_value
from slimfork.facts.model import UNKNOWN, Truth
from slimfork.facts.python import PythonVersions, is_field

_COMPARE = {
    cst.Equal: operator.eq, cst.NotEqual: operator.ne, cst.LessThan: operator.lt, cst.LessThanEqual: operator.le,
    cst.GreaterThan: operator.gt, cst.GreaterThanEqual: operator.ge, cst.Is: operator.is_,
    cst.IsNot: operator.is_not, cst.In: lambda a, b: a in b, cst.NotIn: lambda a, b: a not in b,
}
_STR_METHODS = {"startswith", "endswith", "lower", "upper", "strip", "casefold"}
_ENV_READS = {"os.getenv", "os.environ.get"}
_BOOL_STRINGS = {"1": True, "true": True, "0": False, "false": False}
LITERAL_TYPES = (bool, int, float, str, type(None))


class Scope(Protocol):
    def resolve(self, dotted: str) -> str | None:
        """The canonical qualified name a dotted name refers to here, or None (local, unknown, ambiguous)."""


ScopeT = TypeVar("ScopeT", bound=Scope)  # an evaluator's scope keeps its own type (the folding sets its line)


@dataclass
class FactTable:
    """Facts and derived module-level constants, keyed by canonical qualified name."""

    values: dict[str, Any] = field(default_factory=dict)  # name -> value
    calls: dict[str, Any] = field(default_factory=dict)  # callable -> what a call returns (pure arguments)
    env: dict[str, str] = field(default_factory=dict)  # environment variable -> its string value
    env_bool_functions: frozenset[str] = frozenset()
    env_objects: frozenset[str] = frozenset()
    env_modules: frozenset[str] = frozenset()
    attributes: dict[str, dict[str, Any]] = field(default_factory=dict)  # attr -> receiver name -> value
    attribute_getters: dict[str, str] = field(default_factory=dict)  # getter qualname -> receiver name
    no_instances: set[str] = field(default_factory=set)  # classes no object of which exists: isinstance is False
    never_values: set[str] = field(default_factory=set)  # values (enum members) no object holds: x == V is False
    # Parameters every call passes one constant ([facts] constant_arguments): (module, def end line, function
    # name) -> parameter -> value; the fold reads each as a local constant of the function's body.
    parameters: dict[tuple[str, int, str], dict[str, Any]] = field(default_factory=dict)
    # Declared parameters ([facts.parameters]): (module, [Class.]function) -> parameter -> (value, fact key).
    declared_parameters: dict[tuple[str, str], dict[str, tuple[Any, str]]] = field(default_factory=dict)
    expressions: dict[str, Any] = field(default_factory=dict)  # [facts.expressions]: normalized AST -> value
    origins: dict[str, tuple[str, ...]] = field(default_factory=dict)  # "v:name"/"c:name"/"e:VAR" -> fact keys
    # Last segments of every name above: a dotted name ending otherwise cannot match, so it is not resolved.
    words: set[str] = field(default_factory=lambda: {"environ", "getenv", "get"})
    # Identifiers code must contain for anything to match in it (statements without one are not visited).
    triggers: set[str] = field(default_factory=set)

    def learn(self, qualname: str) -> None:
        word = qualname.rsplit(".", 1)[-1]
        self.words.add(word)
        self.triggers.add(trigger_text(qualname))


STDLIB_FACTS = {"sys.platform", "os.name", "platform.system", "sys.version_info"}


def trigger_text(qualname: str) -> str:
    """The text code must contain to match ``qualname``: its last segment, or for the standard library's
    sys.platform/os.name/platform.system the dotted name as usually written (``from sys import platform``
    is not seen)."""
    return qualname if qualname in STDLIB_FACTS else qualname.rsplit(".", 1)[-1]


class Evaluator(Generic[ScopeT]):
    """Evaluate expressions in one scope. ``used`` collects the fact keys every successful match relied on."""

    def __init__(self, table: FactTable, scope: ScopeT):
        self.table = table
        self.scope = scope
        self.used: set[str] = set()

    def truth(self, node: cst.BaseExpression) -> Truth:
        """Truthiness, which is sometimes known when the value is not (``x and False``)."""
        if isinstance(node, cst.BooleanOperation):
            left, right = self.truth(node.left), self.truth(node.right)
            stop = Truth.FALSE if isinstance(node.operator, cst.And) else Truth.TRUE
            if stop in (left, right):
                return stop
            return left if left == right else Truth.UNKNOWN
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            inner = self.truth(node.expression)
            return {Truth.TRUE: Truth.FALSE, Truth.FALSE: Truth.TRUE}.get(inner, Truth.UNKNOWN)
        if isinstance(node, cst.IfExp):
            test = self.truth(node.test)
            if test is Truth.UNKNOWN:
                body, orelse = self.truth(node.body), self.truth(node.orelse)
                return body if body == orelse else Truth.UNKNOWN
            return self.truth(node.body if test is Truth.TRUE else node.orelse)
        return Truth.of(self.value(node))

    def value(self, node: cst.BaseExpression) -> Any:
        try:
            return self._value(node)
        except Exception:  # an operator that raises on these values: leave it to run time
            return UNKNOWN

    def _value(self, node: cst.BaseExpression) -> Any:
        literal = literal_value(node)
        if literal is not UNKNOWN:
            return literal
        if self.table.expressions:
            declared = self.declared(node)
            if declared is not UNKNOWN:
                return declared
        if isinstance(node, (cst.Name, cst.Attribute)):
            return self._name(node)
        if isinstance(node, cst.Call):
            return self._call(node)
        if isinstance(node, cst.Subscript):
            return self._subscript(node)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            inner = self.truth(node.expression)
            return UNKNOWN if inner is Truth.UNKNOWN else inner is Truth.FALSE
        if isinstance(node, cst.BooleanOperation):
            left = self.value(node.left)
            if left is UNKNOWN:
                return UNKNOWN
            if bool(left) == isinstance(node.operator, cst.Or):
                return left
            return self.value(node.right)
        if isinstance(node, cst.IfExp):
            test = self.truth(node.test)
            if test is Truth.UNKNOWN:
                return UNKNOWN
            return self.value(node.body if test is Truth.TRUE else node.orelse)
        if isinstance(node, cst.Comparison):
            return self._comparison(node)
        if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
            items = []
            for element in node.elements:
                if not isinstance(element, cst.Element):
                    return UNKNOWN
                item = self.value(element.value)
                if item is UNKNOWN:
                    return UNKNOWN
                items.append(item)
            return {cst.Tuple: tuple, cst.List: list, cst.Set: frozenset}[type(node)](items)
        if isinstance(node, cst.NamedExpr):
            return self.value(node.value)
        return UNKNOWN

    def declared(self, node: cst.BaseExpression) -> Any:
        """The value ``[facts.expressions]`` gives this expression, or UNKNOWN."""
        if isinstance(node, (cst.Name, cst.SimpleString, cst.Integer)):
            return UNKNOWN
        key = normalize_node(node)
        if key is None or key not in self.table.expressions:
            return UNKNOWN
        self.used.update(self.table.origins.get("x:" + key, ()))
        return self.table.expressions[key]

    def _name(self, node: cst.BaseExpression) -> Any:
        if isinstance(node, cst.Attribute) and node.attr.value in self.table.attributes:
            found = self._attribute(node)
            if found is not UNKNOWN:
                return found
        dotted = dotted_name(node)
        if dotted is None:
            return UNKNOWN
        qualname = self.scope.resolve(dotted)
        if qualname is None:
            return UNKNOWN
        if qualname in self.table.values:
            self.used.update(self.table.origins.get("v:" + qualname, ()))
            return self.table.values[qualname]
        version_of, _, field = qualname.rpartition(".")
        if is_field(field) and isinstance(versions := self.table.values.get(version_of), PythonVersions):
            self.used.update(self.table.origins.get("v:" + version_of, ()))  # sys.version_info.major
            return versions.at(("field", field))
        if isinstance(node, cst.Attribute) and self.table.env_modules:
            owner = self.scope.resolve(dotted_name(node.value) or "")
            if owner in self.table.env_modules:
                return self._env_bool(node.attr.value)
        return UNKNOWN

    def _attribute(self, node: cst.Attribute, key: str | None = None) -> Any:
        """A feature switch: ``receiver.attr`` where the object is named receiver (``lora``, ``self.lora``) or
        returned by a declared getter (``get_lora()``); with ``key`` "attr()", the call ``receiver.attr()``, whose
        fact may name any receiver ("*") that is a name, an attribute chain or a declared getter's call (evaluating
        it does nothing)."""
        key = key or node.attr.value
        receivers, owner = self.table.attributes[key], node.value
        getter = self._getter(owner)
        if "*" in receivers and (dotted_name(owner) is not None or getter is not None):
            self.used.update(self.table.origins.get(f"a:*.{key}", ()))
            return receivers["*"]
        if isinstance(owner, (cst.Name, cst.Attribute)):
            receiver = owner.value if isinstance(owner, cst.Name) else owner.attr.value
        elif getter is not None:
            receiver = getter
        else:
            return UNKNOWN
        if receiver not in receivers:
            return UNKNOWN
        self.used.update(self.table.origins.get(f"a:{receiver}.{key}", ()))
        return receivers[receiver]

    def _getter(self, node) -> str | None:
        """The receiver name a declared attribute getter's call without arguments stands for (``get_lora()``)."""
        if isinstance(node, cst.Call) and not node.args and (dotted := dotted_name(node.func)):
            return self.table.attribute_getters.get(self.scope.resolve(dotted) or "")
        return None

    def _call(self, node: cst.Call) -> Any:
        func = node.func
        args = node.args
        if any(a.star for a in args):
            return UNKNOWN
        dotted = dotted_name(func)
        if dotted == "bool" and len(args) == 1 and not args[0].keyword and not _binds(self.scope, "bool"):
            inner = self.truth(args[0].value)  # bool(get_bool_env_var("X")): the builtin, on a known value
            return UNKNOWN if inner is Truth.UNKNOWN else inner is Truth.TRUE
        if dotted == "isinstance" and self.table.no_instances:
            gone = self.absent_classes(node)
            if gone is not None and len(gone) == len(_class_nodes(args[1].value)):
                return False
        if isinstance(func, cst.Attribute) and not args and f"{func.attr.value}()" in self.table.attributes:
            found = self._attribute(func, f"{func.attr.value}()")
            if found is not UNKNOWN:
                return found
        qualname = self.scope.resolve(dotted) if dotted else None
        if qualname is not None and qualname in self.table.calls and all(is_pure(a.value) for a in args):
            # f() or f(config): the fact holds for any argument, as long as evaluating the arguments does nothing
            self.used.update(self.table.origins.get("c:" + qualname, ()))
            return self.table.calls[qualname]
        if qualname in _ENV_READS and args and len(args) <= 2 and not args[0].keyword:
            var = literal_value(args[0].value)
            if isinstance(var, str) and var in self.table.env:
                self.used.update(self.table.origins.get("e:" + var, ()))
                return self.table.env[var]
            return UNKNOWN
        if qualname in self.table.env_bool_functions and args and not args[0].keyword:
            var = literal_value(args[0].value)
            return self._env_bool(var) if isinstance(var, str) else UNKNOWN
        if isinstance(func, cst.Attribute) and func.attr.value == "get" and not args and self.table.env_objects:
            target = func.value
            if isinstance(target, cst.Attribute):
                owner = self.scope.resolve(dotted_name(target.value) or "")
                if owner in self.table.env_objects:
                    return self._env_bool(target.attr.value)
        if isinstance(func, cst.Attribute) and func.attr.value in _STR_METHODS:
            receiver = self.value(func.value)
            if isinstance(receiver, str):
                values = [self.value(a.value) for a in args]
                if any(a.keyword for a in args) or UNKNOWN in values:
                    return UNKNOWN
                return getattr(receiver, func.attr.value)(*values)
        return UNKNOWN

    def absent_classes(self, node: cst.Call) -> list[int] | None:
        """For ``isinstance(x, C)`` or ``isinstance(x, (A, C))`` (the builtin, on a pure ``x``): the positions of
        the classes no object of which exists; None when the call is not of that shape."""
        args = node.args
        if len(args) != 2 or any(a.keyword or a.star for a in args) or not inspected(args[0].value) \
                or _binds(self.scope, "isinstance"):
            return None
        classes = _class_nodes(args[1].value)
        gone = []
        for position, cls in enumerate(classes):
            dotted = dotted_name(cls)
            qualname = self.scope.resolve(dotted) if dotted else None
            if qualname in self.table.no_instances:
                self.used.update(self.table.origins.get("i:" + qualname, ()))
                gone.append(position)
        return gone

    def reads_only(self, node: cst.BaseExpression) -> bool:
        """Pure (``is_pure``), or only reads environment variables the way the facts know
        (``os.getenv("X")``, ``get_bool_env_var("X")``, ``envs.X.get()``), under ``not``/``and``/``or``."""
        if is_pure(node):
            return True
        if isinstance(node, cst.UnaryOperation):
            return self.reads_only(node.expression)
        if isinstance(node, cst.BooleanOperation):
            return self.reads_only(node.left) and self.reads_only(node.right)
        if not isinstance(node, cst.Call) or any(a.star or a.keyword for a in node.args):
            return False
        func, args = node.func, node.args
        if not all(isinstance(literal_value(a.value), str) or is_pure(a.value) for a in args):
            return False
        qualname = self.scope.resolve(dotted_name(func) or "")
        if qualname in _ENV_READS or qualname in self.table.env_bool_functions:
            return bool(args) and isinstance(literal_value(args[0].value), str)
        if isinstance(func, cst.Attribute) and func.attr.value == "get" and not args \
                and isinstance(func.value, cst.Attribute):
            return self.scope.resolve(dotted_name(func.value.value) or "") in self.table.env_objects
        return False

    def _subscript(self, node: cst.Subscript) -> Any:
        if len(node.slice) != 1:
            return UNKNOWN
        if self.scope.resolve(dotted_name(node.value) or "") != "os.environ":
            return self._item(node)
        index = node.slice[0].slice
        var = literal_value(index.value) if isinstance(index, cst.Index) else UNKNOWN
        if isinstance(var, str) and var in self.table.env:
            self.used.update(self.table.origins.get("e:" + var, ()))
            return self.table.env[var]
        return UNKNOWN

    def _item(self, node: cst.Subscript) -> Any:
        """An index or a slice of a known string or tuple: ``sys.platform[:5]``, ``plat[:6]`` (plat folded)."""
        base = self.value(node.value)
        if not isinstance(base, (str, tuple, PythonVersions)):
            return UNKNOWN
        index = node.slice[0].slice
        if isinstance(index, cst.Index):
            at = self.value(index.value)
            if not isinstance(at, int) or isinstance(at, bool):
                return UNKNOWN
            return base.at(("index", at)) if isinstance(base, PythonVersions) else base[at]
        if not isinstance(index, cst.Slice):
            return UNKNOWN
        bounds = [None if part is None else self.value(part) for part in (index.lower, index.upper, index.step)]
        if any(b is not None and (not isinstance(b, int) or isinstance(b, bool)) for b in bounds):
            return UNKNOWN
        return base.at(("slice", *bounds)) if isinstance(base, PythonVersions) else base[slice(*bounds)]

    def _comparison(self, node: cst.Comparison) -> Any:
        if self.table.never_values and len(node.comparisons) == 1:
            op = type(node.comparisons[0].operator)
            if op in (cst.Equal, cst.NotEqual, cst.Is, cst.IsNot) \
                    and self._never_held(node.left, node.comparisons[0].comparator):
                return op in (cst.NotEqual, cst.IsNot)
        left = self.value(node.left)
        result = True
        for target in node.comparisons:
            op = type(target.operator)
            if op in (cst.In, cst.NotIn) and self.scope.resolve(dotted_name(target.comparator) or "") == "os.environ":
                if not isinstance(left, str) or left not in self.table.env:
                    return UNKNOWN
                self.used.update(self.table.origins.get("e:" + left, ()))
                outcome = op is cst.In
                right = UNKNOWN
            else:
                right = self.value(target.comparator)
                if left is UNKNOWN or right is UNKNOWN:
                    return UNKNOWN
                if op in (cst.Is, cst.IsNot) and (left is None or right is None) \
                        and isinstance(left if right is None else right, (str, bytes, int, float)):
                    outcome = op is cst.IsNot  # "0" is None: a known value is never None
                elif op in (cst.Is, cst.IsNot) and not all(isinstance(v, (bool, type(None))) for v in (left, right)):
                    return UNKNOWN  # identity of strings and numbers is an implementation detail
                elif isinstance(left, PythonVersions):  # sys.version_info >= (3, 8): the same for every version?
                    outcome = left.compare(_COMPARE[op], right)
                elif isinstance(right, PythonVersions):
                    outcome = right.compare(_COMPARE[op], left, flipped=True)
                else:
                    outcome = bool(_COMPARE[op](left, right))
                if outcome is UNKNOWN:
                    return UNKNOWN
            result = result and outcome
            left = right
        return result

    def _never_held(self, left: cst.BaseExpression, right: cst.BaseExpression) -> bool:
        """One side names a value no object holds ([facts] never_values), the other is a name or attribute
        chain the facts do not decide (a literal could equal an enum member that mixes in its type)."""
        for value, other in ((right, left), (left, right)):
            dotted = dotted_name(value)
            qualname = self.scope.resolve(dotted) if dotted and "." in dotted else None
            if qualname in self.table.never_values and dotted_name(other) is not None \
                    and self.value(other) is UNKNOWN:
                self.used.update(self.table.origins.get("m:" + qualname, ()))
                return True
        return False

    def _env_bool(self, var: Any) -> Any:
        if not isinstance(var, str) or var not in self.table.env:
            return UNKNOWN
        parsed = _BOOL_STRINGS.get(self.table.env[var].strip().lower(), UNKNOWN)
        if parsed is not UNKNOWN:
            self.used.update(self.table.origins.get("e:" + var, ()))
        return parsed


def _class_nodes(node: cst.BaseExpression) -> list[cst.BaseExpression | cst.BaseElement]:
    """The classes ``isinstance`` is given: one expression, or the elements of a literal tuple."""
    if isinstance(node, cst.Tuple):
        return [e.value if isinstance(e, cst.Element) else e for e in node.elements]
    return [node]


def _binds(scope: Scope, name: str) -> bool:
    """Whether the module (or the function around the expression) binds ``name`` itself, hiding the builtin."""
    bindings = getattr(scope, "bindings", None)
    return name in getattr(scope, "shadow", ()) or (bindings is not None and bindings.binds(name))
