"""Registries that are string mappings: a module-level dict whose values name the modules that serve each key
(pygments' ``LEXERS``). The spec keeps some keys; the others are cut from the dict, so their modules leave."""

from slimfork.mapping.spec import MappingRegistry, parse_mappings

__all__ = ["MappingRegistry", "parse_mappings"]
