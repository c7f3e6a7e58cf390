"""Symbol pruning as a planning stage: cut declared dict registries, prune what no kept code references,
plan again (modules only pruned code imported leave the fork), until nothing more goes."""

from slimfork.prune.spec import DictRegistry, SymbolsSpec, parse_symbols

__all__ = ["DictRegistry", "SymbolsSpec", "parse_symbols"]
