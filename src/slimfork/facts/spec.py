"""Parse the spec's [facts] table into a FactSet. Every bad key or type stops with its key path (pitfall 31)."""

from __future__ import annotations

import difflib
import re
from typing import Any

from slimfork.errors import SpecError
from slimfork.facts.python import python_fact
from slimfork.facts.expressions import normalize
from slimfork.facts.model import (ATTRIBUTE, ENV, EXPRESSION, FUNCTION, INSTANCE, MEMBER, METHOD, NAME, PARAMETER, Fact,
                                  FactSet)

_QUALNAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")
_ATTRIBUTE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*(\(\))?|\*\.[A-Za-z_][A-Za-z0-9_]*\(\))$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_VALUE_TYPES = (bool, int, float, str)

# key -> (what it holds, hint)
KEYS: dict[str, str] = {
    "functions": "table: qualified function name -> the value a call with no arguments returns "
                 "(e.g. \"sglang.srt.utils.common.is_hip\" = false)",
    "names": "table: qualified module-level name -> its value (e.g. \"pkg.config.USE_ROCM\" = false)",
    "methods": "table: qualified name of an object + '.method' -> the value obj.method() returns "
               "(e.g. \"sglang.srt.platforms.current_platform.is_rocm\" = false)",
    "parameters": "table: qualified name of a module-level function or a method + '.parameter' -> the value every "
                  "call of it in this deployment passes for that parameter (e.g. "
                  "\"pkg.attention.flash_attn_func.ver\" = 3, \"pkg.backend.Backend.__init__.use_v4\" = false): the body "
                  "folds as if the parameter were that constant",
    "expressions": "table: the source text of an expression -> its value wherever it appears, matched by its syntax "
                   "tree (spacing, parentheses and quotes aside; names are not resolved), e.g. "
                   "'\"sphinx.ext.autodoc\" in sys.modules' = false",
    "env": "table: environment variable -> the value it is set to (true means \"1\", false means \"0\", "
           "or a string)",
    "env_bool_functions": "array of qualified names of functions f(\"VAR\", default) that read VAR as a boolean "
                          "(e.g. \"sglang.srt.utils.common.get_bool_env_var\")",
    "env_objects": "array of qualified names of objects whose obj.VAR.get() reads VAR "
                   "(e.g. \"sglang.srt.environ.envs\")",
    "env_modules": "array of qualified names of modules whose attribute mod.VAR reads VAR",
    "attributes": "table: \"<receiver>.<attr>\" -> the value of a feature switch read as receiver.attr on an object "
                  "named receiver (e.g. \"lora.enable_lora\" = false matches lora.enable_lora, self.lora.enable_lora); "
                  "\"<receiver>.<method>()\" -> what receiver.method() returns; \"*.<method>()\" -> what the method "
                  "returns on any receiver that is a name, an attribute or a declared getter's call (e.g. \"*.is_dspark()\" "
                  "= false)",
    "none_attributes": "array of \"<receiver>.<attr>\" attributes that are None for every object this deployment "
                       "creates (TOML has no null; e.g. \"self.qsa_profile\" matches self.qsa_profile)",
    "attribute_getters": "table: qualified name of a function returning a config object -> the receiver name it "
                         "counts as (e.g. \"sglang.srt.runtime_context.get_lora\" = \"lora\")",
    "returns_none": "array of qualified names of functions that return None for every input this deployment gives "
                    "them (TOML has no null; e.g. \"sglang.srt.configs.hybrid_arch.mambaish_config\")",
    "never_instances": "array of qualified names of classes no object of which exists in this deployment (what "
                       "would create one is left out): isinstance(x, C) is False, and C leaves a tuple of classes "
                       "(e.g. \"sglang.srt.mem_cache.deepseek_v4_memory_pool.DeepSeekV4TokenToKVPool\")",
    "never_values": "array of qualified names of values (enum members) no object of this deployment holds: "
                    "x == V and x is V are False, x != V and x is not V True, for any x that is a name or attribute "
                    "(e.g. \"sglang.srt.configs.model_config.AttentionArch.SSM\")",
    "unused_methods": "array of method names the deployment never calls (dispatch by a computed name, e.g. "
                      "\"forward_npu\"): removed from every class unless kept code reads them as an attribute",
    "constant_arguments": "boolean: a parameter of a private function or method (defined once) that every call in "
                          "the kept code passes the same True/False/None has that value in its body, which folds "
                          "(default false)",
    "python": "string: the Python versions the fork runs on, as requires-python writes them (e.g. \">=3.10\"): "
              "sys.version_info compared with a literal folds where every version from its floor on agrees "
              "(default: the distribution's requires-python)",
    "sys_platform": "string: the value of sys.platform (e.g. \"linux\")",
    "os_name": "string: the value of os.name (e.g. \"posix\")",
    "platform_system": "string: what platform.system() returns (e.g. \"Linux\")",
    "preprocessor": "table: C/C++ macro facts for CUDA sources (handled by the kernel folding step)",
}


