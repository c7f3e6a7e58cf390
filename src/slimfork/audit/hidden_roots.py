"""Hidden roots of the unused-file audit: modules no import reaches that the code still loads (directory scans,
lazy ``__getattr__`` tables, relative module strings, f-string and file-name lookups, listings of a package's
folder, scripts run by name), each with the place that adds it."""

from __future__ import annotations

import posixpath
import re

from slimfork.audit.links import common_folders
from slimfork.graph import ModuleGraph
from slimfork.index.relative import absolute_module, package_of
from slimfork.spec.model import Root


def scan_roots(graph: ModuleGraph, index) -> list[Root]:
    """Unknown means keep: for each directory scan the graph could not resolve (``pkgutil.iter_modules`` of a
    package named at run time), the modules of the packages it may scan become roots. Candidates are the
    packages named by dotted strings in the scanning file or in the modules that import it (the callers that
    pass the package name); with none, the scanning file's own package."""
    mm = graph.mm
    out: dict[str, Root] = {}
    for u in graph.uncertain:
        if "directory scan" not in u.why:
            continue
        module = mm.module_of(u.path)
        files = [u.path] + [mm.modules[src].path for src, _e in graph.importers(module or "")
                            if mm.modules[src].path]
        packages = {text for f in files for text, _line in index.files[f].strings
                    if text in mm.modules and mm.modules[text].is_package}
        if not packages and module:
            info = mm.modules[module]
            packages = {module if info.is_package else module.rsplit(".", 1)[0]}
        for package in sorted(packages):
            for child in mm.children.get(package, []):
                if mm.modules[child].path and child not in out:
                    out[child] = Root("module", child, text=f"{child} (the directory scan at {u.path}:{u.line} "
                                                           f"may import it)")
    return list(out.values())


def lazy_roots(graph: ModuleGraph, index) -> list[Root]:
    """Unknown means keep: a reached package whose ``__init__`` defines a module-level ``__getattr__`` (PEP 562
    lazy exports) may import any submodule its strings name relative to it (``"norm.norm_triton:rms_norm"``)."""
    mm = graph.mm
    out: dict[str, Root] = {}
    for name, info in mm.modules.items():
        if not info.is_package or not info.path or name not in graph.reached:
            continue
        summary = index.files[info.path]
        if not summary.module_getattr:
            continue
        for text, line in summary.strings:
            target = mm.longest_module(f"{name}.{text}")
            if target and target != name and target.startswith(name + ".") and target not in out:
                out[target] = Root("module", target, text=f"{target} (the lazy __getattr__ of {name} may import it, "
                                                          f"{info.path}:{line})")
    return list(out.values())


def relative_roots(graph: ModuleGraph, index) -> list[Root]:
    """Relative imports of reached modules the graph left without an edge (``from .utils import x`` in a test
    folder that is a package only from its own level): the module they name is a root."""
    mm = graph.mm
    out: dict[str, Root] = {}
    for module in graph.reached:
        info = mm.modules.get(module)
        if not info or not info.path or info.path not in index.files:
            continue
        targets = {e.target for e in graph.edges.get(module, ())}
        package = package_of(module, info.is_package)
        for imp in index.files[info.path].imports:
            base = absolute_module(package, imp.level, imp.module) if imp.level else None
            if base is None:
                continue
            for name in [base] + [f"{base}.{n}" for n in imp.names]:
                if name in mm.modules and mm.modules[name].path and name not in targets and name not in out \
                        and name not in graph.reached:
                    out[name] = Root("module", name, text=f"{name} (a relative import at {info.path}:{imp.line})")
    return list(out.values())


def relocated_roots(graph: ModuleGraph) -> list[Root]:
    """Imports of modules missing from the tree whose tail names a module that is there
    (``mslk.bench.common.utils`` when ``bench/common/utils.py`` exists: a folder the build installs inside the
    package): unknown means keep, the module is a root."""
    mm = graph.mm
    out: dict[str, Root] = {}
    for m in graph.missing:
        if m.module not in graph.reached:
            continue
        parts = m.target.split(".")
        for i in range(1, len(parts) - 1):
            tail = ".".join(parts[i:])
            if tail in mm.modules and mm.modules[tail].path:
                if tail not in out and tail not in graph.reached:
                    out[tail] = Root("module", tail, text=f"{tail} (imported as {m.target} at {m.path}:{m.line})")
                break
    return list(out.values())


