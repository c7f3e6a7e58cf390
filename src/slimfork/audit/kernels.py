"""Finding kind "unused-kernel": GPU kernels with no launch site in reached code, and kernel sources that
nothing reached loads or includes. The table itself is built in ``kerneltable``; this module judges it."""

from __future__ import annotations

import posixpath
import re
from dataclasses import replace
from collections.abc import Set as AbstractSet

from slimfork.audit.kerneltable import (
    READ_BY_GETATTR,
    SOLE_API,
    UNDEFINED_MACRO,
    UNNAMED_EXTENSION,
    Kernel,
    KernelTable,
    include_closure,
    referenced_kernel_files,
)
from slimfork.audit.model import Finding
from slimfork.audit.unused import is_example

_MAX_USES = 8
_NATIVE_TEST = re.compile(r"(^|/)tests?/(.*/)?[^/]*(_test|_tests|test_[^/]*)\.\w+$|(^|/)[^/]*_test\.(cu|cpp|cc)$")


def reached_native(table: KernelTable, reached_py: set[str] | None,
                   dead_loaders: frozenset[tuple[str | None, int | None]] = frozenset()) -> dict[str, str]:
    """Native sources reached code loads, names or includes (all of them when reachability is unknown)."""
    if reached_py is None:
        return {path: "" for path in table.native}
    named = referenced_kernel_files(table, reached_py, dead_loaders)
    closure = include_closure(table, set(named))
    while True:  # a kept native file that names another (a host looking a Metal kernel up by name) keeps it
        more = {path: f"named by {use.where()}" for path, uses in table.file_uses.items() if path not in closure
                for use in uses if use.path in closure}
        more.update({path: f"linked with {user}, which uses a function it defines" for path, users in
                     table.linked.items() if path not in closure and path not in more
                     for user in users if user in closure and user not in table.built})  # a build file of the
        # tree names all it compiles
        if not more:
            break
        named.update(more)
        closure = include_closure(table, set(closure) | set(more))
    return {path: named.get(path) or f"included by {closure[path]}" for path in closure}


