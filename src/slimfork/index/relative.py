"""Relative imports resolved the one way Python does: ``from ..x import y`` written in a module."""

from __future__ import annotations


def package_of(module: str, is_package: bool) -> str:
    """The package a module's relative imports start from: a package's ``__init__`` starts from the package."""
    return module if is_package else module.rpartition(".")[0]


def absolute_module(package: str, level: int, module: str | None) -> str | None:
    """The absolute module of ``from <level dots><module> import ...`` written in ``package``; ``None`` where the
    dots climb above the top-level package."""
    if not level:
        return module
    base = package.split(".") if package else []
    if level - 1 > len(base):
        return None
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else [])) or None
