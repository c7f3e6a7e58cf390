"""The kernel table: every GPU kernel of the tree, where it is defined and where it is used.

Kinds: ``triton`` (``@triton.jit`` functions), ``jit`` (``load_jit("name", cuda_files=[...])``),
``cpp-extension`` (``torch.utils.cpp_extension.load(sources=[...])`` and wrappers of it), ``cuda``
(``__global__`` functions), ``torch-op`` (``TORCH_LIBRARY`` ``m.def`` and ``torch.ops.NS.NAME`` uses, also of
ops built outside the tree), ``pybind`` (``PYBIND11_MODULE`` ``m.def``), ``metal`` (``kernel void`` in
``.metal`` files, looked up by name from Python).
"""

from __future__ import annotations

import difflib
import os
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

from slimfork.audit.builders import (
    cmake_sources,
    exported_include_dirs,
    extension_names,
    makefile_sources,
    r_package_sources,
    setup_folder_sources,
    setup_scripts,
    shell_sources,
    unloaded_extension_sources,
    superseded_cmake_projects,
    unread_cmake_files,
    sole_api_extensions,
)
from slimfork.audit.hidden_roots import native_named_files
from slimfork.audit.json_modules import entry_strings, is_native_path, json_registries, listing_lines, written_lines
from slimfork.audit.macro_modules import is_macro, macro_module_names
from slimfork.audit.links import Linker, SourceResolver, Use
from slimfork.audit.linked_sources import linked_sources
from slimfork.audit.meson_build import meson_sources
from slimfork.audit.buck_build import buck_sources, labelled_folders
from slimfork.audit.scan import TreeScan, scan_tree
from slimfork.audit.unused import is_test_file
from slimfork.graph.modules import ModuleMap
from slimfork.index.native_functions import HostFunction
from slimfork.index.build import Index
from slimfork.index.kernel_names import name_regex, specific

_COMPILED = (".cu", ".cpp", ".cc", ".cxx", ".c", ".hip", ".mm")  # sources a compiler is given (no headers)


@dataclass
class Kernel:
    id: str  # unique and stable: "triton:pkg/ops.py::_fwd_kernel", "jit:hicache", "torch-op:ns::name"
    kind: str
    name: str
    path: str | None  # where it is defined (None: outside the tree)
    line: int | None
    uses: list[Use] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)  # native files a loader compiles (jit, cpp-extension)
    note: str = ""  # what the audit could not see, e.g. "sources computed at run time"

    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.path else "outside this tree"


READ_BY_GETATTR = "a file that imports its extension reads names from it with getattr and a computed name"
SOLE_API = ("its extension is the whole Python API of a distribution its setup.py builds (no package or module "
            "beside it), which users call")
UNDEFINED_MACRO = "its module is named by a macro no build file of the tree defines: its users cannot be found"
UNNAMED_EXTENSION = ("its module is named TORCH_EXTENSION_NAME by a build that neither a loader nor a setup.py "
                     "extension of the tree names: its users cannot be found")


@dataclass
class KernelTable:
    kernels: list[Kernel]
    file_uses: dict[str, list[Use]]  # native source -> Python places that name it (loaders, strings, lookups)
    includes: dict[str, list[str]]  # native source -> native sources it includes
    unknown_loaders: list[Use]  # loaders whose sources the audit cannot name: everything they may load is kept
    native: list[str]  # every native source of the tree
    built: dict[str, str] = field(default_factory=dict)  # sources a CMake file compiles -> "built by CMakeLists.txt:81"
    # sources only a shell script no Python or build file runs compiles -> "built by cuda_test/compile.sh:2": by hand
    script_built: dict[str, str] = field(default_factory=dict)
    uncalled: set[tuple[str, str]] = field(default_factory=set)  # (path, function) of top-level functions holding
    # a kernel launch that nothing references (or only other such functions of the same file)
    programs: set[str] = field(default_factory=set)  # native sources that define main(): programs of their own
    stale_copies: dict[str, tuple[str, int]] = field(default_factory=dict)  # a source only a folder listing picks
    # up -> (a copy of it that code names by path, how alike in percent): aiter's csrc/transpose_operator.cu
    registered: dict[str, str] = field(default_factory=dict)  # sources of modules a JSON file registers ->
    # "module_pa_v1 of aiter/jit/optCompilerConfig.json"
    # sources built only into setup.py extensions no Python code imports or names -> why (pytorch_sparse's
    # csrc/degree_padding.cpp, built as torch_sparse._degree_padding, missing from the load_library list)
    # and sources only a CMakeLists.txt no CMake build reads names -> (why, confidence)
    unloaded: dict[str, tuple[str, int]] = field(default_factory=dict)
    # (file, line) of an m.def in a binder function -> the files whose PYBIND11_MODULE body reaches that function
    bound_by: dict[tuple[str, int], set[str]] = field(default_factory=dict)
    # folders a CMake library exports to its users (target_include_directories(lib PUBLIC include)) -> where
    exported: dict[str, str] = field(default_factory=dict)
    idle: dict[str, list[str]] = field(default_factory=dict)  # compiled sources with no kernel, binding or class,
    # none of whose functions any live code names -> those functions (gsplat's serial_backward.cu)
    uncalled_ops: set[tuple[str, str]] = field(default_factory=set)  # (namespace, op) defined here, called by nothing
    linked: dict[str, list[str]] = field(default_factory=dict)  # compiled source -> those of its folder that use a
    # function it defines (linked_sources): compiled into one library
    # folders a Buck or Bazel label in Python names whose build file is outside the tree -> where the label is
    labelled: dict[str, str] = field(default_factory=dict)
    superseded: set[str] = field(default_factory=set)  # folders of CMake projects nothing builds whose names say
    # their code was replaced (keops' old/): a program there is no program a user runs by hand

    def by_id(self) -> dict[str, Kernel]:
        return {k.id: k for k in self.kernels}


