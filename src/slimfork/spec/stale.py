"""The check every registry kind shares for stale keys: a `keep` pattern that matches none of the keys (module
names, dict keys, registered names) the registry has in the source, with the closest key as the hint."""

from __future__ import annotations

import fnmatch
import re

from slimfork.errors import Stale, closest


def key_matches(pattern: str, name: str) -> bool:
    """A registry's keep pattern: the key as written, a glob, or a regex written 're:...'. As written first: a key
    holding '[' (a deprecation message naming `[Class][pkg.Class]`) is no glob of itself."""
    if pattern.startswith("re:"):
        return re.fullmatch(pattern[3:], name) is not None
    return name == pattern or fnmatch.fnmatchcase(name, pattern)


def stale_keys(key: str, keep, names, where: str) -> list[Stale]:
    """One ``Stale`` per pattern of ``keep`` (the entry at ``key``) that matches none of ``names``, the keys of
    ``where`` ("sglang.srt.models.registry.EntryClass")."""
    names = sorted(set(names))
    out = []
    for j, pattern in enumerate(keep):
        if not any(key_matches(pattern, name) for name in names):
            hint = ("keys: " + ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")) if names else \
                f"{where} has no keys in the code the fork keeps"
            out.append(Stale(f"{key}.keep[{j}]", "registry key", f'key "{pattern}" matches no entry of {where}',
                             None if pattern.startswith("re:") else closest(pattern, names), hint, pattern))
    return out
