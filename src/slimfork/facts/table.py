"""Turn a FactSet into a FactTable of canonical names, then find the module-level names that the facts make
constant (``_is_hip = is_hip()``, ``_use_aiter = get_bool_env_var("SGLANG_USE_AITER") and _is_hip``), across
modules and through imports, until nothing new is learned."""

from __future__ import annotations

import libcst as cst

from slimfork.facts.bindings import ModuleBindings, ModuleScope, Resolver, renamed_imports
from slimfork.facts.evaluate import LITERAL_TYPES, Evaluator, FactTable
from slimfork.facts.expressions import normalize, trigger
from slimfork.facts.python import PythonVersions
from slimfork.facts.model import (ATTRIBUTE, ENV, EXPRESSION, FUNCTION, INSTANCE, MEMBER, METHOD, NAME, PARAMETER, UNKNOWN, FactSet,
                                  env_string)


def build_table(facts: FactSet, resolver: Resolver) -> FactTable:
    table = FactTable(
        env_bool_functions=frozenset(resolver.canonical(n) for n in facts.env_bool_functions),
        env_objects=frozenset(resolver.canonical(n) for n in facts.env_objects),
        env_modules=frozenset(resolver.canonical(n) for n in facts.env_modules),
    )
    for name in (*table.env_bool_functions, *table.env_objects, *table.env_modules):
        table.learn(name)
    for getter, receiver in facts.attribute_getters.items():
        qualname = resolver.canonical(getter)
        table.attribute_getters[qualname] = receiver
        table.learn(qualname)
    for fact in facts.facts:
        if fact.kind == EXPRESSION:
            key = normalize(fact.target)
            assert key is not None  # the spec checked that it is an expression
            table.expressions[key] = fact.value
            table.origins["x:" + key] = (fact.key,)
            table.triggers.add(trigger(fact.target))
            continue
        table.learn(fact.target.removesuffix("()"))
        if fact.kind == ENV:
            table.triggers.update({"environ", "getenv"})
            table.env[fact.target] = env_string(fact.value)
            table.origins["e:" + fact.target] = (fact.key,)
        elif fact.kind in (FUNCTION, METHOD):
            owner, _, attr = fact.target.rpartition(".")
            qualname = resolver.canonical(fact.target) if fact.kind == FUNCTION else \
                f"{resolver.canonical(owner)}.{attr}"
            table.calls[qualname] = fact.value
            table.learn(qualname)
            table.origins["c:" + qualname] = (fact.key,)
        elif fact.kind == ATTRIBUTE:
            receiver, attr = fact.target.split(".")
            table.attributes.setdefault(attr, {})[receiver] = fact.value
            table.origins[f"a:{fact.target}"] = (fact.key,)
        elif fact.kind == INSTANCE:
            qualname = resolver.canonical(fact.target)
            table.no_instances.add(qualname)
            table.learn(qualname)
            table.origins["i:" + qualname] = (fact.key,)
        elif fact.kind == MEMBER:
            qualname = resolver.canonical(fact.target)
            table.never_values.add(qualname)
            table.learn(qualname)
            table.origins["m:" + qualname] = (fact.key,)
        elif fact.kind == PARAMETER:
            parts = fact.target.split(".")
            for i in range(len(parts) - 2, 0, -1):  # the longest prefix that is a module of the tree
                module = ".".join(parts[:i])
                if module in resolver.paths:
                    function = ".".join(parts[i:-1])
                    table.declared_parameters.setdefault((module, function), {})[parts[-1]] = (fact.value, fact.key)
                    break
        elif fact.kind == NAME:
            qualname = resolver.canonical(fact.target)
            table.values[qualname] = fact.value
            table.learn(qualname)
            table.origins["v:" + qualname] = (fact.key,)
            if isinstance(fact.value, PythonVersions):
                table.words.update(("major", "minor", "micro"))  # sys.version_info.major
    return table


def propagate(table: FactTable, resolver: Resolver, modules: list[ModuleBindings], words: set[str],
              patched: set[str]) -> tuple[dict[str, object], set[str]]:
    """Add module-level names bound once from a known value to ``table.values``. Returns the new flags
    (qualified name -> value) and the fact keys their values relied on."""
    flags: dict[str, object] = {}
    used: set[str] = set()
    parsed: dict[tuple[str, str], cst.BaseExpression | None] = {}
    renamed: dict[str, set[str]] = {}  # module -> its imports that rename a fact's target
    changed = True
    while changed:
        changed = False
        for bindings in modules:
            scope = None
            for name, source in bindings.assigns.items():
                qualname = f"{bindings.module}.{name}"
                if qualname in table.values or name in patched or qualname in patched:
                    continue
                if not any(word in source for word in words):
                    if bindings.module not in renamed:
                        renamed[bindings.module] = renamed_imports(bindings, resolver, table.words)
                    if not any(name in source for name in renamed[bindings.module]):
                        continue
                key = (bindings.module, name)
                if key not in parsed:
                    try:
                        parsed[key] = cst.parse_expression(source)
                    except Exception:
                        parsed[key] = None
                expr = parsed[key]
                if expr is None:
                    continue
                if bindings.module not in renamed:
                    renamed[bindings.module] = renamed_imports(bindings, resolver, table.words)
                scope = scope or ModuleScope(resolver, bindings, words=table.words | renamed[bindings.module])
                evaluator = Evaluator(table, scope)
                value = evaluator.value(expr)
                if value is UNKNOWN or not isinstance(value, (*LITERAL_TYPES, PythonVersions)) or not evaluator.used:
                    continue
                table.values[qualname] = value
                table.learn(qualname)
                table.origins["v:" + qualname] = tuple(sorted(evaluator.used))
                if not isinstance(value, PythonVersions):  # PY_VERSION = sys.version_info[:2]: no literal to write
                    flags[qualname] = value
                used |= evaluator.used
                words.add(name)
                changed = True
    return flags, used
