"""mlserve: a tiny model server."""

from mlserve.core.engine import Engine  # re-export: users write `from mlserve import Engine`

__all__ = ["Engine"]
__version__ = "1.2.0"
