"""The one parse of Python source, and the one per-file summary built from it (``summarize``)."""

from __future__ import annotations

import ast
import hashlib
import io
import tokenize
import warnings

from slimfork.index.bindings import BindingEvents, binding_events
from slimfork.index.imports import collect_imports
from slimfork.index.kernelscan import PyScan, scan_module
from slimfork.index.summary import ModuleSummary
from slimfork.index.walk import shared_walks
from slimfork.index.symbols import SymbolSummary, symbol_summary


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def summarize(data: bytes, sha: str | None = None) -> ModuleSummary:
    """Everything slimfork reads from one Python file, from a single parse: the graph's fields (imports, names,
    strings, dynamic imports), ``symbols`` (top-level statements, bindings, effects), ``scan`` (the audit's kernel
    definitions, loader calls, references and strings) and ``bindings`` (the facts' module-level bindings). A file
    that does not decode or parse gets each part's error."""
    sha = sha or content_hash(data)
    lines = count_lines(data)
    try:
        text = decode(data)
    except (UnicodeDecodeError, SyntaxError, LookupError) as exc:
        return _failed(ModuleSummary(sha, lines, error=f"cannot decode: {exc}"), exc)
    try:
        tree = parse_python(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        where = f" (line {exc.lineno})" if isinstance(exc, SyntaxError) and exc.lineno else ""
        return _failed(ModuleSummary(sha, lines, error=f"cannot parse{where}: {exc.__class__.__name__}: {exc}"), exc)
    summary = ModuleSummary(sha, lines)
    try:
        with shared_walks():
            collect_imports(tree, text, summary)
            summary.symbols = symbol_summary(tree)
            summary.scan = scan_module(tree)
            summary.bindings = binding_events(tree, text)
    except RecursionError as exc:  # parses, but nests deeper than the recursive visitors go (a 3,000-term "+")
        return _failed(ModuleSummary(sha, lines, error=f"cannot analyse: {exc.__class__.__name__}: {exc}"), exc)
    return summary


def _failed(summary: ModuleSummary, exc: Exception) -> ModuleSummary:
    summary.symbols = SymbolSummary(error=f"cannot parse: {exc.__class__.__name__}")
    summary.scan = PyScan(error=f"{exc.__class__.__name__}: {exc}")
    summary.bindings = BindingEvents(error=f"{exc.__class__.__name__}: {exc}")
    return summary


def count_lines(data: bytes) -> int:
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def decode(data: bytes) -> str:
    """Decode as Python does: BOM, then a PEP 263 coding line, else UTF-8."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)
    return text[1:] if text.startswith("\ufeff") else text


def parse_python(source: str | bytes, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse`` without the SyntaxWarnings that old code raises (invalid escapes, ``is`` with a literal): the one
    parse of Python source every stage uses."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source, filename)