def kernel_table(tree_root: Path, index: Index, mm: ModuleMap | None = None, scan: TreeScan | None = None
                 ) -> KernelTable:
    if mm is None:
        from slimfork.audit.layout import audit_module_map, audit_tree

        mm = audit_module_map(audit_tree(Path(tree_root)), index)
    scan = scan or scan_tree(index)
    builder = _Builder(scan, mm, extension_names(Path(tree_root), list(index.files), sorted(scan.native)))
    builder.sole_api = sole_api_extensions(Path(tree_root), list(index.files))
    builder.py_file_names = {rel: [(t, ln) for t, ln in summary.strings if t.endswith(".py")]
                             for rel, summary in index.files.items()}
    builder.root = str(tree_root)
    builder.build_files = index.other_files + [p for p in index.files if posixpath.basename(p) == "setup.py"]
    builder.json_modules(index.other_files)
    table = builder.build()
    table.registered = builder.registered
    table.bound_by = builder.bound_by
    table.programs = {rel for rel, nat in scan.native.items() if any(fn.name == "main" for fn in nat.functions)}
    superseded = superseded_cmake_projects(Path(tree_root), index.other_files, list(index.files))
    table.superseded = {posixpath.dirname(rel) for rel in superseded}
    unread = {**unread_cmake_files(Path(tree_root), index.other_files, list(index.files)), **superseded}
    table.built = cmake_sources(Path(tree_root), index.other_files, table.native, set(unread))
    table.exported = exported_include_dirs(Path(tree_root), index.other_files, set(unread))
    for path, why in makefile_sources(Path(tree_root), index.other_files, table.native).items():
        table.built.setdefault(path, why)
    for path, why in r_package_sources(Path(tree_root), index.other_files, table.native).items():
        table.built.setdefault(path, why)
    for path, why in meson_sources(Path(tree_root), index.other_files, table.native).items():
        table.built.setdefault(path, why)
    for path, why in buck_sources(Path(tree_root), index.other_files, table.native).items():
        table.built.setdefault(path, why)
    table.labelled = labelled_folders(Path(tree_root), list(index.files), table.native, index.other_files)
    run_scripts = _run_scripts(Path(tree_root), list(index.files), index.other_files)
    for path, why in shell_sources(Path(tree_root), index.other_files, table.native).items():
        script = why.removeprefix("built by ").rsplit(":", 1)[0]
        if script in run_scripts:  # build.py's subprocess.call(['./build.sh', ...]): part of the build
            table.built.setdefault(path, why)
        elif path not in table.built:
            table.script_built[path] = why
    # an extension nothing loads: its sources are dead weight however the setup.py finds them
    table.unloaded = {path: found for path, found in unloaded_extension_sources(
        Path(tree_root), list(index.files), table.native).items() if path not in table.built}
    for path, why in setup_folder_sources(Path(tree_root), list(index.files), table.native).items():
        if path not in table.unloaded:
            table.built.setdefault(path, why)
    for rel, why in unread.items():  # sources only a CMakeLists.txt no build reads lists
        for path in cmake_sources(Path(tree_root), [rel], table.native):
            if path not in table.built:
                table.unloaded.setdefault(path, (f"named only by {rel}: {why}", 60))
    if table.unloaded:
        scripts = set(setup_scripts(Path(tree_root), list(index.files)))
        for path in table.unloaded:
            table.file_uses[path] = [u for u in table.file_uses.get(path, ()) if u.path not in scripts]
    unbuilt_export_copies(table)
    unbuilt_module_exports(table)
    table.stale_copies = stale_copies(str(tree_root), table)
    table.idle = idle_sources(str(tree_root), table, scan)
    table.linked = linked_sources(scan)
    return table


def unbuilt_export_copies(table: KernelTable) -> None:
    """An export several sources define under one module name (k2's old ``k2/python/csrc/torch/nbest.cu`` beside
    ``k2/torch/python/csrc/nbest.cu``, both bound into ``_k2``): where a build compiles some copies and others are
    named only by build files no build reads, Python's reads load the built ones; the others lose those uses."""
    copies: dict[str, list[Kernel]] = {}
    for k in table.kernels:
        if k.kind == "pybind" and k.path:
            copies.setdefault(k.name, []).append(k)
    for same in copies.values():
        if len(same) < 2 or not any(k.path in table.built for k in same):
            continue
        for k in same:
            if k.path in table.unloaded and k.path not in table.built:
                dropped = set(k.uses)
                k.uses = []
                k.note = (k.note + "; " if k.note else "") + "its reads load a copy a build compiles"
                table.file_uses[k.path] = [u for u in table.file_uses.get(k.path, ()) if u not in dropped]


def unbuilt_module_exports(table: KernelTable) -> None:
    """Exports a binder function in a source no build compiles (named only by build files no build reads, or by
    extensions nothing loads) binds, where each ``PYBIND11_MODULE`` body reaching that function is built (a built
    module cannot link a source no build compiles) or is itself such a source that no Python code reads names of:
    Python's reads of those exports load nothing of the binder's source (k2's ``k2/python/host/csrc/properties.cc``
    binds ``_is_valid`` into ``_k2host``, whose ``k2.cc`` sits behind a commented-out ``add_subdirectory(host)``).
    A body Python reads keeps its binders, as its own exports do; the reads stay the export's (no finding of its
    own): its source is the finding."""
    def unbuilt(path: str) -> bool:
        return path in table.unloaded and path not in table.built

    for kernel in table.kernels:
        bodies = table.bound_by.get((kernel.path or "", kernel.line or 0))
        if not bodies or not kernel.uses or not kernel.path or not unbuilt(kernel.path):
            continue
        if not all(b in table.built or unbuilt(b) and not table.file_uses.get(b) for b in bodies):
            continue
        unbuilt_bodies = sorted(b for b in bodies if unbuilt(b))
        kernel.note = (kernel.note + "; " if kernel.note else "") + (
            f"bound into a module no build compiles ({unbuilt_bodies[0]}: {table.unloaded[unbuilt_bodies[0]][0]})"
            if unbuilt_bodies else "bound into a module whose build does not compile this source")
        table.file_uses[kernel.path] = [u for u in table.file_uses.get(kernel.path, ()) if u not in kernel.uses]


def _run_scripts(root: Path, python_paths: list[str], other_files: list[str]) -> set[str]:
    """The shell scripts of the tree a Python file or a build file names in a string (``subprocess.call(['./build.sh',
    ...])``, a Makefile's ``sh build.sh``): a build runs them. Others are run by hand, like scripts."""
    scripts = [p for p in other_files if p.endswith((".sh", ".bash"))]
    if not scripts:
        return set()
    names = {posixpath.basename(p) for p in scripts}
    pattern = re.compile(r"[\w./-]*\b(?:" + "|".join(re.escape(n) for n in sorted(names)) + r")\b")
    out: set[str] = set()
    builds = [p for p in other_files if posixpath.basename(p) in ("Makefile", "CMakeLists.txt")
              or p.endswith((".cmake", ".mk"))]
    for rel in [*python_paths, *builds]:
        try:
            text = (root / rel).read_text(errors="replace")
        except OSError:
            continue
        for m in pattern.finditer(text):
            name = m.group(0).removeprefix("./")
            here = posixpath.dirname(rel)
            for script in scripts:
                if script == posixpath.normpath(posixpath.join(here, name)) or script == name or (
                        "/" not in name and posixpath.basename(script) == name and posixpath.dirname(script) == here):
                    out.add(script)
    return out


_CLASS_OR_LINKAGE = re.compile(r"\b(?:class|struct|union)\s+\w+[^;{()]*\{|\bextern\s*\"C|__attribute__\s*\(\(\s*constructor"
                               r"|\boperator\b|~\w+\s*\(|\bPyMODINIT_FUNC\b|\bPyInit_|\bPyMethodDef\b|\bPy_InitModule")


