"""``[facts.preprocessor]``: C preprocessor macros the fork's platform defines or leaves undefined.

A macro named here is *known*: ``defined`` gives it a value, ``undefined`` says no compiler of the target
platform defines it. Every other macro is unknown, and the conditionals that test it are left as they are
(``__CUDA_ARCH__``, ``CUDA_VERSION``, ...). See docs/kernels.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from slimfork.errors import SpecError
from slimfork.spec.schema import Field, Section, check_table

PREPROCESSOR = Section(
    "facts.preprocessor",
    "C/CUDA preprocessor facts folded into kernel sources with unifdef (.cu .cuh .h .hpp .cpp .c).",
    [
        Field("undefined", "list[str]", "Macros the target platform never defines, e.g. ['USE_ROCM', "
              "'USE_MUSA', '__HIP_PLATFORM_AMD__']: '#ifdef USE_ROCM' branches are removed."),
        Field("defined", "table", "Macros the target platform defines, with their value: "
              "{ SOME_MACRO = \"1\" } (a string holding an integer or a macro name, or an integer)."),
    ],
)

_MACRO = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_VALUE = re.compile(r"^(-?[0-9]+[uUlL]*|[A-Za-z_][A-Za-z0-9_]*)$")


@dataclass(frozen=True)
class PreprocessorFacts:
    """Macros with a known state. ``defined`` maps a macro to its value (text, as on a -D option)."""

    defined: dict[str, str] = field(default_factory=dict)
    undefined: tuple[str, ...] = ()
    key: str = "facts.preprocessor"

    def __bool__(self) -> bool:
        return bool(self.defined or self.undefined)

    def known(self) -> set[str]:
        return set(self.defined) | set(self.undefined)

    def unifdef_args(self) -> list[str]:
        """The -D/-U options that tell unifdef these facts."""
        args = [f"-D{name}={value}" for name, value in sorted(self.defined.items())]
        return args + [f"-U{name}" for name in sorted(self.undefined)]


def parse_preprocessor(raw: dict[str, Any], key: str = "facts.preprocessor") -> PreprocessorFacts:
    """Validate the raw ``[facts.preprocessor]`` table; every problem raises SpecError with its key path."""
    if raw is None:
        return PreprocessorFacts(key=key)
    if not isinstance(raw, dict):
        raise SpecError("expected a table", key=key, hint=PREPROCESSOR.doc)
    check_table(raw, Section(key, PREPROCESSOR.doc, PREPROCESSOR.fields))
    undefined: list[str] = []
    for i, name in enumerate(raw.get("undefined", [])):
        _check_name(name, f"{key}.undefined[{i}]")
        if name in undefined:
            raise SpecError(f"macro '{name}' is listed twice", key=f"{key}.undefined[{i}]",
                            hint="name each macro once")
        undefined.append(name)
    defined: dict[str, str] = {}
    for name, value in raw.get("defined", {}).items():
        where = f"{key}.defined.{name}"
        _check_name(name, where)
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise SpecError(f"the value of '{name}' must be a string or an integer", key=where,
                            hint='write SOME_MACRO = "1" (unifdef needs a number or a macro name)')
        text = str(value).strip()
        if not _VALUE.match(text):
            raise SpecError(f"'{value}' is not a value unifdef can use", key=where,
                            hint="an integer such as \"1\" or \"12080\", or the name of another macro")
        if name in undefined:
            raise SpecError(f"macro '{name}' is both defined and undefined", key=where,
                            hint=f"remove it from {key}.undefined or from {key}.defined")
        defined[name] = text
    return PreprocessorFacts(defined=defined, undefined=tuple(undefined), key=key)


def _check_name(name: Any, where: str) -> None:
    if not isinstance(name, str) or not _MACRO.match(name):
        raise SpecError(f"'{name}' is not a C macro name", key=where,
                        hint="a C identifier such as USE_ROCM or __HIP_PLATFORM_AMD__")


KERNELS = Section(
    "kernels",
    "Where the tree keeps JIT-compiled kernel sources, so kernel sources no kept Python code reaches leave the fork.",
    [
        Field("csrc", "list[str]", "Folders (relative to the source) holding kernel sources that Python code names "
              "in load_jit(..., cuda_files=[...]) or cpp_extension.load(sources=[...]), e.g. "
              "'sglang/kernels/jit/csrc'.", required=True),
        Field("include", "list[str]", "Include folders passed to the compiler, e.g. 'sglang/kernels/jit/include'."),
    ],
)


@dataclass(frozen=True)
class KernelDirs:
    csrc: tuple[str, ...]
    include: tuple[str, ...] = ()


def parse_kernels(raw: dict[str, Any], key: str = "kernels") -> KernelDirs:
    if not isinstance(raw, dict):
        raise SpecError("expected a table", key=key, hint=KERNELS.doc)
    check_table(raw, Section(key, KERNELS.doc, KERNELS.fields))
    return KernelDirs(tuple(p.strip("/") for p in raw["csrc"]), tuple(p.strip("/") for p in raw.get("include", [])))
