"""Link names to the places that use them: Python symbols across imports and re-exports, and file names
written in Python strings to the native sources of the tree."""

from __future__ import annotations

import posixpath
import re
from collections import deque
from dataclasses import dataclass

from slimfork.audit.scan import TreeScan
from slimfork.graph.modules import ModuleMap
from slimfork.index.kernel_names import pattern_regex
from slimfork.index.kernelscan import PyScan
from slimfork.index.relative import absolute_module, package_of


@dataclass(frozen=True, slots=True)
class Use:
    """One place that uses a kernel (or names a kernel source file)."""

    path: str
    line: int
    function: str | None  # enclosing function of the use, when known
    how: str  # "call", "import", "attribute", "string", "pattern", "loader", "launch", "include", "module level"

    def where(self) -> str:
        inside = f" in {self.function}" if self.function else ""
        return f"{self.path}:{self.line}{inside} ({self.how})"


class Linker:
    """Uses of a name defined in a Python file, found through the importers of its module."""

    def __init__(self, scan: TreeScan, mm: ModuleMap):
        self.scan = scan
        self.mm = mm
        self.name_importers: dict[tuple[str, str], list[tuple[str, str, int]]] = {}
        self.module_importers: dict[str, list[tuple[str, str, int]]] = {}
        self._tails: dict[str, list[str]] | None = None  # a module name's last part -> the modules so named
        for rel, py in scan.py.items():
            for local, module, level, name, line in py.imports:
                absolute = self.absolute(rel, module, level)
                if absolute is None:
                    continue
                for base in self.relocated(absolute):
                    if name is None:
                        self.module_importers.setdefault(base, []).append((rel, local, line))
                    elif f"{base}.{name}" in mm.modules:
                        self.module_importers.setdefault(f"{base}.{name}", []).append((rel, local, line))
                    else:
                        self.name_importers.setdefault((base, name), []).append((rel, local, line))
        self._by_name: dict[str, list[str]] | None = None

    def relocated(self, module: str) -> list[str]:
        """``module``, or where the tree lacks it, the tree's modules whose names end with it (FlagGems'
        ``from _kunlunxin.ops.copy import copy_slice``, its backend folder put on ``sys.path``: the module
        ``flag_gems.runtime.backend._kunlunxin.ops.copy``); all of them when several do (unknown means keep). A dotted
        name only."""
        if module in self.mm.modules or module.split(".")[0] in self.mm.top_names or "." not in module:
            return [module]  # a bare name (``import utils``) may be any folder's: left to the graph's rules
        if self._tails is None:
            self._tails = {}
            for name in self.mm.modules:
                self._tails.setdefault(name.rsplit(".", 1)[-1], []).append(name)
        found = [m for m in self._tails.get(module.rsplit(".", 1)[-1], ()) if m.endswith("." + module)]
        return found or [module]

    def absolute(self, rel: str, module: str | None, level: int) -> str | None:
        if not level:
            return module
        me = self.mm.module_of(rel)
        if me is None:
            return None
        return absolute_module(package_of(me, self.mm.modules[me].is_package), level, module)

    def uses(self, rel: str, name: str, span: tuple[int, int] = (0, 0), by_name: bool = False) -> list[Use]:
        """Every use of ``name`` defined in ``rel`` at lines ``span``; ``by_name`` also counts attribute
        reads of the name anywhere (for methods, reached through objects rather than imports)."""
        out: list[Use] = []
        py = self.scan.py[rel]
        out += _refs(rel, py, name, skip=span)
        module = self.mm.module_of(rel)
        seen: set[tuple[str, str]] = set()
        queue = deque([(module, name)] if module else [])
        while queue and len(seen) < 200:
            mod, n = queue.popleft()
            if (mod, n) in seen:
                continue
            seen.add((mod, n))
            for key in ((mod, n), (mod, "*")):
                for g, local, line in self.name_importers.get(key, ()):
                    gpy = self.scan.py[g]
                    local = n if key[1] == "*" else local
                    if key[1] != "*":
                        out.append(Use(g, line, gpy.enclosing(line), "import"))
                    out += _refs(g, gpy, local, skip=(line, line))
                    if gmod := self.mm.module_of(g):
                        queue.append((gmod, local))
            for g, _local, _line in self.module_importers.get(mod, ()):
                if g != rel:
                    out += _refs(g, self.scan.py[g], n, how="attribute")
        if by_name:
            for g in self.files_naming(name):
                if g != rel:
                    out += _refs(g, self.scan.py[g], name, how="attribute (by name)", strings=False)
        return _dedupe(out)

    def files_naming(self, name: str) -> list[str]:
        if self._by_name is None:
            index: dict[str, list[str]] = {}
            for rel, py in self.scan.py.items():
                for ref in py.refs:
                    index.setdefault(ref, []).append(rel)
            self._by_name = index
        return self._by_name.get(name, [])


def _refs(rel: str, py: PyScan, name: str, skip: tuple[int, int] = (0, 0), how: str = "call",
          strings: bool = True) -> list[Use]:
    out = [Use(rel, line, py.enclosing(line), how) for line in py.refs.get(name, ())
           if not skip[0] <= line <= skip[1]]
    if strings:
        out += [Use(rel, line, py.enclosing(line), "string") for line in py.strings.get(name, ())
                if not skip[0] <= line <= skip[1]]
    return out


def _dedupe(uses: list[Use]) -> list[Use]:
    seen, out = set(), []
    for use in uses:
        key = (use.path, use.line)
        if key not in seen:
            seen.add(key)
            out.append(use)
    return out


class SourceResolver:
    """Find the native file a Python string names: "kvcacheio/hicache.cuh", f"{here}/x.cu", "../../a.cu"."""

    def __init__(self, native_paths: list[str]):
        self.paths = native_paths
        self.exists = set(native_paths)
        self.by_base: dict[str, list[str]] = {}
        for path in native_paths:
            self.by_base.setdefault(posixpath.basename(path), []).append(path)

    def resolve(self, text: str, from_path: str) -> list[str]:
        here = posixpath.dirname(from_path)
        if "{" in text and "{...}" not in text:  # a str.format template's field (aiter's generated
            text = re.sub(r"\{\w*\}", "{...}", text)  # '#include "gemm_moe_ck2stages_common{quanttype}.cuh"')
        if "{...}" in text:
            tail = re.sub(r"^(\{\.\.\.\}/)+", "", text)
            if "{...}" not in tail:
                return self.resolve(tail, from_path)
            regex = re.compile("(?:^|/)" + pattern_regex(tail)[1:])  # matches a suffix of the path
            hits = [p for p in self.paths if regex.search(p)]
            return sorted(hits)
        if text.startswith("/"):
            return []
        joined = posixpath.normpath(posixpath.join(here, text))
        if joined in self.exists:
            return [joined]
        clean = "/".join(part for part in text.split("/") if part not in ("", ".", ".."))
        candidates = [p for p in self.by_base.get(posixpath.basename(clean), ()) if p == clean or p.endswith("/" + clean)]
        if len(candidates) <= 1:
            return candidates
        best = max(common_folders(p, from_path) for p in candidates)
        return sorted(p for p in candidates if common_folders(p, from_path) == best)


def common_folders(a: str, b: str) -> int:
    """How many leading path parts two posix paths share."""
    n = 0
    for x, y in zip(a.split("/"), b.split("/")):
        if x != y:
            break
        n += 1
    return n
