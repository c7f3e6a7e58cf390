"""Kernel names written as f-strings (``f"smallm{m}_p1"``): their text with a placeholder per formatted part, and
the regex that matches the names they may build (for ``index.kernelscan`` and the kernel audit)."""

from __future__ import annotations

import ast
import re


def pattern_text(node: ast.JoinedStr) -> str:
    """An f-string as text with ``{...}`` for each formatted part: f"{d}/x.cu" -> "{...}/x.cu"."""
    return "".join(str(v.value) if isinstance(v, ast.Constant) else "{...}" for v in node.values)


def pattern_regex(text: str) -> str:
    """ "smallm{...}_p1_i{...}_c16" -> a regex; a formatted part may be empty (f"{prefix}name")."""
    return "^" + ".*?".join(re.escape(part) for part in text.split("{...}")) + "$"


_NUMERIC_NAME = re.compile(r"(?:^|_)(?:sizes?|bits?|idx|index|num|n|k|m|dims?|width|count|len|id|tiles?|blocks?|"
                           r"stages|warps|threads|groups?|group_?size|bs|batch|rank|ratio|i|j|e|degree|heads?)$|"
                           r"^(?:num|n)_")


def name_pattern_text(node: ast.JoinedStr) -> str:
    """An f-string naming a kernel, each formatted part as ``{#}`` when it holds a number (``{block_size}``,
    ``{idx}``, ``{n:d}``, ``{2 * k}``) and ``{...}`` otherwise."""
    out = []
    for v in node.values:
        if isinstance(v, ast.Constant):
            out.append(str(v.value))
            continue
        assert isinstance(v, ast.FormattedValue)  # an f-string holds constants and formatted values
        expr, spec = v.value, v.format_spec
        last = expr.attr if isinstance(expr, ast.Attribute) else expr.id if isinstance(expr, ast.Name) else None
        spec_text = "".join(str(getattr(p, "value", "")) for p in spec.values) \
            if isinstance(spec, ast.JoinedStr) else ""
        numeric = (last is not None and bool(_NUMERIC_NAME.search(last.lower()))) or spec_text.endswith(("d", "x")) \
            or isinstance(expr, ast.BinOp) or (isinstance(expr, ast.Call) and getattr(expr.func, "id", "") in
                                               ("int", "len"))
        out.append("{#}" if numeric else "{...}")
    return "".join(out)


def name_regex(text: str) -> str:
    """A kernel-name pattern as a regex: ``{#}`` a number, ``{...}`` nothing or one or two name tokens (a dtype,
    a variant: "bf16", "fp4_e2m1"), never an arbitrary tail, so f"expert_{idx}" does not match expert_gather."""
    token = "(?:[A-Za-z0-9]+(?:_[A-Za-z0-9]+)?)?"  # may be empty: f"smallm{pre}_p1" with pre = "" 
    parts = re.split(r"(\{#\}|\{\.\.\.\})", text)
    return "^" + "".join(r"\d+" if p == "{#}" else token if p == "{...}" else re.escape(p) for p in parts) + "$"


def specific(text: str) -> bool:
    """Whether an f-string pattern says enough to name a kernel: f"{a}_{b}" matches anything."""
    parts = [p for p in re.split(r"\{(?:#|\.\.\.)\}", text) if p]
    return sum(len(p) for p in parts) >= 5 and any(len(p) >= 4 for p in parts)