def parse_facts(raw: dict, key: str = "facts") -> FactSet:
    if not isinstance(raw, dict):
        raise SpecError(f"expected a table, got {type(raw).__name__}", key=key, hint="write [facts] as a table")
    for name in raw:
        if name not in KEYS:
            close = difflib.get_close_matches(name, list(KEYS), n=1)
            hint = f"did you mean '{close[0]}'?" if close else f"known keys: {', '.join(sorted(KEYS))}"
            raise SpecError(f"unknown key '{name}'", key=f"{key}.{name}", hint=hint)
    out = FactSet()
    for table, kind in (("functions", FUNCTION), ("names", NAME), ("methods", METHOD)):
        for target, value in _flatten(_table(raw, table, key)).items():
            where = f"{key}.{table}.{target}"
            if not _QUALNAME.match(target):
                raise SpecError(f"'{target}' is not a qualified name", key=where,
                                hint="write module.name, e.g. \"sglang.srt.utils.common.is_hip\"")
            out.facts.append(Fact(kind, target, _value(value, where, KEYS[table]), where))
    for target, value in _flatten(_table(raw, "parameters", key)).items():
        where = f"{key}.parameters.{target}"
        if not _QUALNAME.match(target) or target.count(".") < 2:
            raise SpecError(f"'{target}' is not module.function.parameter", key=where, hint=KEYS["parameters"])
        out.facts.append(Fact(PARAMETER, target, _value(value, where, KEYS["parameters"]), where))
    for target, value in _flatten(_table(raw, "attributes", key)).items():
        where = f"{key}.attributes.{target}"
        if not _ATTRIBUTE.match(target):
            raise SpecError(f"'{target}' is not receiver.attribute", key=where, hint=KEYS["attributes"])
        out.facts.append(Fact(ATTRIBUTE, target, _value(value, where, KEYS["attributes"]), where))
    nones = raw.get("none_attributes", [])
    if not isinstance(nones, list):
        raise SpecError(f"expected an array of strings, got {_type(nones)}", key=f"{key}.none_attributes",
                        hint=KEYS["none_attributes"])
    for i, target in enumerate(nones):
        if not isinstance(target, str) or not _ATTRIBUTE.match(target) or target.startswith("*"):
            raise SpecError(f"{target!r} is not receiver.attribute", key=f"{key}.none_attributes[{i}]",
                            hint=KEYS["none_attributes"])
        out.facts.append(Fact(ATTRIBUTE, target, None, f"{key}.none_attributes[{i}]"))
    for target, value in _flatten(_table(raw, "attribute_getters", key)).items():
        where = f"{key}.attribute_getters.{target}"
        if not _QUALNAME.match(target) or not isinstance(value, str) or not value.isidentifier():
            raise SpecError(f"expected qualified function name = \"receiver\", got {target!r} = {value!r}",
                            key=where, hint=KEYS["attribute_getters"])
        out.attribute_getters[target] = value
    for target, value in _flatten(_table(raw, "expressions", key)).items():
        where = f"{key}.expressions.{target}"
        if normalize(target) is None:
            raise SpecError(f"'{target}' is not a Python expression", key=where,
                            hint="write one expression as the key, quoted, e.g. '\"x\" in sys.modules' = false")
        out.facts.append(Fact(EXPRESSION, target, _value(value, where, KEYS["expressions"]), where))
    for target, value in _table(raw, "env", key).items():
        where = f"{key}.env.{target}"
        if not _ENV_NAME.match(target):
            raise SpecError(f"'{target}' is not an environment variable name", key=where, hint=KEYS["env"])
        out.facts.append(Fact(ENV, target, _value(value, where, KEYS["env"]), where))
    for name, target, kind in (("sys_platform", "sys.platform", NAME), ("os_name", "os.name", NAME),
                               ("platform_system", "platform.system", FUNCTION)):
        if name in raw:
            value = raw[name]
            if not isinstance(value, str):
                raise SpecError(f"expected a string, got {_type(value)}", key=f"{key}.{name}", hint=KEYS[name])
            out.facts.append(Fact(kind, target, value, f"{key}.{name}"))
    if "python" in raw:
        fact = python_fact(raw["python"], f"{key}.python") if isinstance(raw["python"], str) else None
        if fact is None:
            raise SpecError(f"expected a version specifier with a lower bound, got {raw['python']!r}",
                            key=f"{key}.python", hint=KEYS["python"])
        out.facts.append(fact)
    for i, target in enumerate(_names(raw, "returns_none", key)):
        out.facts.append(Fact(FUNCTION, target, None, f"{key}.returns_none[{i}]"))
    for i, target in enumerate(_names(raw, "never_instances", key)):
        out.facts.append(Fact(INSTANCE, target, False, f"{key}.never_instances[{i}]"))
    for i, target in enumerate(_names(raw, "never_values", key)):
        out.facts.append(Fact(MEMBER, target, False, f"{key}.never_values[{i}]"))
    out.env_bool_functions = _names(raw, "env_bool_functions", key)
    out.env_objects = _names(raw, "env_objects", key)
    out.env_modules = _names(raw, "env_modules", key)
    methods = raw.get("unused_methods", [])
    if not isinstance(methods, list):
        raise SpecError(f"expected an array of strings, got {_type(methods)}", key=f"{key}.unused_methods",
                        hint=KEYS["unused_methods"])
    for i, name in enumerate(methods):
        if not isinstance(name, str) or not name.isidentifier() or (name.startswith("__") and name.endswith("__")):
            raise SpecError(f"{name!r} is not a method name", key=f"{key}.unused_methods[{i}]",
                            hint="write the bare name of a method that is not a dunder, e.g. \"forward_npu\"")
    out.unused_methods = tuple(methods)
    constant = raw.get("constant_arguments", False)
    if not isinstance(constant, bool):
        raise SpecError(f"expected true or false, got {_type(constant)}", key=f"{key}.constant_arguments",
                        hint=KEYS["constant_arguments"])
    out.constant_arguments = constant
    pre = raw.get("preprocessor", {})
    if not isinstance(pre, dict):
        raise SpecError(f"expected a table, got {_type(pre)}", key=f"{key}.preprocessor", hint=KEYS["preprocessor"])
    out.preprocessor_raw = pre
    seen: dict[tuple[str, str | None], str] = {}
    for fact in out.facts:
        ident = (fact.kind if fact.kind == ENV else "code",
                 normalize(fact.target) if fact.kind == EXPRESSION else fact.target)
        if ident in seen:
            raise SpecError(f"'{fact.target}' is declared twice (also at {seen[ident]})", key=fact.key,
                            hint="keep one declaration")
        seen[ident] = fact.key
    return out


