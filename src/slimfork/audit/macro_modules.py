"""The names a build gives a Python extension module declared under a macro (``PYBIND11_MODULE(PY_NAME, m)``):
the values build files define the macro to (CMake ``target_compile_definitions(t PRIVATE PY_NAME=${PY_NAME})`` or
``-DPY_NAME=x``, a ``setup.py``'s ``define_macros=[("PY_NAME", "x")]``), a CMake ``${VAR}`` read from every
``set(VAR value)`` of the same file. None where no build file defines it or a value stays unknown."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from slimfork.audit.builders import is_cmake

_MACRO = re.compile(r"[A-Z][A-Z0-9_]*")
_VAR = re.compile(r"\$\{(\w+)\}")
_NAME = re.compile(r"[A-Za-z_]\w*")


def is_macro(name: str) -> bool:
    """An all-capitals module name (``PY_NAME``) is a macro a build defines (``TORCH_EXTENSION_NAME`` included)."""
    return _MACRO.fullmatch(name) is not None


def macro_module_names(root: Path, build_files: list[str], macro: str) -> list[str] | None:
    defines = [re.compile(rf"(?<![\w$]){re.escape(macro)}=\"?([\w.${{}}-]+)"),  # NAME=value, -DNAME=value
               re.compile(rf"\(\s*['\"]{re.escape(macro)}['\"]\s*,\s*['\"]([\w.-]+)['\"]")]  # ("NAME", "value")
    sets = re.compile(r"\bset\s*\(\s*(\w+)\s+\"?([\w.-]+)\"?\s*\)", re.I)
    names: list[str] = []
    for rel in build_files:
        if not (is_cmake(rel) or posixpath.basename(rel) in ("setup.py", "Makefile", "makefile")):
            continue
        try:
            text = (root / rel).read_text(errors="replace")
        except OSError:
            continue
        if macro not in text:
            continue
        values = [m.group(1) for d in defines for m in d.finditer(text)]
        for value in values:
            refs = _VAR.findall(value)
            if len(refs) > 1 or refs and _VAR.sub("", value):
                return None  # PY_NAME=${A}_${B}: not spelled out here
            found = [m.group(2) for m in sets.finditer(text) if m.group(1) == refs[0]] if refs else [value]
            if not found or not all(_NAME.fullmatch(v) for v in found):
                return None
            names += found
    return list(dict.fromkeys(names)) or None
