"""What the user declares about the target platform, and the three-valued truth the evaluator works with."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class _Unknown:
    """The value of an expression the facts do not decide. Unknown never folds."""

    _instance: "_Unknown | None" = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNKNOWN"

    def __reduce__(self):
        return (_Unknown, ())


UNKNOWN: Any = _Unknown()


class Truth(enum.Enum):
    """mypy's reachability idea: a condition is always true, always false, or unknown."""

    TRUE = "true"
    FALSE = "false"
    UNKNOWN = "unknown"

    @classmethod
    def of(cls, value: Any) -> "Truth":
        if value is UNKNOWN:
            return cls.UNKNOWN
        try:
            return cls.TRUE if bool(value) else cls.FALSE
        except Exception:
            return cls.UNKNOWN


# Kinds of fact: what a piece of code has to look like to match.
FUNCTION = "function"  # a call with no arguments of the function named by ``target`` returns ``value``
NAME = "name"  # reading the module-level name (or attribute path) ``target`` gives ``value``
METHOD = "method"  # ``obj.m()`` with no arguments, ``target`` = "<qualified name of obj>.m"
ENV = "env"  # the environment variable ``target`` is set to ``value`` (a string)
ATTRIBUTE = "attribute"  # ``<receiver>.<attr>`` read on an object named <receiver> (a variable, parameter or
# attribute of that name, or what a declared getter returns), ``target`` = "<receiver>.<attr>": a feature switch
INSTANCE = "instance"  # no object of the class ``target`` exists in this deployment: ``isinstance(x, C)`` is False
MEMBER = "member"  # no object of this deployment holds the value ``target`` (an enum member): ``x == E.M`` is False
PARAMETER = "parameter"  # every call of the function ``target`` minus its last segment passes that parameter
# ``value``: ``target`` = "<module>.[<Class>.]<function>.<parameter>"
EXPRESSION = "expression"  # the expression whose source text is ``target`` (matched by normalized AST) is ``value``


@dataclass(frozen=True)
class Fact:
    kind: str
    target: str  # qualified name (or environment variable name for ENV)
    value: Any  # bool, int, float or str
    key: str  # where it was declared in the spec, e.g. "facts.functions.sglang.srt.utils.common.is_hip"

    def describe(self) -> str:
        if self.kind == ENV:
            return f"${self.target} = {self.value!r}"
        if self.kind == INSTANCE:
            return f"isinstance(x, {self.target}) = False"
        if self.kind == MEMBER:
            return f"x == {self.target} is False"
        if self.kind == EXPRESSION:
            return f"{self.target} is {self.value!r}"
        if self.kind == PARAMETER:
            function, _, param = self.target.rpartition(".")
            return f"{function}({param}={self.value!r}) in every call"
        call = "()" if self.kind in (FUNCTION, METHOD) else ""
        return f"{self.target}{call} = {self.value!r}"


@dataclass
class FactSet:
    """Every fact of the spec's [facts] table, plus how this codebase reads its environment."""

    facts: list[Fact] = field(default_factory=list)
    # Functions called as f("VAR"[, default]) that parse an environment variable as a boolean
    # (sglang: sglang.srt.utils.common.get_bool_env_var).
    env_bool_functions: tuple[str, ...] = ()
    # Objects whose attribute X has .get() returning environment variable X parsed (sglang.srt.environ.envs).
    env_objects: tuple[str, ...] = ()
    # Modules whose attribute X is environment variable X parsed (sglang.multimodal_gen.envs).
    env_modules: tuple[str, ...] = ()
    # Functions returning a config object, and the receiver name their result counts as
    # ({"sglang.srt.runtime_context.get_lora": "lora"}: get_lora().enable_lora matches "lora.enable_lora").
    attribute_getters: dict[str, str] = field(default_factory=dict)
    preprocessor_raw: dict[str, Any] = field(default_factory=dict)  # [facts.preprocessor], owned elsewhere
    unused_methods: tuple[str, ...] = ()  # methods never called: dispatched by a name the facts rule out
    constant_arguments: bool = False  # fold parameters every call passes one constant (rewrite/constant_args.py)

    def __bool__(self) -> bool:
        return bool(self.facts or self.unused_methods or self.constant_arguments)

    def by_kind(self, kind: str) -> list[Fact]:
        return [f for f in self.facts if f.kind == kind]

    def words(self) -> set[str]:
        """Identifiers a file must contain for any fact to match in it (a cheap text prefilter)."""
        out = set()
        for fact in self.facts:
            out.add(fact.target.rsplit(".", 1)[-1])
        return out


def env_string(value: Any) -> str:
    """The string an environment variable holds for a declared value: true -> "1", false -> "0"."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)
