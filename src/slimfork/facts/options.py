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
