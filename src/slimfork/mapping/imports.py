"""Registries filled by importing submodules (``[[registries]] kind = "imports"``): a package ``__init__`` that
imports each of its submodules so that they register themselves when loaded,

    from sglang.srt.arg_groups.model_overrides import deepseek_v2  # noqa: F401
    from .qwen3_asr import Qwen3ASRAdapter  # noqa: F401  (@register_transcription_adapter("Qwen3ASR"))

``package`` names the module holding the imports (usually a package); the key of an import is the submodule it
loads, relative to that package (``deepseek_v2``, ``qwen3_asr``); ``keep`` lists every submodule whose import
stays, the registry's own (``base``) included. Module-level imports of submodules the spec
does not keep are deleted, with the names they bound from a literal ``__all__`` of the same module; the plan is
then made again, so the submodules nothing else imports leave the fork and never register. A removed key
behaves as one the package never had. An import whose name the module uses elsewhere fails the rewrite check
(no name left undefined) and the module stays as it is (unknown means keep). Another module importing a
removed name from the package fails the fork's imports check and the batch engine restores the file.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import libcst as cst

from slimfork.errors import SpecError, did_you_mean
from slimfork.index.relative import absolute_module
from slimfork.mapping.sourcecut import KeepsKeys, SourceCut
from slimfork.mapping.spec import cut_outcome
from slimfork.rewrite.comments import comments_of


@dataclass(frozen=True)
class ImportsRegistry(KeepsKeys):
    module: str  # the module whose imports register ("pkg.adapters")
    keep: tuple[str, ...]  # globs or "re:" regexes on the submodule names
    reason: str = ""
    key: str = "registries[0]"


ImportsCut = SourceCut[ImportsRegistry]


def imports_registries(raw: list) -> list[ImportsRegistry]:
    return [ImportsRegistry(reg["package"], tuple(reg["keep"]), reg.get("reason", ""), f"registries[{i}]")
            for i, reg in enumerate(raw) if reg.get("kind") == "imports"]


def cut_imports(registry: ImportsRegistry, rel: str, data: bytes, package: str) -> ImportsCut:
    """Delete the module-level imports of ``package``'s submodules that ``registry`` does not keep."""
    cut = ImportsCut(registry, rel)
    module = cst.parse_module(data)
    cutter = _Cutter(package, registry, cut)
    new_module = module.visit(cutter)
    if not cut.removed:
        return cut
    return cut.check(data, new_module.bytes, cutter.dropped)


class _Cutter(cst.CSTTransformer):
    def __init__(self, package: str, registry: ImportsRegistry, cut: ImportsCut):
        self.package, self.registry, self.cut = package, registry, cut
        self.bound: set[str] = set()  # names the deleted imports bound
        self.dropped: Counter[str] = Counter()

    def visit_FunctionDef(self, node) -> bool:
        return False  # module-level imports only

    def visit_ClassDef(self, node) -> bool:
        return False

    def leave_SimpleStatementLine(self, original, updated):
        if len(updated.body) != 1:
            return updated
        stmt = updated.body[0]
        if isinstance(stmt, (cst.Import, cst.ImportFrom)) and not isinstance(stmt.names, cst.ImportStar):
            return self._imports(stmt, updated)
        if isinstance(stmt, cst.Assign) and self.bound and _is_all(stmt):
            return self._all(stmt, updated)
        return updated

    def _imports(self, stmt, line):
        keys = [self._key(stmt, alias) for alias in stmt.names]
        if any(k is None for k in keys):
            return line
        removed = [k for k in keys if not self.registry.keeps(k)]
        self.cut.kept += [k for k in keys if self.registry.keeps(k)]
        if len(removed) != len(keys):
            if removed:  # a statement importing kept and unkept submodules together stays (rare; unknown: keep)
                self.cut.kept += removed
            return line
        self.cut.removed += removed
        for alias in stmt.names:
            self.bound.add(_bound(alias))
        self.dropped.update(comments_of(line))
        return cst.RemoveFromParent()

    def _key(self, stmt, alias) -> str | None:
        """The submodule of ``package`` an import alias loads, or None when it loads something else."""
        if isinstance(stmt, cst.Import):
            dotted = _code(alias.name)
            return _child(dotted, self.package)
        base = _absolute(stmt, self.package)
        if base is None:
            return None
        if base == self.package:  # from pkg import sub
            return _code(alias.name) if isinstance(alias.name, cst.Name) else None
        return _child(base, self.package)  # from pkg.sub import Name

    def _all(self, stmt: cst.Assign, line):
        value = stmt.value
        if not isinstance(value, (cst.List, cst.Tuple)):
            return line
        elements = [e for e in value.elements
                    if not (isinstance(e.value, cst.SimpleString) and e.value.evaluated_value in self.bound)]
        if len(elements) == len(value.elements):
            return line
        if elements:
            elements[-1] = elements[-1].with_changes(comma=value.elements[-1].comma)
        return line.with_changes(body=[stmt.with_changes(value=value.with_changes(elements=elements))])


