"""The source: a folder or a PyPI distribution, unpacked into the cache; never modified."""

from slimfork.source.fetch import resolve_source
from slimfork.source.layout import Distribution, SourceTree, open_tree

__all__ = ["Distribution", "SourceTree", "open_tree", "resolve_source"]