def kernel_findings(table: KernelTable, reached_py: set[str] | None, public: AbstractSet[str] = frozenset(),
                    scripts: AbstractSet[str] = frozenset()) -> list[Finding]:
    """``public``: Python files that are public modules of a library package no code of the tree uses
    (``slimfork.audit.public``): a kernel only they launch is theirs, reported at their confidence (40).
    ``scripts``: unreached scripts, files tools run and what they import (reported at 30, may be run by hand): a
    kernel only they use is theirs, at 30."""
    def live_uses(kernel: Kernel, reached) -> list:
        return [u for u in kernel.uses if reached(u.path) and (u.path, u.function) not in table.uncalled]

    def python_reached(path: str) -> bool:
        return reached_py is None or path in reached_py

    # Loaders first: a source only an uncalled loader names is not reached (nor what it alone includes).
    loaders = [k for k in table.kernels if k.kind in ("jit", "cpp-extension")]
    dead = frozenset((k.path, k.line) for k in loaders
                     if not any(u.how != "import" for u in live_uses(k, python_reached)))
    native = reached_native(table, reached_py, dead)
    for path in table.stale_copies:  # a stale copy only a folder listing compiles: its copy is the one code names
        native.pop(path, None)

    def reached(path: str) -> bool:
        return path in native or python_reached(path)

    # sources only scripts name (hqq's setup_cuda.py, run by hand or by a build command) and what they include
    scripted = set(include_closure(table, {path for path in table.native if path not in native
                                            and (table.file_uses.get(path)
                                                 and all(u.path in scripts for u in table.file_uses[path])
                                                 or path in table.script_built)})) - set(native)
    # unbuilt programs (a source that defines main(): quack's microbenchmarks/gpu_pipe_microbench.cu, compiled with
    # nvcc by hand) and what only they include: like scripts, run by hand
    # (a tree whose build files build programs, ThunderKittens' Makefiles, builds the ones it means to run: there an
    # unbuilt program is stale)
    programs = {path for path in table.programs if path not in native and not _NATIVE_TEST.search(path)
                and not any(path.startswith(folder + "/") for folder in table.superseded)} \
        if not table.programs & set(table.built) else set()
    programmed = set(include_closure(table, programs)) - set(native)
    # sources built only into extensions nothing loads whose names are public (users may import them), and what
    # only they include: 40
    public_unloaded = set(include_closure(table, {path for path, (_why, confidence) in table.unloaded.items()
                                                  if confidence < 60})) - set(native)
    out: list[Finding] = []
    for kernel in table.kernels:
        if kernel.path is None:  # an op built outside the tree: used by definition, nothing to remove here
            continue
        live = live_uses(kernel, reached)
        if any(u.how != "import" for u in live):
            continue
        uncalled = {(u.path, u.function) for u in kernel.uses if reached(u.path)} & table.uncalled
        found = _kernel_finding(kernel, live, reached(kernel.path), uncalled, public, scripts)
        if kernel.path in scripted and found.confidence > 30:
            found = replace(found, confidence=30, reason=found.reason + "; its source is built or loaded only by "
                            "scripts, or files they import, which may be run by hand")
        elif kernel.path in public_unloaded and found.confidence > 40:
            found = replace(found, confidence=40, reason=found.reason + "; its source is built only into extensions "
                            "of public names, which code outside the tree may import")
        elif kernel.path in programmed and found.confidence > 30:
            found = replace(found, confidence=30, reason=found.reason + "; " + _program_reason(kernel.path, programs))
        out.append(found)
    out += _whole_files(table, out)
    includers: dict[str, list[str]] = {}
    for src, incs in table.includes.items():
        for inc in incs:
            includers.setdefault(inc, []).append(src)
    for path in table.native:
        if path not in native:
            named = table.file_uses.get(path, [])
            including = includers.get(path, [])
            stale = table.stale_copies.get(path)
            why = (f"a stale copy ({stale[1]}% alike) of {stale[0]}, which code names by path; only a listing of its"
                   f" folder picks this one up: " + ", ".join(u.where() for u in named[:3])) if stale \
                else ("only code nothing reaches names it: " + ", ".join(u.where() for u in named[:3])) if named \
                else ("included only by sources nothing builds, loads or includes: " + ", ".join(including[:3])) \
                if including \
                else "no Python string, loader, build file or #include in the tree names it"
            if path in table.unloaded and not named:  # pytorch_sparse's csrc/degree_padding.cpp
                why = table.unloaded[path][0]
            test = bool(_NATIVE_TEST.search(path))
            if test:  # a C++/CUDA test: an outside build (Bazel, Buck) may compile it
                why += "; it is a native test, which a build outside the tree may compile"
            confidence = 40 if test else 60 if named or including else 70
            if not named and not including and path.endswith(_HEADER_SUFFIXES) and (
                    exported := _exported_by(path, table.exported)):  # tiny-cuda-nn's include/tiny-cuda-nn/vec_json.h
                why += f"; it is a header of a folder a CMake library exports to its users ({exported})"
                confidence = min(confidence, 40)
            vendored = not named and not including and path.endswith(_HEADER_SUFFIXES) and \
                vendored_library(path)
            if vendored and not any(p.startswith(vendored) for p in native):
                vendored = None  # nothing of the copied library is used: a dead copy (tiny-cuda-nn's cutlass_b2b/)
            if vendored:  # xxhash's deps/xxhash/xxh3.h: an unused part of a used copied library, not a kernel
                why += f"; it is a header of a vendored library ({vendored}) the tree uses other files of: users of" \
                       " the library may include it, and a later copy of upstream brings it back"
                confidence = min(confidence, 40)
            label = table.labelled.get(posixpath.dirname(path)) if not named and not including else None
            if label and path.endswith(_COMPILED_SUFFIXES):  # tritonbench's load_library("//...:w2a16_gemm_lib")
                why += f"; a Buck or Bazel label names its folder ({label}), whose build file is outside the tree:" \
                       " a target there may build it"
                confidence = min(confidence, 40)
            if path in table.unloaded and not named:  # a build names it, but nothing runs or loads that build
                confidence = min(confidence, 60)
            if path in public_unloaded and not named:
                if path not in table.unloaded:
                    why += "; those sources are built only into extensions of public names no code of the tree loads"
                confidence = min(confidence, 40)
            if path in table.registered and not test:  # a prebuild of every registered module may still compile it
                why += f"; a source of the module {table.registered[path]}, which no Python code loads (its name" \
                       " is not named, or only in lists of several modules)"
                confidence = 60
            if path in table.script_built and not named and not including:  # a shell script run by hand
                why = f"only a shell script compiles it ({table.script_built[path]}), which may be run by hand"
                confidence = min(confidence, 30)
            elif named and all(u.path in scripts for u in named):  # a script compiles or loads it
                why += "; only scripts, or files they import, name it, which may be run by hand"
                confidence = 30
            elif not named and including and all(src in scripted for src in including):
                why += "; those sources are built or loaded only by scripts, which may be run by hand"
                confidence = min(confidence, 30)
            elif path in programmed:
                why += "; " + _program_reason(path, programs)
                confidence = min(confidence, 30)
            title = f"vendored header {path} is never included" if vendored else \
                f"kernel source {path} is never loaded or included"
            out.append(Finding("unused-kernel", f"source:{path}", title, why, confidence, path, None,
                               {"kernel_kind": "vendored-header" if vendored else "source"}))
    out += _idle_sources(table, native, includers)
    return out


