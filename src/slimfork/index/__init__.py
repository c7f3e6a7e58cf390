"""The index: one cached, read-only summary per Python file."""

from slimfork.index.build import Index, build_index, summary_of
from slimfork.index.parse import summarize
from slimfork.index.summary import DynamicImport, ImportEdge, ModuleSummary

__all__ = ["DynamicImport", "ImportEdge", "Index", "ModuleSummary", "build_index", "summarize", "summary_of"]
