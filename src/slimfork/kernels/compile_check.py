"""Compile JIT kernel units with ``nvcc -c`` (no GPU needed) in the original tree and in the fork.

A unit is what sglang's ``load_jit`` compiles: a generated ``cuda.cu`` that includes the tvm-ffi headers and
the unit's sources, then exports the wrappers with ``TVM_FFI_DLL_EXPORT_TYPED_FUNC``; include paths are the
JIT ``include/`` folder, the tvm-ffi headers and the unit's extra paths; flags are the loader's defaults for
an NVIDIA target plus the unit's own. The check passes for a unit when it compiles in the fork, or when it
did not compile in the original either (the fork must not break what worked).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from slimfork.source.fetch import fetch_pypi

# What sglang's loader passes for an NVIDIA build (jit/utils/arch.py and compile/toolchain.py), with the
# architecture filled in: SM90a (H100/H200, the DeepSeek serving target).
DEFAULT_FLAGS = ("-Xcompiler", "-fPIC", "-std=c++20", "-O3", "--expt-relaxed-constexpr")
_FFI_INCLUDES = ("tvm/ffi/container/tensor.h", "tvm/ffi/dtype.h", "tvm/ffi/error.h",
                 "tvm/ffi/extra/c_env_api.h", "tvm/ffi/function.h")


@dataclass(frozen=True)
class CompileUnit:
    """One JIT unit: sources relative to the JIT ``csrc/`` folder, wrappers as (export name, C++ callee)."""

    name: str
    cuda_files: tuple[str, ...]
    wrappers: tuple[tuple[str, str], ...] = ()
    include_paths: tuple[str, ...] = ()  # relative to the JIT folder, or absolute
    cuda_cflags: tuple[str, ...] = ()
    why: str = ""


@dataclass(frozen=True)
class CompileResult:
    ok: bool
    seconds: float
    log: str = ""  # the compiler's last lines when it failed
    command: tuple[str, ...] = ()


@dataclass(frozen=True)
class CompileCheck:
    unit: CompileUnit
    original: CompileResult
    fork: CompileResult

    @property
    def passed(self) -> bool:
        return self.fork.ok or not self.original.ok


@dataclass(frozen=True)
class Target:
    """The GPU the units are compiled for. ``ptx_only`` stops at PTX (no ptxas): same front end and
    preprocessor, about a third less time."""

    arch: str = "90a"
    sgl_cuda_arch: int = 900
    ptx_only: bool = True
    extra: tuple[str, ...] = field(default_factory=tuple)

    def flags(self) -> list[str]:
        code = f"compute_{self.arch}" if self.ptx_only else f"sm_{self.arch}"
        return [f"-DSGL_CUDA_ARCH={self.sgl_cuda_arch}", f"-gencode=arch=compute_{self.arch},code={code}",
                *self.extra]


def find_nvcc() -> str | None:
    """nvcc from $CUDA_HOME/bin, then PATH, then /usr/local/cuda/bin (as sglang's loader looks)."""
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    for candidate in ([os.path.join(home, "bin", "nvcc")] if home else []) + [shutil.which("nvcc") or "",
                                                                               "/usr/local/cuda/bin/nvcc"]:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def tvm_ffi_includes(version: str = "0.1.11") -> list[Path]:
    """The tvm-ffi header folders (the version sglang 0.5.23 pins), from its wheel on PyPI (cached)."""
    root = fetch_pypi("apache-tvm-ffi", version) / "tvm_ffi"
    return [root / "include", root / "3rdparty" / "dlpack" / "include"]


def wrapper_source(jit_root: Path, unit: CompileUnit) -> str:
    """The translation unit load_jit generates for a header-only module."""
    lines = [f"#include <{h}>" for h in _FFI_INCLUDES]
    lines += [f'#include "{(jit_root / "csrc" / f).as_posix()}"' for f in unit.cuda_files]
    lines.append("namespace sglang {")
    lines += [f"TVM_FFI_DLL_EXPORT_TYPED_FUNC({export}, ({callee}));" for export, callee in unit.wrappers]
    lines.append("}  // namespace sglang")
    return "\n".join(lines) + "\n"


def compile_unit(nvcc: str, jit_root: Path, unit: CompileUnit, ffi_includes: Sequence[Path],
                 target: Target = Target(), timeout: float = 600) -> CompileResult:
    jit_root = Path(jit_root)
    missing = [f for f in unit.cuda_files if not (jit_root / "csrc" / f).is_file()]
    if missing:
        return CompileResult(False, 0.0, f"source missing from the tree: {', '.join(missing)}")
    with tempfile.TemporaryDirectory(prefix=f"slimfork-nvcc-{unit.name}-") as work:
        source = Path(work) / "cuda.cu"
        source.write_text(wrapper_source(jit_root, unit))
        includes = [jit_root / "include", *ffi_includes,
                    *(p if Path(p).is_absolute() else jit_root / p for p in unit.include_paths)]
        cmd = [nvcc, "-c", str(source), "-o", str(Path(work) / "cuda.o"), *DEFAULT_FLAGS, *target.flags(),
               *unit.cuda_cflags, *(f"-I{p}" for p in includes)]
        start = time.monotonic()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return CompileResult(False, time.monotonic() - start, f"nvcc timed out after {timeout:.0f} s",
                                 tuple(cmd))
        log = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-20:]) if proc.returncode else ""
        return CompileResult(proc.returncode == 0, time.monotonic() - start, log, tuple(cmd))


def check_fork_compiles(original_jit: Path, fork_jit: Path, units: Sequence[CompileUnit],
                        ffi_includes: Sequence[Path], nvcc: str | None = None, jobs: int = 2,
                        target: Target = Target()) -> list[CompileCheck]:
    """Compile every unit in both trees (``jobs`` compilers at a time) and pair the results."""
    nvcc = nvcc or find_nvcc()
    if nvcc is None:
        raise FileNotFoundError("nvcc not found (set CUDA_HOME or put nvcc on PATH)")
    tasks = [(root, unit) for unit in units for root in (Path(original_jit), Path(fork_jit))]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda t: compile_unit(nvcc, t[0], t[1], ffi_includes, target), tasks))
    return [CompileCheck(unit, results[2 * i], results[2 * i + 1]) for i, unit in enumerate(units)]