def _idle_sources(table: KernelTable, native: dict[str, str], includers: dict[str, list[str]]) -> list[Finding]:
    """Compiled sources none of whose functions live code calls (``KernelTable.idle``), and the headers only they
    include: 50, since a program or library built outside the tree may still link them."""
    idle = {path: names for path, names in table.idle.items() if path in native}
    out = []
    for path, names in sorted(idle.items()):
        shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
        out.append(Finding("unused-kernel", f"source:{path}", f"kernel source {path} is compiled, but nothing calls it",
                           f"none of its {len(names)} functions ({shown}) is named by live native code or Python; "
                           f"{native[path] or 'it is built'}; a build outside the tree may still link it", 50, path,
                           None, {"kernel_kind": "source"}))
    for header, including in sorted(includers.items()):
        if header in native and header not in idle and not header.endswith(_COMPILED_SUFFIXES) and including \
                and all(src in idle for src in including) and not table.file_uses.get(header):
            out.append(Finding("unused-kernel", f"source:{header}", f"kernel source {header} is never loaded or included",
                               "included only by compiled sources nothing calls: " + ", ".join(including[:3]), 50,
                               header, None, {"kernel_kind": "source"}))
    return out


_COMPILED_SUFFIXES = (".cu", ".cpp", ".cc", ".cxx", ".c", ".hip", ".mm")
_HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".cuh", ".inl", ".inc", ".hxx")


_VENDOR_FOLDERS = {"third_party", "thirdparty", "3rdparty", "third-party", "vendor", "vendored", "external",
                   "extern", "deps", "contrib"}


def vendored_library(path: str) -> str | None:
    """The folder of the vendored library holding ``path``: the folder below one named for vendored code
    (``deps/xxhash/``, ``third_party/x/``); else None. A folder with a licence file of its own is no sign (keops'
    ``rkeops/`` is the project's own R package)."""
    parts = path.split("/")[:-1]
    for i, part in enumerate(parts):
        if part.lower() in _VENDOR_FOLDERS:
            return "/".join(parts[:i + 2]) + "/"
    return None


def _exported_by(path: str, exported: dict[str, str]) -> str | None:
    """Where a folder holding ``path`` (at any depth) is exported to a CMake library's users, if one is."""
    return next((why for folder, why in exported.items() if folder == "." or path.startswith(folder + "/")), None)


def _program_reason(path: str, programs: set[str]) -> str:
    if path in programs:
        return "it defines main(): a program of its own, compiled and run by hand"
    return "only programs of their own (sources that define main(), compiled and run by hand) include it"


def _whole_files(table: KernelTable, findings: list[Finding]) -> list[Finding]:
    """Kernel files (``.metal``, ``.cu``, Triton modules) every kernel of which is unused: one finding each."""
    unused = {f.subject: f for f in findings}
    by_file: dict[str, list[Kernel]] = {}
    for k in table.kernels:
        if k.path and k.kind in ("metal", "cuda", "triton"):
            by_file.setdefault(k.path, []).append(k)
    out = []
    for path, kernels in sorted(by_file.items()):
        if len(kernels) < 2 or not all(k.id in unused for k in kernels):
            continue
        confidence = min(unused[k.id].confidence for k in kernels)
        out.append(Finding("unused-kernel", f"kernels-of:{path}", f"all {len(kernels)} kernels of {path} are unused",
                           "each has no launch site in reached code (see its own finding)", confidence, path, None,
                           {"kernel_kind": "file", "kernels": [k.name for k in kernels]}))
    return out