def beside_roots(graph: ModuleGraph, index) -> list[Root]:
    """Modules a reached file outside packages (its folder has no ``__init__.py``) imports by a bare name the
    module graph left without a target, found in its own folder, which Python puts first on ``sys.path`` when it
    runs a script (ThunderKittens' ``setup.py``: ``from config import sources``, ``config.py`` beside it and no
    package to make ``config`` internal), else in the nearest folder above it, where it is run from
    (``tests/python/fftconv/implementations.py``: ``from fftconv.baselines.tk_fftconv import TKFFTConv``).
    Unknown means keep."""
    mm = graph.mm
    present = set(index.files)
    out: dict[str, Root] = {}
    for module in sorted(graph.reached):
        info = mm.modules.get(module)
        if info is None or not info.path or info.path not in index.files:
            continue
        here = posixpath.dirname(info.path)
        if posixpath.join(here, "__init__.py") in present:
            continue
        parts = here.split("/") if here else []
        folders = ["/".join(parts[:i]) for i in range(len(parts), -1, -1)]  # here, ..., the root ("")
        for imp in index.files[info.path].imports:
            if imp.level or not imp.module or mm.is_internal(imp.module) or imp.type_checking:
                continue
            for folder in folders:  # its own folder first, then the folders above it (where it is run from)
                base = posixpath.join(folder, *imp.module.split("."))
                candidate = next((c for c in (base + ".py", base + "/__init__.py") if c in present), None)
                target = mm.module_of(candidate) if candidate else None
                if target:
                    if target not in graph.reached and target not in out:
                        out[target] = Root("module", target, text=f"{target} (imported by a bare name from "
                                                                     f"{folder or '.'}/ by {info.path}:{imp.line})")
                    break
    return list(out.values())


def native_import_roots(graph: ModuleGraph, scan) -> list[Root]:
    """Modules of the tree that native code imports (mlx's ``nb::module_::import_("mlx._reprlib_fix")`` in the
    extension's init, ``py::module_::import``, ``PyImport_ImportModule``) or names as a file (a C++ Triton runtime's
    ``get_instance(src_dir / "fill.py", "fill_kernel")``): the built extension runs the import or loads the file,
    so they are roots (unknown means keep: the native file may be unbuilt)."""
    mm = graph.mm
    out: dict[str, Root] = {}
    for path, native in sorted(scan.native.items()):
        for name, line in getattr(native, "py_imports", ()):
            if mm.is_internal(name) and (target := mm.longest_module(name)) and target not in graph.reached \
                    and target not in out and mm.modules[target].path:
                out[target] = Root("module", target, text=f"{target} (imported by native code at {path}:{line})")
        for text, line in getattr(native, "py_files", ()):
            for file in native_named_files(text, list(mm.by_path), set(native.strings)):
                target = mm.module_of(file)
                if target and target not in graph.reached and target not in out:
                    out[target] = Root("module", target, text=f"{target} (named as a file by native code at "
                                                              f"{path}:{line})")
    return list(out.values())


def native_named_files(text: str, python_paths: list[str], words: set[str]) -> list[str]:
    """The Python files a native string names (``"fill.py"``, ``"ops/mm.py"``; a Triton runtime in C++ loads a
    kernel's source by a path it computes): those whose path ends with the string's; several, the ones whose
    folder's name the native file also writes as a string (``path / "ops" / "mm.py"``), else all of them (unknown
    means keep)."""
    clean = posixpath.normpath(text).lstrip("./")
    if posixpath.basename(clean) in _GENERIC_FILES:
        return []
    found = [p for p in python_paths if p == clean or p.endswith("/" + clean)]
    if len(found) > 1:
        found = [p for p in found if posixpath.basename(posixpath.dirname(p)) in words] or found
    return found


def fstring_roots(graph: ModuleGraph, scan) -> list[Root]:
    """Unknown means keep: module paths built from a module constant in a reached module,
    ``f"{_PACKAGE}.sm120_fp8:run"`` with ``_PACKAGE = "pkg.kernels"`` (kernel and plugin registries)."""
    mm = graph.mm
    out: dict[str, Root] = {}
    for path, py in scan.py.items():
        module = mm.module_of(path)
        if not py.named_fstrings or module not in graph.reached:
            continue
        for name, rest, line in py.named_fstrings:
            prefix = py.constants.get(name)
            if prefix is None:
                continue
            full = mm.modules[module].fill_own(prefix + rest).split(":", 1)[0]
            dotted = full.split("{...}", 1)[0].rstrip(".")
            targets: list[str | None] = [mm.longest_module(dotted)]
            matched = False
            if "{...}" in full.rstrip(".{}"):  # f"{_PKG}._{self.vendor}.ops": every module the pattern matches
                pattern = re.compile(".+".join(map(re.escape, full.split("{...}"))))
                found = [m for m in mm.modules if m.startswith(dotted) and pattern.fullmatch(m)]
                if found:
                    targets, matched = list(found), True
            for target in targets:
                if target and target != module and mm.modules[target].path and target not in out \
                        and (target == dotted or matched or not mm.modules[target].is_package):
                    out[target] = Root("module", target, text=f"{target} (named by f-string at {path}:{line})")
    return list(out.values())


