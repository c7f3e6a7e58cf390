"""Formatting-preserving rewrites (LibCST): fold platform facts and delete the dead code."""

from slimfork.rewrite.file import FoldContext, fold_source
from slimfork.rewrite.report import FileFold, FoldReport
from slimfork.rewrite.tree import fold_tree

__all__ = ["FileFold", "FoldContext", "FoldReport", "fold_source", "fold_tree"]
