"""The keep spec: what to keep, where the source comes from, which facts hold."""

from slimfork.spec.load import load_spec, parse_spec
from slimfork.spec.model import RegistrySpec, Root, Spec

__all__ = ["RegistrySpec", "Root", "Spec", "load_spec", "parse_spec"]