def listing_roots(graph: ModuleGraph, scan) -> list[Root]:
    """Unknown means keep: a reached module that lists its own folder for Python files
    (``Path(__file__).parent.glob("*.py")``, ``os.listdir(os.path.dirname(__file__))`` with an ``import_module``)
    may import any module below that folder. A data-file glob (``*.safetensors``) is no such listing."""
    mm = graph.mm
    paths = sorted((info.path, name) for name, info in mm.modules.items() if info.path)
    out: dict[str, Root] = {}
    for path, py in scan.py.items():
        module = mm.module_of(path)
        if not py.self_listings or module not in graph.reached:
            continue
        for line, level, sub, call in py.self_listings:
            folder = path
            for _ in range(level):
                folder = posixpath.dirname(folder)
            folder = posixpath.join(folder, sub) if sub else folder
            for child_path, child in paths:
                if (not folder or child_path.startswith(folder + "/")) and child != module and child not in out:
                    out[child] = Root("module", child, text=f"{child} (the folder listing at {path}:{line} "
                                                            f"`{call}` may import it)")
    return list(out.values())


def script_roots(graph: ModuleGraph, index, ambiguous: dict[str, str] | None = None, scan=None) -> list[Root]:
    """Python files a reached module names as a file ("prepare_pack.py"): scripts it runs or reads. A name
    resolves to one file: the one sharing most folders with the naming module, else the one whose folder the
    naming module also names (``root / "pkg"`` ... ``"_compat.py"``). A name still matching several files keeps
    none of them; they go to ``ambiguous`` (path -> why) so their findings say so, at a low confidence."""
    mm = graph.mm
    by_name: dict[str, list[str]] = {}
    for path in index.files:
        by_name.setdefault(posixpath.basename(path), []).append(path)
    out: dict[str, Root] = {}
    for module in graph.reached:
        info = mm.modules.get(module)
        if not info or not info.path:
            continue
        strings = index.files[info.path].strings
        for text, line in strings:
            if not text.endswith(".py") or text.count(".") != 1 or text in _GENERIC_FILES:
                continue
            candidates = by_name.get(text, [])
            if not candidates:
                continue
            words = {t for t, _l in strings} | set(scan.py[info.path].strings if scan and info.path in scan.py else ())
            best = _resolve_file_name(candidates, info.path, words)
            if best is None:
                for path in candidates:
                    if ambiguous is not None and mm.module_of(path) not in out:
                        ambiguous.setdefault(path, f'"{text}" at {info.path}:{line} names {len(candidates)} files '
                                                   "and the audit cannot tell which")
                continue
            target = mm.module_of(best)
            if target and target not in out:
                out[target] = Root("module", target, text=f"{target} (named as a file at {info.path}:{line})")
                if ambiguous is not None:
                    ambiguous.pop(best, None)
    return list(out.values())


def _resolve_file_name(candidates: list[str], naming: str, strings: set[str]) -> str | None:
    if len(candidates) == 1:
        return candidates[0]
    best = max(common_folders(c, naming) for c in candidates)
    tied = [c for c in candidates if common_folders(c, naming) == best]
    if len(tied) > 1:
        tied = [c for c in tied if posixpath.basename(posixpath.dirname(c)) in strings] or tied
    return tied[0] if len(tied) == 1 else None


_GENERIC_FILES = {"__init__.py", "__main__.py", "setup.py", "conftest.py"}


def hidden_root_triggers(extra: list[Root]) -> list[dict]:
    """The places that added hidden roots, each with how many modules it keeps (largest first)."""
    counts: dict[str, int] = {}
    for root in extra:
        trigger = root.text[len(root.value) + 2:-1] if root.text.startswith(root.value + " (") else root.text
        trigger = trigger.replace(" may import it", "").replace("named as a file at", "a file name at")
        counts[trigger] = counts.get(trigger, 0) + 1
    return [{"trigger": t, "modules": n} for t, n in sorted(_by_file(counts).items(), key=lambda kv: (-kv[1], kv[0]))]


_AT_LINE = re.compile(r"^(.* at )(.+?):(\d+)$")


def _by_file(counts: dict[str, int]) -> dict[str, int]:
    """Triggers of one kind in one file, one line each in the audit's output (pytest-httpserver 1.1.0: "hidden
    roots: 1 module kept by a file name at tests/test_release.py:157", then :158, :159 ... ten times), merged:
    ``a file name at tests/test_release.py:157, 158, 159 ... (10 places)``."""
    groups: dict[tuple[str, str], list[tuple[int, int]]] = {}
    out: dict[str, int] = {}
    for trigger, n in counts.items():
        match = _AT_LINE.match(trigger)
        if match:
            groups.setdefault((match.group(1), match.group(2)), []).append((int(match.group(3)), n))
        else:
            out[trigger] = n
    for (what, path), lines in groups.items():
        lines.sort()
        if len(lines) == 1:
            out[f"{what}{path}:{lines[0][0]}"] = lines[0][1]
            continue
        shown = ", ".join(str(line) for line, _ in lines[:5])
        more = f" ... ({len(lines)} places)" if len(lines) > 5 else ""
        out[f"{what}{path}:{shown}{more}"] = sum(n for _, n in lines)
    return out