def idle_sources(root: str, table: KernelTable, scan: TreeScan) -> dict[str, list[str]]:
    """Compiled sources (not headers) that define functions but no kernel, binding, op, ``main`` or class, none of
    whose functions live code names (``uncalled_host_functions``), and whose own header (same file name) no other
    source includes: linked into the extension, called by nothing (gsplat's ``serial_backward.cu``, globbed by
    ``setup.py``, its functions named only in ``serial_backward.cuh``, which only it includes). A class (whose methods a framework may call by an inherited name), a destructor or operator,
    ``extern "C"`` linkage, a constructor attribute, a CPython module (``PyInit_``, ``PyMethodDef``) or a Cython
    module of its name beside it keeps the file out: code may reach those without naming them. A source whose
    ``TORCH_LIBRARY_IMPL`` implements only ops of the tree that nothing calls counts too (torch-harmonics'
    ``disco_cpu_legacy.cpp``, the only implementation of ``disco_kernels::forward_legacy``)."""
    out: dict[str, list[str]] = {}
    includers: dict[str, list[str]] = {}
    for src, incs in table.includes.items():
        for inc in incs:
            includers.setdefault(inc, []).append(src)
    for rel, nat in scan.native.items():
        if not rel.endswith(_COMPILED) or nat.kernels or nat.modules or rel in table.programs:
            continue
        if not all((ns, name) in table.uncalled_ops for ns, name, _line in nat.impls):
            continue  # it implements an op some code calls (or one defined outside the tree: unknown)
        stem = rel.rsplit(".", 1)[0]
        if any(stem + suffix in scan.py or (Path(root) / (stem + suffix)).is_file() for suffix in (".pyx", ".py")):
            continue  # generated from (or beside) a Cython or Python module of its name: the interpreter calls it
        functions = [fn.name for fn in nat.functions if not fn.macro]
        if not functions or any((rel, name) not in table.uncalled for name in functions):
            continue
        own = [inc for inc in table.includes.get(rel, ()) if inc.rsplit(".", 1)[0].rsplit("/", 1)[-1]
               == stem.rsplit("/", 1)[-1] and not inc.endswith(_COMPILED)]
        if not own or any(other != rel for inc in own for other in includers.get(inc, ())):
            continue  # its interface header (serial_backward.cuh) is included by no other source
        try:
            text = (Path(root) / rel).read_text(errors="replace")
        except OSError:
            continue
        if _CLASS_OR_LINKAGE.search(text):
            continue
        out[rel] = sorted(set(functions))
    return out


_STALE_SIMILARITY = 90  # percent of code lines two sources share to be copies of one file


def stale_copies(root: str, table: KernelTable) -> dict[str, tuple[str, int]]:
    """Native sources that only folder listings pick up (a build helper compiling every source of ``csrc/``),
    nothing names by path, includes or builds by name, and that are copies (90%+ alike, code lines compared) of a
    source of the same file name that code does name by path: the stale copy left behind when a source moved
    (aiter's ``csrc/transpose_operator.cu`` beside the loaded ``csrc/kernels/transpose_operator.cu``)."""
    included = {inc for incs in table.includes.values() for inc in incs}
    by_base: dict[str, list[str]] = {}
    for path in table.native:
        by_base.setdefault(posixpath.basename(path), []).append(path)

    def specific(path: str) -> bool:
        return path in table.built or path in included or any(
            u.how != "folder string" for u in table.file_uses.get(path, ()))

    out: dict[str, tuple[str, int]] = {}
    texts: dict[str, list[str] | None] = {}
    for base, paths in by_base.items():
        if len(paths) < 2:
            continue
        named = [p for p in paths if specific(p)]
        for path in paths:
            uses = table.file_uses.get(path, ())
            if path in named or not uses or not path.endswith(_COMPILED):
                continue
            for other in named:
                alike = _alike(root, path, other, texts)
                if alike >= _STALE_SIMILARITY:
                    out[path] = (other, alike)
                    break
    return out


def _alike(root: str, a: str, b: str, texts: dict[str, list[str] | None]) -> int:
    for path in (a, b):
        if path not in texts:
            try:
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as fh:
                    raw = fh.read()
            except OSError:
                texts[path] = None
                continue
            raw = re.sub(r"/\*.*?\*/|//[^\n]*", "", raw, flags=re.S)
            texts[path] = [ln.strip() for ln in raw.splitlines() if ln.strip()]
    ta, tb = texts[a], texts[b]
    if not ta or not tb:
        return 0
    matcher = difflib.SequenceMatcher(None, ta, tb, autojunk=False)
    if 100 * matcher.real_quick_ratio() < _STALE_SIMILARITY or 100 * matcher.quick_ratio() < _STALE_SIMILARITY:
        return 0
    return int(100 * matcher.ratio())


def referenced_kernel_files(table: KernelTable, kept_python_paths: set[str],
                            ignore_sites: frozenset[tuple[str | None, int | None]] = frozenset()) -> dict[str, str]:
    """Native sources that kept Python code names (directly, not through #include), each with the reason.
    ``ignore_sites``: (path, line) of Python uses not to count (loaders whose function nothing calls)."""
    out: dict[str, str] = dict(table.built)  # a build file compiles them: kept like the build itself
    for path, uses in table.file_uses.items():
        for use in uses:
            if use.path in kept_python_paths and (use.path, use.line) not in ignore_sites:
                out[path] = f"named by {use.where()}"
                break
    for use in table.unknown_loaders:
        if use.path in kept_python_paths:
            package = use.path.split("/", 1)[0]
            for path in table.native:
                if path.startswith(package + "/") and path not in out:
                    out[path] = f"may be loaded by {use.where()}: its sources are computed at run time"
    return out


def include_closure_of(path: str, includes) -> list[str]:
    """``path`` and what it includes, transitively (``includes(path)``: its direct includes)."""
    out, todo = [path], [path]
    while todo:
        for inc in includes(todo.pop()):
            if inc not in out:
                out.append(inc)
                todo.append(inc)
    return out


def include_closure(table: KernelTable, start: set[str]) -> dict[str, str]:
    """``start`` and every native source they include, transitively: path -> the file that includes it."""
    out = {path: "" for path in start}
    todo = list(start)
    while todo:
        path = todo.pop()
        for inc in table.includes.get(path, ()):
            if inc not in out:
                out[inc] = path
                todo.append(inc)
    return out