def _table(raw: dict, name: str, key: str) -> dict[str, Any]:
    value = raw.get(name, {})
    if not isinstance(value, dict):
        raise SpecError(f"expected a table, got {_type(value)}", key=f"{key}.{name}", hint=KEYS[name])
    return value


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Unquoted dotted TOML keys (a.b.c = false) arrive as nested tables: join them back into names."""
    out: dict[str, Any] = {}
    for name, value in table.items():
        if isinstance(value, dict) and value:
            out.update(_flatten(value, f"{prefix}{name}."))
        else:
            out[prefix + name] = value
    return out


def _names(raw: dict, name: str, key: str) -> tuple[str, ...]:
    value = raw.get(name, [])
    if not isinstance(value, list):
        raise SpecError(f"expected an array of strings, got {_type(value)}", key=f"{key}.{name}", hint=KEYS[name])
    for i, item in enumerate(value):
        if not isinstance(item, str) or not _QUALNAME.match(item):
            raise SpecError(f"'{item}' is not a qualified name", key=f"{key}.{name}[{i}]", hint=KEYS[name])
    return tuple(value)


def _value(value: Any, where: str, hint: str) -> Any:
    if not isinstance(value, _VALUE_TYPES):
        raise SpecError(f"expected a boolean, number or string, got {_type(value)}", key=where, hint=hint)
    return value


def _type(value: Any) -> str:
    return {bool: "boolean", int: "integer", float: "float", str: "string", list: "array", dict: "table"}.get(
        type(value), type(value).__name__)
