"""One reporter per output format: ``render(result) -> str`` (table, json, markdown, sarif)."""

from __future__ import annotations

import importlib

FORMATS = ("table", "json", "markdown", "sarif")


def render(result, fmt: str, new_only: bool = False) -> str:
    return importlib.import_module(f"slimfork.audit.report.{fmt}").render(result, new_only=new_only)