class _Builder:
    def __init__(self, scan: TreeScan, mm: ModuleMap, extensions: dict[str, list[str]]):
        self.scan, self.mm, self.extensions = scan, mm, extensions
        self.linker = Linker(scan, mm)
        self.sole_api: set[str] = set()  # extensions that are a distribution's whole Python API
        self.resolver = SourceResolver(sorted(scan.native))
        self.kernels: list[Kernel] = []
        self.file_uses: dict[str, list[Use]] = {}
        self.unknown: list[Use] = []
        self.consumed: set[tuple[str, int, str]] = set()  # (path, line, text) of strings a loader compiles
        self._strings: dict[str, list[tuple[str, int]]] | None = None
        self._closures: dict[str, set[str]] = {}  # native file -> itself and what it includes, transitively
        self._folders: dict[str, list[str]] | None = None  # folder -> the native files directly in it
        self._python_folders: set[str] = set()
        self._patterns: list[tuple[re.Pattern, str, int]] = []
        self._readers: dict[str, list[str]] = {}
        self._locals: dict[tuple[str, str], set[str]] = {}
        self.py_file_names: dict[str, list[tuple[str, int]]] = {}  # Python file -> the .py paths its strings name
        self.root: str | None = None
        self.build_files: list[str] = []  # build files and setup scripts: what may define a macro
        self.registered: dict[str, str] = {}
        self._written: dict[str, set[int]] = {}  # Python file -> lines of path expressions it only writes
        self.bound_by: dict[tuple[str, int], set[str]] = {}  # see KernelTable.bound_by

    def build(self) -> KernelTable:
        self.triton()
        self.loaders()
        self.native_kernels()
        self.source_strings()
        ids: dict[str, int] = {}
        for k in self.kernels:  # make ids unique: the same loader name used in two places
            ids[k.id] = ids.get(k.id, 0) + 1
        for k in self.kernels:
            if ids[k.id] > 1:
                k.id = f"{k.id}@{k.path}:{k.line}"
        includes = {rel: self.includes(rel) for rel in self.scan.native}
        return KernelTable(self.kernels, self.file_uses, includes, self.unknown, sorted(self.scan.native),
                           uncalled=self.uncalled_functions() | self.uncalled_host_functions(),
                           uncalled_ops={(ns, op) for nat in self.scan.native.values() for ns, op, _l in nat.impls
                                         if self.op_uncalled(ns, op)})

    def sees(self, user: str, definer: str, definers: set[str]) -> bool:
        """Whether a use in native file ``user`` may launch the kernel of ``definer``, one of ``definers`` (files
        defining kernels of one name): when ``user`` or what it includes defines one, only those are visible
        (gemlite's stale ``cuda/`` copy and llm-awq's ``gemm_cuda_old.cu`` define the live kernels' names: the live
        file's launches are its own kernels'); else any may be (a launcher in another file, linked). A definer that
        includes ``user`` sees it too: ``user`` is part of its translation unit (pytorch_cluster's ``THCGrid.cu``
        and stale ``kernel/grid.cu`` each define ``gridKernel`` and include a ``generic/`` file that launches it)."""
        for path in (user, *definers):
            if path not in self._closures:
                self._closures[path] = set(include_closure_of(path, self.includes))
        visible = {d for d in definers if d in self._closures[user] or user in self._closures[d]}
        return not visible or definer in visible

    def host_uses(self, name: str) -> list[Use]:
        """Where native code uses ``name``: the host functions (and macros) whose body names it, and the places
        outside any function; prototypes and explicit instantiations are not uses."""
        uses = []
        for rel, scan in self.scan.native.items():
            uses += [Use(rel, fn.line, fn.name, "macro" if fn.macro else "launch")
                     for fn in scan.functions if name in fn.uses]
            uses += [Use(rel, line, None, "launch") for line in scan.loose.get(name, ())]
        return uses

    def uncalled_host_functions(self) -> set[tuple[str, str]]:
        """(path, name) of native functions and macros no live code reaches by name. Live: names used outside any
        function, names Python code reads, writes in a string or matches with an f-string pattern (ctypes'
        ``lib.cquantize``), ``main``, and what a live function's body names, transitively. A function a pybind
        export binds (``m.def("quantize", &quantize)``) is reached through the export: a Python attribute of its
        name elsewhere (``lq.quantize()``) does not make it live, and an export no Python code reads does not
        either (exllamav2's ``quantize_kernel``, launched only by ``quantize_cuda``, which only the unread export
        ``quantize`` calls). A name a body writes
        only qualified by namespaces of the tree (``fp8::quantize<...>(``) reaches only the definitions inside one
        of those namespaces (not Transformer Engine's ``nvfp4::quantize``); any other qualifier (a class, a
        namespace defined outside the tree) reaches every definition of the name."""
        defs: list[tuple[str, HostFunction]] = []
        by_name: dict[str, list[int]] = {}
        seeds = {"main"}
        known_namespaces: set[str] = set()
        # the lines of pybind exports (m.def("quantize", &quantize)): a function bound there is reached through
        # the export, which is judged by module (not by a Python attribute of that name anywhere); a line whose
        # exports no Python code reads (and whose module is known) makes nothing live
        export_lines: dict[tuple[str, int], bool] = {}
        for k in self.kernels:
            if k.kind == "pybind" and k.path and k.line:
                unread = not k.uses and k.note not in (UNNAMED_EXTENSION, UNDEFINED_MACRO) and SOLE_API not in k.note
                export_lines[(k.path, k.line)] = export_lines.get((k.path, k.line), True) and unread
        for rel, scan in self.scan.native.items():  # m.impl("op", &fn) of an op nothing calls binds fn to nothing
            for ns, op, line in scan.impls:
                export_lines[(rel, line)] = export_lines.get((rel, line), True) and self.op_uncalled(ns, op)
        bound: set[str] = set()
        for rel, scan in self.scan.native.items():
            for name, lines in scan.loose.items():
                if any((rel, line) in export_lines for line in lines):
                    bound.add(name)
                if not all(export_lines.get((rel, line)) for line in lines):
                    seeds.add(name)
            for fn in scan.functions:
                by_name.setdefault(fn.name, []).append(len(defs))
                defs.append((rel, fn))
                known_namespaces.update(getattr(fn, "namespaces", ()))
        for py in self.scan.py.values():
            seeds.update(name for name in py.refs if name in by_name and name not in bound and py.module_reads(name))
            seeds.update(name for name in py.strings if name in by_name)
        self.string_uses("")  # builds the f-string patterns
        seeds.update(name for name in by_name if name not in seeds
                     and any(regex.match(name) for regex, _rel, _line in self._patterns))
        live: set[int] = set()
        todo = [i for name in seeds for i in by_name.get(name, ())]
        live.update(todo)
        while todo:
            _rel, fn = defs[todo.pop()]
            qualified = dict(getattr(fn, "qualified", ()))
            for name in fn.uses:
                quals = qualified.get(name)
                for i in by_name.get(name, ()):
                    if i in live:
                        continue
                    spaces = getattr(defs[i][1], "namespaces", ())
                    if quals is None or any(q in spaces or q not in known_namespaces for q in quals):
                        live.add(i)
                        todo.append(i)
        reached = {(defs[i][0], defs[i][1].name) for i in live}
        return {(rel, fn.name) for i, (rel, fn) in enumerate(defs) if i not in live} - reached

    def uncalled_functions(self) -> set[tuple[str, str]]:
        """Top-level functions that launch a Triton kernel of their own file and that nothing references: outside their file no
        reference at all, inside it only from other such functions (``nvfp4_cumsum`` called only by an uncalled
        ``nvfp4_padding``). Their launches do not count as uses."""
        refs: dict[tuple[str, str], list[Use]] = {}
        todo = {(u.path, u.function) for k in self.kernels if k.kind == "triton" for u in k.uses
                if u.function and "." not in u.function and u.path == k.path  # launchers beside their kernel
                and not u.function.startswith("test") and not is_test_file(u.path)}  # pytest calls tests
        for rel, fn in todo:
            py = self.scan.py[rel]
            span = next(((s, e) for s, e, q in py.functions if q == fn), (0, 0))
            refs[(rel, fn)] = self.linker.uses(rel, fn, span)
        uncalled = {key for key, uses in refs.items() if all(u.path == key[0] and u.function for u in uses)}
        changed = True
        while changed:  # keep those referenced from a function of their file that is called
            changed = False
            for key in list(uncalled):
                if any((u.path, (u.function or "").split(".")[0]) not in uncalled for u in refs[key]):
                    uncalled.discard(key)
                    changed = True
        return uncalled

    def add_file_use(self, path: str, use: Use) -> None:
        uses = self.file_uses.setdefault(path, [])
        if use not in uses:
            uses.append(use)

    def triton(self) -> None:
        named_by: dict[str, list[str]] = {}  # Python file -> native files naming it ("fill.py": a C++ Triton runtime)
        for nat_rel, nat in self.scan.native.items():
            for text, _line in nat.py_files:
                for py_rel in native_named_files(text, list(self.scan.py), set(nat.strings)):
                    named_by.setdefault(py_rel, []).append(nat_rel)
        for rel, py in self.scan.py.items():
            for d in py.triton:
                method = "." in d.qualname and not any(q == d.qualname.rsplit(".", 1)[0] for _, _, q in py.functions)
                uses = self.linker.uses(rel, d.name, (d.line - len(d.decorators), d.end), by_name=method)
                uses += [u for u in self.file_string_uses(rel, d.name) if u not in uses]
                if method:  # a method generated code calls (f"...scoreboard.wait_deps(info)..."), or a getattr's
                    uses += [Use(g, line, gpy.enclosing(line), "string (by name)") for g, gpy in self.scan.py.items()
                             if g != rel for line in gpy.strings.get(d.name, ())]
                uses += [Use(nat, line, None, "native string (names its file)") for nat in named_by.get(rel, ())
                         for line in self.scan.native[nat].strings.get(d.name, ())]
                self.kernels.append(Kernel(f"triton:{rel}::{d.qualname}", "triton", d.qualname, rel, d.line, uses))

    def file_string_uses(self, rel: str, name: str) -> list[Use]:
        """A kernel's name as a string in a file that names the kernel's file by path, beside it or by a path
        ending with it (aiter's test compiles ``kernel_path = os.path.join(Path(__file__).parent, "kernel.py")``
        ahead of time and loads the binary by ``kernel_name="empty_kernel"``): a use of the kernel there."""
        out = []
        here = posixpath.dirname(rel)
        for g, named in self.py_file_names.items():
            py = self.scan.py.get(g)
            if g == rel or py is None or name not in py.strings:
                continue
            for text, _line in named:
                clean = posixpath.normpath(text).lstrip("./")
                if clean == rel or rel.endswith("/" + clean) and "/" in clean or \
                        clean == posixpath.basename(rel) and posixpath.dirname(g) == here:
                    out += [Use(g, line, py.enclosing(line), "string (names its file)") for line in py.strings[name]]
                    break
        return out

    def loaders(self) -> None:
        for rel, py in self.scan.py.items():
            for call in py.loaders:
                kind = "jit" if call.func == "load_jit" else "cpp-extension"
                name = call.name or f"{call.func}@{posixpath.basename(rel)}"
                site = Use(rel, call.line, call.function, f"loader {call.func}")
                written, note = list(call.sources), ""
                if not written and not call.empty:  # sources passed through a variable: the names written near it
                    near = [(t, ln) for t, ln, fn in py.native_strings if fn == call.function] or \
                           [(t, ln) for t, ln, fn in py.native_strings if fn is None]
                    written = near
                    note = "sources given by a variable; matched to file names written in the same scope" if near \
                        else ""
                sources: list[str] = []
                for text, line in written:
                    self.consumed.add((rel, line, text))
                    hits = self.resolver.resolve(text, rel)
                    if text.endswith(".pyx"):  # Cython: the C/C++ file it generates is what is compiled
                        hits = self.resolver.resolve(text[:-4] + ".c", rel) + self.resolver.resolve(text[:-4] + ".cpp", rel)
                    if not hits:
                        note = (note + "; " if note else "") + f"'{text}' names no file of the tree"
                    sources += [h for h in hits if h not in sources]
                if call.inline:
                    note = "compiles inline source text (no files)"
                elif call.empty:  # Extension("m", sources=[]) with a build_ext running CMake: the build file says
                    note = "its source list is empty: a build command of the setup script compiles the code"
                elif not written or not call.sources and not sources:  # a variable whose near strings name no file
                    # (exllamav3: '.c', '.cpp', '.cu', the suffixes an os.walk comprehension keeps)
                    note = (note + "; " if note else "") + "sources computed at run time: the audit cannot name them"
                    self.unknown.append(site)
                for path in sources:
                    self.add_file_use(path, site)
                uses = self.function_uses(rel, py, call.function)
                kernel = Kernel(f"{kind}:{name}", kind, name, rel, call.line, uses, sources, note)
                self.kernels.append(kernel)

    def function_uses(self, rel: str, py, function: str | None) -> list[Use]:
        """Uses of the function that runs a loader: the loader runs when that function is called."""
        if function is None:
            return [Use(rel, 0, None, "module level")]
        qualnames = {q: (s, e) for s, e, q in py.functions}
        parent, _, short = function.rpartition(".")
        span = qualnames.get(function, (0, 0))
        method = bool(parent) and parent not in qualnames
        return self.linker.uses(rel, short, span, by_name=method)

    def native_kernels(self) -> None:
        ops: dict[tuple[str, str], Kernel] = {}
        pybind: list[Kernel] = []
        cuda_defs: dict[str, set[str]] = {}  # kernel name -> the native files defining a kernel of that name
        for rel, nat in self.scan.native.items():
            for k in nat.kernels:
                if k.kind == "cuda":
                    cuda_defs.setdefault(k.name, set()).add(rel)
        for rel, nat in self.scan.native.items():
            for k in nat.kernels:
                if k.kind == "cuda":
                    uses = self.host_uses(k.name)
                    strings = self.string_uses(k.name)  # extern "C" kernels looked up by name (hipModuleGetFunction)
                    if len(cuda_defs[k.name]) > 1:  # copies: a use launches the one its translation unit sees
                        uses = [u for u in uses if self.sees(u.path, rel, cuda_defs[k.name])]
                        strings = [u for u in strings if u.how != "native string"  # a native file's own lookups
                                   or self.sees(u.path, rel, cuda_defs[k.name])]  # name the kernels it sees
                    uses += strings
                    self.kernels.append(Kernel(f"cuda:{rel}::{k.name}", "cuda", k.name, rel, k.line, uses))
                elif k.kind == "metal":
                    uses = self.string_uses(k.name)
                    for use in uses:
                        self.add_file_use(rel, use)
                    self.kernels.append(Kernel(f"metal:{rel}::{k.name}", "metal", k.name, rel, k.line, uses))
                elif k.kind == "torch-op":
                    ops[(k.namespace, k.name)] = Kernel(f"torch-op:{k.namespace}::{k.name}", "torch-op",
                                                        f"{k.namespace}::{k.name}", rel, k.line)
                else:
                    pybind.append(Kernel(f"pybind:{k.namespace}.{k.name}", "pybind", f"{k.namespace}.{k.name}",
                                         rel, k.line))
        for rel, name, line, module, bodies in self.bound_exports():
            pybind.append(Kernel(f"pybind:{module}.{name}", "pybind", f"{module}.{name}", rel, line))
            self.bound_by[(rel, line)] = bodies
        for rel, py in self.scan.py.items():  # Metal/CUDA source text held in Python strings
            for kind, name, line in py.native_kernels:
                uses = [u for u in self.string_uses(name) if not (u.path == rel and u.line == line)]
                if kind == "cuda":
                    uses += [Use(other, ln, None, "launch") for other, scan in self.scan.native.items()
                             for ln in scan.idents.get(name, ())]
                    uses += [Use(rel, call, py.enclosing(call), "compiled from its string") for n, ln, call
                             in py.compiled_kernels if n == name and ln == line]
                self.kernels.append(Kernel(f"{kind}:{rel}::{name}", kind, name, rel, line, uses,
                                           note="defined in a Python string"))
        for rel, py in self.scan.py.items():
            for ns, op, line in py.torch_ops:
                kernel = ops.get((ns, op))
                if kernel is None:
                    kernel = ops[(ns, op)] = Kernel(f"torch-op:{ns}::{op}", "torch-op", f"{ns}::{op}", None, None,
                                                    note=f"defined outside this tree (the '{ns}' extension)")
                use = Use(rel, line, py.enclosing(line), "call")
                kernel.uses.append(use)
                if kernel.path:
                    self.add_file_use(kernel.path, use)
        self.ops_alias_uses(ops)
        self.op_implementations(ops)
        for kernel in pybind:
            assert kernel.path is not None  # a pybind module is defined in a native source
            module, _, name = kernel.name.rpartition(".")
            if module == "TORCH_EXTENSION_NAME":  # named by the loader that builds it: look where it is loaded
                loaders = [u for u in self.file_uses.get(kernel.path, ()) if u.how.startswith("loader")]
                for loader in loaders:
                    loader_module = self.mm.module_of(loader.path) or ""
                    importers = [g for g, _l, _n in self.linker.module_importers.get(loader_module, ())]
                    importers += [g for (base, _name), sites in self.linker.name_importers.items()  # from .backend
                                  if base == loader_module for g, _l, _n in sites]  # import _backend
                    for rel in dict.fromkeys([loader.path] + importers):
                        py = self.scan.py[rel]
                        kernel.uses += [Use(rel, line, py.enclosing(line), "attribute")
                                        for line in py.module_reads(name)]
                # a name the build writes as a template (f"tinycudann_bindings_{cc}._C"): a file writing the same
                # template (importlib.import_module(f"tinycudann_bindings_{cc}._C")) loads it
                templates = {k.name for k in self.kernels if k.kind == "cpp-extension" and "{" in k.name
                             and kernel.path in k.sources}
                for rel, py in self.scan.py.items() if templates else ():
                    if any(text in templates for text, _line in py.patterns):
                        kernel.uses += [Use(rel, line, py.enclosing(line), "attribute")
                                        for line in py.module_reads(name)]
                if kernel.path not in self.extensions:
                    kernel.note = "" if loaders else UNNAMED_EXTENSION
                    continue
                modules = self.extensions[kernel.path]  # or by the setup.py extensions that list its source
                kernel.note = f"built as the extension {' and '.join(modules)} by a setup.py"
            elif is_macro(module):  # PYBIND11_MODULE(PY_NAME, m): the build defines the name
                named = macro_module_names(Path(self.root or "."), self.build_files, module)
                if named is None:
                    kernel.note = UNDEFINED_MACRO
                    continue
                modules = named
                kernel.note = f"its module {module} is {' or '.join(named)}, as the build defines it"
            else:
                modules = [module]
            if any(m in self.sole_api for m in modules):
                kernel.note = (kernel.note + "; " if kernel.note else "") + SOLE_API
            for rel, py in self.scan.py.items():
                for _l, m, _v, n, line in py.imports:  # from pkg._ext import name (or from _ext.sub: a submodule)
                    if n == name and m and any(m == module or m.endswith("." + module) or m.startswith(module + ".")
                                               for module in modules):
                        use = Use(rel, line, py.enclosing(line), "import from the extension")
                        kernel.uses.append(use)
                        self.add_file_use(kernel.path, use)
            for rel, py in self.scan.py.items():  # from hipbsolidxgemm_ import *: re-exported, public API (40)
                for _l, m, level, n, line in py.imports:
                    if n == "*" and m and any(m == module or m.endswith("." + module)
                                              or level and module.endswith("." + m) for module in modules):
                        use = Use(rel, line, py.enclosing(line), "import")
                        kernel.uses.append(use)
                        self.add_file_use(kernel.path, use)
            for rel, py in self.scan.py.items():  # @compile_ops("module_x") def hipb_mm(...): ... binds it by name
                for stub, line in py.stubs:
                    if stub == name:
                        use = Use(rel, line, None, "declared by a decorated stub")
                        kernel.uses.append(use)
                        self.add_file_use(kernel.path, use)
            getattrs = []
            for module in modules:
                for rel in self.extension_readers(module):
                    py = self.scan.py[rel]
                    for line in py.module_reads(name):  # not lq.quantize() on an AdaptiveGPTQ
                        use = Use(rel, line, py.enclosing(line), "attribute")
                        if use not in kernel.uses:
                            kernel.uses.append(use)
                        self.add_file_use(kernel.path, use)
                    for line in py.strings.get(name, ()):  # getattr(lib, "name"), hasattr(mod, n) for n in (...)
                        use = Use(rel, line, py.enclosing(line), "string in a file reading the extension")
                        if use not in kernel.uses:
                            kernel.uses.append(use)
                        self.add_file_use(kernel.path, use)
                    getattrs += [(rel, line) for line, receiver in py.dynamic_getattrs
                                 if receiver in self.module_locals(rel, module) or receiver == module]
            if getattrs:  # getattr(ext, name) in a reader: torch_scatter's get_func('scatter_mul', src)
                kernel.note = (kernel.note + "; " if kernel.note else "") + READ_BY_GETATTR
                for use in self.string_uses(name):
                    if use.path == kernel.path and use.line == kernel.line:
                        continue  # the export's own m.def("name", ...) string
                    kernel.uses.append(use)
                    self.add_file_use(kernel.path, use)
        self.kernels += sorted(ops.values(), key=lambda k: k.id) + pybind

    def bound_exports(self) -> list[tuple[str, str, int, str, set[str]]]:
        """(file, name, line, module, body files) of each ``m.def`` in a function binding names into the module it
        is passed (``void PybindFoo(py::module &m)``), where one pybind module's body calls the function (directly,
        or through such functions: ``PybindTorch(m)`` calling ``PybindFoo(m)``); a function no module or several
        modules call is left out (unknown). The body files are those whose ``PYBIND11_MODULE`` reaches it."""
        calls: dict[str, set[str]] = {}
        bodies: dict[str, set[str]] = {}  # "module:_k2" -> the files defining that module's body
        for rel, nat in self.scan.native.items():
            for caller, callee in nat.binder_calls:
                calls.setdefault(caller, set()).add(callee)
                if caller.startswith("module:"):
                    bodies.setdefault(caller, set()).add(rel)
        modules_of: dict[str, set[str]] = {}
        reached_from: dict[str, set[str]] = {}
        for caller in bodies:
            todo, seen = [caller], {caller}
            while todo:
                for callee in calls.get(todo.pop(), ()):
                    if callee not in seen:
                        seen.add(callee)
                        modules_of.setdefault(callee, set()).add(caller.removeprefix("module:"))
                        reached_from.setdefault(callee, set()).update(bodies[caller])
                        todo.append(callee)
        out = []
        for rel, nat in sorted(self.scan.native.items()):
            for function, exports in nat.binders.items():
                modules = modules_of.get(function, set())
                if len(modules) == 1:
                    out += [(rel, name, line, next(iter(modules)), reached_from[function]) for name, line in exports]
        return out

    def ops_alias_uses(self, ops: dict[tuple[str, str], Kernel]) -> None:
        """Ops called through a name bound to their namespace: ``from torch.ops import disco_kernels`` (or
        ``ops = torch.ops.disco_kernels``) in the file, or that name imported from the module that binds it
        (torch-harmonics: ``from .. import disco_kernels`` ... ``disco_kernels.forward.default(...)``). An
        attribute read of the op's name in a file that reads such a name counts as a call (unknown means keep)."""
        by_ns: dict[str, list[tuple[str, Kernel]]] = {}
        for (ns, op), kernel in ops.items():
            by_ns.setdefault(ns, []).append((op, kernel))
        for rel, py in self.scan.py.items():
            held = dict(py.ops_aliases)
            for local, m, level, n, _ln in py.imports:
                if n is None or n == "*" or local in held:
                    continue
                base = self.linker.absolute(rel, m, level)
                info = self.mm.modules.get(base) if base else None
                carrier = self.scan.py.get(info.path) if info is not None and info.path else None
                if carrier is not None and n in carrier.ops_aliases:
                    held[local] = carrier.ops_aliases[n]
            for local, ns in held.items():
                if local not in py.refs:
                    continue
                for op, kernel in by_ns.get(ns, ()):
                    for line in py.refs.get(op, ()):
                        use = Use(rel, line, py.enclosing(line), "call")
                        kernel.uses.append(use)
                        if kernel.path:
                            self.add_file_use(kernel.path, use)

    def op_uncalled(self, ns: str, op: str) -> bool:
        """An op defined in the tree (``m.def``) that no ``torch.ops`` reference and no lookup by its two names
        (``get_operator("ns", "op")``) calls, in a namespace whose other ops the tree's Python does call (its
        Python wraps the ops; where it calls none, the ops are what users call: unknown, kept)."""
        ops = [k for k in self.kernels if k.kind == "torch-op" and k.name.startswith(ns + "::")]
        kernel = next((k for k in ops if k.name == f"{ns}::{op}"), None)
        return kernel is not None and bool(kernel.path) and not kernel.uses and any(k.uses for k in ops) \
            and not any(ns in py.strings and op in py.strings for py in self.scan.py.values())

    def op_implementations(self, ops: dict[tuple[str, str], Kernel]) -> None:
        """A source whose ``TORCH_LIBRARY_IMPL`` implements an op is used where the op is: ``torch.ops.ns.op``
        or a lookup by the two names (``get_operator("xformers", "op")``)."""
        for rel, nat in self.scan.native.items():
            for ns, op, _line in nat.impls:
                kernel = ops.get((ns, op))
                uses = list(kernel.uses) if kernel else []
                uses += [Use(py_rel, line, self.scan.py[py_rel].enclosing(line), "op lookup")
                         for py_rel, py in self.scan.py.items() if ns in py.strings
                         for line in py.strings.get(op, ())]
                for use in uses:
                    self.add_file_use(rel, use)

    def extension_readers(self, module: str) -> list[str]:
        """Files that may read names of the extension ``module``: those importing it (or naming it in a string),
        and those importing from such a file (``_ext = import_module(...)`` re-exported as an alias)."""
        if module not in self._readers:
            carriers = [rel for rel, py in self.scan.py.items()
                        if any(m and (m == module or m.endswith("." + module)) or n == module
                               or self.imports_extension(rel, m, level, n, module)
                               for _l, m, level, n, _ln in py.imports) or module in py.strings]
            readers = dict.fromkeys(carriers)
            carrier_modules = {m for rel in carriers if (m := self.mm.module_of(rel)) is not None}
            for m in carrier_modules:
                for g, _l, _n in self.linker.module_importers.get(m, ()):
                    readers.setdefault(g)
            for (base, _name), sites in self.linker.name_importers.items():
                if base in carrier_modules:
                    for g, _l, _n in sites:
                        readers.setdefault(g)
            self._readers[module] = list(readers)
        return self._readers[module]

    def imports_extension(self, rel: str, written: str | None, level: int, name: str | None, module: str) -> bool:
        """Whether ``from . import _qattn`` (relative, or ``from sageattention import _qattn``) in ``rel``
        imports the extension ``module`` (``sageattention._qattn``, beside ``sageattention/core.py``)."""
        if not level:
            return bool(written and name) and f"{written}.{name}" == module
        own = self.mm.module_of(rel)
        if own is None or name is None:
            return False
        parts = own.split(".")
        if not rel.endswith("__init__.py"):
            parts = parts[:-1]  # a module's level 1 is its package
        if level - 1 > len(parts):
            return False
        base = parts[:len(parts) - (level - 1)] + (written.split(".") if written else [])
        return ".".join(base + [name]) == module

    def module_locals(self, rel: str, module: str) -> set[str]:
        """The names that hold the extension ``module`` in the file ``rel``: its import's local name, names
        bound from those (``scatter = scatter_cuda if cuda else scatter_cpu``), and names imported from a module of
        the tree where they hold it (gsplat: ``from gsplat import csrc as _C`` in ``_backend.py``, then ``from
        ._backend import _C`` ... ``getattr(_C, name)`` in ``cuda/__init__.py``). Memoized; a cycle of imports
        sees the names found so far."""
        key = (rel, module)
        if key in self._locals:
            return self._locals[key]
        py = self.scan.py[rel]
        out = {local for local, m, level, n, _ln in py.imports
               if n is None and m and (m == module or m.endswith("." + module)) or n == module
               or n is not None and self.imports_extension(rel, m, level, n, module)}
        self._locals[key] = out  # in progress: what an import cycle back to this file sees
        for local, m, level, n, _ln in py.imports:
            if n is None or n == "*" or local in out:
                continue
            base = self.linker.absolute(rel, m, level)
            info = self.mm.modules.get(base) if base else None
            carrier = info.path if info is not None else None
            if carrier and carrier != rel and carrier in self.scan.py and n in self.module_locals(carrier, module):
                out.add(local)
        grown = True
        while grown:
            more = {name for name, sources in py.aliases.items() if name not in out and out.intersection(sources)}
            out |= more
            grown = bool(more)
        return out

    def string_uses(self, name: str) -> list[Use]:
        """Python string literals that name a kernel (exactly, or through an f-string pattern)."""
        if self._strings is None:
            self._strings, self._patterns = {}, []
            for rel, py in self.scan.py.items():
                for text, lines in py.strings.items():
                    self._strings.setdefault(text, []).extend((rel, line) for line in lines)
                self._patterns += [(re.compile(name_regex(text)), rel, line) for text, line in py.patterns
                                   if specific(text)]
        uses = [Use(rel, line, self.scan.py[rel].enclosing(line), "string")
                for rel, line in self._strings.get(name, ())]
        uses += [Use(rel, line, self.scan.py[rel].enclosing(line), "pattern")
                 for regex, rel, line in self._patterns if regex.match(name)]
        uses += [Use(rel, line, None, "native string")  # newFunctionWithName:@"name" in Objective-C/C++ hosts
                 for rel, nat in self.scan.native.items() if not rel.endswith(".metal")
                 for line in nat.strings.get(name, ())]
        return uses

    def source_strings(self) -> None:
        """Any Python string that names a native file (a Metal library path, a header) keeps that file."""
        for rel, py in self.scan.py.items():
            for text, line, function in py.native_strings:
                if (rel, line, text) in self.consumed:
                    continue  # a loader's own source list: it counts through the loader (and only if called)
                if line in self.written(rel):
                    continue  # a generator's output path (``open(f_instance, "a")``): names no source of the tree
                for path in self.resolver.resolve(text, rel):
                    self.add_file_use(path, Use(rel, line, function, "string"))
            for text, line, function in py.folder_strings:
                for path in self.folder_sources(text, rel):
                    self.add_file_use(path, Use(rel, line, function, "folder string"))

    def _source_text(self, rel: str) -> str | None:
        if self.root is None:
            return None
        try:
            with open(os.path.join(self.root, rel), encoding="utf-8", errors="replace") as fh:
                return fh.read()
        except OSError:
            return None

    def written(self, rel: str) -> set[int]:
        """Lines of ``rel``'s path expressions that it only writes (``json_modules.written_lines``)."""
        if rel not in self._written:
            text = self._source_text(rel)
            self._written[rel] = written_lines(text) if text is not None else set()
        return self._written[rel]

    def json_modules(self, other_files: list[str]) -> None:
        """Modules a JSON file registers by key with their sources (aiter's ``optCompilerConfig.json``): the
        sources are named where Python code names the key, outside literal lists of several keys
        (``json_modules``)."""
        if self.root is None:
            return
        candidates = [rel for rel in other_files if rel.endswith(".json")]
        if not candidates:
            return
        wanted = {posixpath.basename(rel) for rel in candidates}
        named: set[str] = set()
        for rel in self.scan.py:
            text = self._source_text(rel) or ""
            named |= {name for name in wanted if name in text}
        for jrel, data in json_registries(self.root, candidates, named.__contains__).items():
            sources: dict[str, list[str]] = {}
            for key, value in data.items():
                if not isinstance(value, (dict, list)):
                    continue
                paths: list[str] = []
                for text in entry_strings(value):
                    hits = self.resolver.resolve(text, jrel) if is_native_path(text) \
                        else self.folder_sources(text, jrel)
                    paths += [p for p in hits if p not in paths]
                if paths:
                    sources[key] = paths
            if len(sources) < 2:
                continue  # one entry: a configuration, not a registry of modules
            keys = set(sources)
            for key, paths in sources.items():
                for path in paths:
                    self.registered.setdefault(path, f"{key} of {jrel}")
            for rel, py in self.scan.py.items():
                hits = [k for k in keys if k in py.strings]
                if not hits:
                    continue
                listed = listing_lines(self._source_text(rel) or "", keys) if len(hits) >= 3 else set()
                for key in hits:
                    for line in py.strings[key]:
                        if line in listed:
                            continue
                        for path in sources[key]:
                            self.add_file_use(path, Use(rel, line, py.enclosing(line),
                                                        f"registered module {key} of {jrel}"))

    def folder_sources(self, text: str, from_path: str) -> list[str]:
        """The sources directly in the folder a Python path string names (``f"{CSRC}/ck_gemm_a8w8/instances"``,
        matched as a suffix of the folder's path, relative to the naming module or the root): a build helper may
        list it and compile them (aiter's ``compile_ops(srcs=[...])``). Folders holding Python files are no
        source folders."""
        if self._folders is None:
            self._folders = {}
            for path in self.resolver.paths:
                self._folders.setdefault(posixpath.dirname(path), []).append(path)
            self._python_folders = {posixpath.dirname(p) for p in self.scan.py}
        tail = re.sub(r"^(\{\.\.\.\}/)+", "", text).strip("/")
        if "{...}" in tail or tail.startswith("."):
            return []
        here = posixpath.normpath(posixpath.join(posixpath.dirname(from_path), tail))
        out: list[str] = []
        for folder, paths in self._folders.items():
            if (folder == tail or folder == here or folder.endswith("/" + tail)) and folder not in self._python_folders:
                out += [p for p in paths if p.endswith(_COMPILED)]
        return sorted(out)

    def includes(self, rel: str) -> list[str]:
        out: list[str] = []
        for text, _line in self.scan.native[rel].includes:
            for hit in self.resolver.resolve(text, rel):
                if hit != rel and hit not in out:
                    out.append(hit)
        return out