def _kernel_finding(kernel: Kernel, live, defined_in_reached: bool, uncalled=frozenset(),
                    public: AbstractSet[str] = frozenset(), scripts: AbstractSet[str] = frozenset()) -> Finding:
    dead = [u for u in kernel.uses if u not in live]
    if live:  # imported somewhere, never called: the import may be public API
        reason = "imported but never called: " + ", ".join(u.where() for u in live[:3])
        confidence = 40
    elif dead and all((u.path, u.function) in uncalled for u in dead):  # (in reached files)
        reason = "launched only in functions nothing calls: " + ", ".join(u.where() for u in dead[:3])
        confidence = 50  # those functions may be public API a user calls
    elif dead:
        reason = "used only in code nothing reaches: " + ", ".join(u.where() for u in dead[:3])
        confidence = 60
    else:
        reason = {
            "triton": "no reference to it outside its own body, by import, attribute or string",
            "jit": "the function that loads it is never referenced",
            "cpp-extension": "the function that loads it is never referenced",
            "cuda": "its name appears in no other native line and no Python string or f-string pattern",
            "metal": "no Python string or f-string pattern names it",
            "torch-op": "no torch.ops reference names it",
            "pybind": "no Python code reads the name from the module",
        }.get(kernel.kind, "no use found")
        confidence = 80 if kernel.kind in ("triton", "jit", "cpp-extension", "metal") else 70
    if not defined_in_reached:
        reason += "; its file is not reached either"
    if dead and not live and all(u.path in public for u in dead):
        reason += "; the code that launches it is a public module of the library, which users may call"
        confidence = min(confidence, 40)
    if dead and not live and all(is_example(u.path) for u in dead):  # mlx's examples/extensions: _ext.axpby
        reason += "; only example or documentation code uses it, which users run by hand"
        confidence = min(confidence, 30)
    elif dead and not live and all(u.path in scripts for u in dead):  # exllamav2's conversion/ uses sim_anneal
        reason += "; only scripts, or files they import, use it, which may be run by hand"
        confidence = min(confidence, 30)
    if kernel.note in (UNNAMED_EXTENSION, UNDEFINED_MACRO):  # unknown means keep
        confidence = min(confidence, 30)
    if kernel.kind == "pybind" and READ_BY_GETATTR in kernel.note and not live:  # names unknown: maybe this one
        reason += "; " + READ_BY_GETATTR
        confidence = min(confidence, 40)
    if kernel.kind == "pybind" and SOLE_API in kernel.note and not live:  # thunderkittens.cylon: users call it
        reason += "; " + SOLE_API
        confidence = min(confidence, 40)
    if kernel.kind == "torch-op":  # registered with TORCH_LIBRARY: any user may call torch.ops.ns.name
        reason += "; a registered op is public API of the library"
        confidence = min(confidence, 40)
    if kernel.kind == "cuda" and not live and "/include/" in f"/{kernel.path}":  # with or without dead uses
        reason += "; it is in a public header (include/), which code outside the tree may launch"
        confidence = min(confidence, 40)
    if kernel.path and _NATIVE_TEST.search(kernel.path):
        reason += "; it is in a native test, which a build outside the tree may compile"
        confidence = min(confidence, 40)
    details = {"kernel_kind": kernel.kind, "name": kernel.name, "defined": kernel.where(),
               "uses": [u.where() for u in kernel.uses[:_MAX_USES]], "sources": kernel.sources}
    if kernel.note:
        details["note"] = kernel.note
    return Finding("unused-kernel", kernel.id, f"{kernel.kind} kernel {kernel.name} has no launch site in reached code",
                   reason, confidence, kernel.path, kernel.line, details)


def table_json(table: KernelTable) -> list[dict]:
    """The whole table, for ``--kernel-table``: every kernel with its definition and uses."""
    return [{"id": k.id, "kind": k.kind, "name": k.name, "defined": k.where(), "sources": k.sources,
             "uses": [u.where() for u in k.uses], "note": k.note} for k in table.kernels]