def _is_all(stmt: cst.Assign) -> bool:
    return len(stmt.targets) == 1 and isinstance(stmt.targets[0].target, cst.Name) and \
        stmt.targets[0].target.value == "__all__"


def _bound(alias: cst.ImportAlias) -> str:
    if alias.asname is not None:
        return _code(alias.asname.name)
    return _code(alias.name).split(".")[0]


def _child(dotted: str, package: str) -> str | None:
    if not dotted.startswith(package + "."):
        return None
    return dotted[len(package) + 1:].split(".")[0]


def _absolute(stmt: cst.ImportFrom, package: str) -> str | None:
    name = _code(stmt.module) if stmt.module is not None else ""
    level = len(stmt.relative)
    if not level:
        return name
    if level - 1 > len(package.split(".")):
        return None
    return absolute_module(package, level, name or None) or ""


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node).strip()


def cut_imports_registries(analysis, scratch: Path) -> list[ImportsCut]:
    mm = analysis.graph.mm
    cuts = []
    for registry in imports_registries(analysis.spec.raw.get("registries", [])):
        info = mm.modules.get(registry.module)
        if info is None or info.path is None:
            raise SpecError(f"no module '{registry.module}' in the source", key=f"{registry.key}.package",
                            hint=did_you_mean(registry.module, [m for m in mm.modules if mm.is_internal(m)],
                                              "name the module (a package) whose imports register its submodules"))
        package = registry.module if info.is_package else registry.module.rpartition(".")[0]
        path = scratch / info.path
        named = _named_submodules(package, info.path, analysis, scratch)
        held = sorted(k for k in named if not registry.keeps(k))
        if held:  # ipkg.adapters.glm.RATE in a kept module: the import of glm stays
            registry = dataclasses.replace(registry, keep=registry.keep + tuple(held))
        cut = cut_imports(registry, info.path, path.read_bytes(), package)
        if cut.new_source is not None:
            path.write_bytes(cut.new_source)
        cuts.append(cut)
    return cuts


_IMPORT_LINE = re.compile(r"^[ \t]*(?:from[ \t]+\S+[ \t]+import\b|import[ \t]).*$", re.M)


def _named_submodules(package: str, own: str, analysis, scratch: Path) -> set[str]:
    """The submodules of ``package`` that kept modules other than ``own`` name: ``package.sub`` in their text
    (an attribute chain, an import) or ``from package import sub``."""
    dotted = re.compile(re.escape(package) + r"\.(\w+)")
    from_import = re.compile(r"from\s+" + re.escape(package) + r"\s+import\s+(\([^)]*\)|[^\n#]+)")
    removed = analysis.plan.removed_paths()
    found: set[str] = set()
    for rel, module in analysis.graph.mm.by_path.items():
        if rel == own or rel in removed or not rel.endswith(".py") or not (scratch / rel).is_file():
            continue
        text = (scratch / rel).read_text(encoding="utf-8", errors="replace")
        if package not in text:
            continue
        names = set(dotted.findall(_IMPORT_LINE.sub("", text)))  # `from pkg.sub import X` loads sub itself
        for listed in from_import.findall(text):
            names.update(n.split()[0] for n in listed.strip("()").split(",") if n.split())
        found.update(n for n in names if not (module + ".").startswith(f"{package}.{n}."))  # not itself
    return found


def imports_report(cuts: list[ImportsCut]) -> str:
    lines = []
    for cut in cuts:
        reg = cut.registry
        what = cut_outcome(cut.failure, list(dict.fromkeys(cut.kept)), [f"`{k}`" for k in cut.removed],
                           "removed the imports of")
        lines.append(f"- `{reg.module}` ({cut.path}): {what}" + (f" ({reg.reason})" if reg.reason else ""))
    return "\n".join(lines) + "\n"


def imports_data(cuts: list[ImportsCut]) -> list[dict]:
    return [{"module": c.registry.module, "path": c.path, "kept": list(dict.fromkeys(c.kept)), "removed": c.removed,
             "failure": c.failure} for c in cuts]
