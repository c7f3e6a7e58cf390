"""A tiny declarative schema for the keep spec: every key, its type and its documentation.

Each section of the spec (the top level, ``[[registries]]``, ``[facts]``, ...) declares its fields here or in
its own module and registers them in ``SECTIONS``; ``load.py`` validates against them, so an unknown key or a
wrong type always stops with the key path and a hint (pitfall 31).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from slimfork.errors import SpecError


@dataclass(frozen=True)
class Field:
    name: str
    kind: str  # "str", "bool", "int", "list[str]", "table", "list[table]", "any"
    doc: str
    required: bool = False
    choices: tuple[str, ...] = ()
    default: Any = None


@dataclass
class Section:
    """A table of the spec. ``path`` is the dotted key path ("" for the top level)."""

    path: str
    doc: str
    fields: list[Field] = field(default_factory=list)
    open_keys: bool = False  # a table whose keys are user data (e.g. facts by name)

    def by_name(self) -> dict[str, Field]:
        return {f.name: f for f in self.fields}


_TYPES = {
    "str": (str,),
    "bool": (bool,),
    "int": (int,),
    "table": (dict,),
    "list[table]": (list,),
    "list[str]": (list,),
    "any": (object,),
}


def type_name(value: Any) -> str:
    return {str: "string", bool: "boolean", int: "integer", float: "float", list: "array", dict: "table"}.get(
        type(value), type(value).__name__
    )


def check_table(data: dict, section: Section) -> None:
    """Validate ``data`` against ``section``: unknown keys, missing keys, types and choices."""
    known = section.by_name()
    prefix = f"{section.path}." if section.path else ""
    if not section.open_keys:
        for key in data:
            if key not in known:
                close = difflib.get_close_matches(key, list(known), n=1)
                hint = f"did you mean '{close[0]}'?" if close else f"known keys: {', '.join(sorted(known))}"
                raise SpecError(f"unknown key '{key}'", key=prefix + key, hint=hint)
    for name, spec_field in known.items():
        if name not in data:
            if spec_field.required:
                raise SpecError("missing required key", key=prefix + name, hint=spec_field.doc)
            continue
        check_value(data[name], spec_field, prefix + name)


def check_value(value: Any, spec_field: Field, key: str) -> None:
    expected = _TYPES[spec_field.kind]
    ok = isinstance(value, expected) and not (spec_field.kind == "int" and isinstance(value, bool))
    if ok and spec_field.kind == "list[str]":
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise SpecError(
                    f"expected a string, got {type_name(item)}", key=f"{key}[{i}]", hint=spec_field.doc
                )
    if ok and spec_field.kind == "list[table]":
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                raise SpecError(f"expected a table, got {type_name(item)}", key=f"{key}[{i}]", hint=spec_field.doc)
    if not ok:
        wanted = {"list[str]": "array of strings", "list[table]": "array of tables", "str": "a string",
                  "bool": "a boolean", "int": "an integer", "table": "a table"}.get(spec_field.kind, spec_field.kind)
        raise SpecError(f"expected {wanted}, got {type_name(value)}", key=key, hint=spec_field.doc)
    if spec_field.choices and value not in spec_field.choices:
        close = difflib.get_close_matches(str(value), [str(c) for c in spec_field.choices], n=1)
        raise SpecError(  # a typo gets the closest choice first, not only the long description of them all
            f"'{value}' is not one of {', '.join(spec_field.choices)}", key=key,
            hint=f"did you mean '{close[0]}'?" if close else spec_field.doc
        )
