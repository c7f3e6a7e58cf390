"""`slimfork init`: draft a commented keep spec for a project nobody has read yet (roots, tests, platform facts
and registries found in the code, each suggestion with its evidence)."""

from slimfork.init.draft import draft_spec

__all__ = ["draft_spec"]
