"""Modules only a dynamic import's constant prefix keeps, and only if one of its holes holds a dot: mlx-audio's
``importlib.import_module(f"mlx_audio.{domain.value}.models.{model_type}")`` keeps every module of ``mlx_audio``
(``model_type`` comes from a config file and may be ``"a.b"``: unknown means keep), but with one name per hole it
names ``mlx_audio.*.models.*`` and their packages, never ``mlx_audio/sts/models/moshi_backend/client.py``. Those
modules stay kept; the audit reports them at 30, saying what would have to hold for the import to reach them."""

from __future__ import annotations

import ast
import re
from collections import deque

from slimfork.fsutil import folders_above
from slimfork.audit.model import Finding

CONFIDENCE = 30
_PREFIX = re.compile(r" \(prefix '[\w.]*'\)$")


def dotted_hole_findings(graph, python_paths: list[str], lines: dict[str, int]) -> list[Finding]:
    patterns: dict[str, set[str] | None] = {}  # the import's text -> the modules it names, and their packages
    narrowed: deque[str] = deque(root.module for root in graph.roots)
    seen = set(narrowed)
    sites: dict[str, str] = {}  # module -> the dynamic import that alone keeps it
    while narrowed:
        module = narrowed.popleft()
        for edge in graph.edges.get(module, ()):
            detail = edge.detail or ""
            if edge.kind == "dynamic" and _PREFIX.search(detail):
                if detail not in patterns:
                    patterns[detail] = _named(_one_name_per_hole(_PREFIX.sub("", detail)), graph)
                named = patterns[detail]
                if named is not None and edge.target not in named:  # (None: no pattern, the prefix keeps all)
                    sites.setdefault(edge.target, f"{graph.mm.modules[module].path}:{edge.line} "
                                                  f"{_PREFIX.sub('', detail)}")
                    continue
            if edge.target not in seen:
                seen.add(edge.target)
                narrowed.append(edge.target)
    only = {m: why for m, why in sites.items() if m in graph.reached and m not in seen}
    files = {info.path: only[m] for m in only if (info := graph.mm.modules.get(m)) and info.path}
    return _grouped(files, python_paths, lines)


def _one_name_per_hole(call: str) -> re.Pattern | None:
    """The module names an ``import_module(f"...")`` call's f-string gives with one name part per hole."""
    try:
        node = ast.parse(call.strip(), mode="eval").body
    except SyntaxError:
        return None
    fstring = next((n for n in ast.walk(node) if isinstance(n, ast.JoinedStr)), None)
    if fstring is None or isinstance(node, ast.Call) and (len(node.args) > 1 or node.keywords):
        return None  # import_module(f".{name}", package=...): relative, not narrowed here
    text = ""
    for value in fstring.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            text += re.escape(value.value)
        elif isinstance(value, ast.FormattedValue) and value.format_spec is None:
            text += r"[A-Za-z_]\w*"
        else:
            return None
    return re.compile(text)


def _named(pattern: re.Pattern | None, graph) -> set[str] | None:
    """The modules the pattern names and their packages (importing a.b.c runs a and a.b)."""
    if pattern is None:
        return None
    out: set[str] = set()
    for module in graph.mm.modules:
        if pattern.fullmatch(module):
            parts = module.split(".")
            out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return out


def _grouped(files: dict[str, str], python_paths: list[str], lines: dict[str, int]) -> list[Finding]:
    """One finding per top folder all of whose Python files are in ``files``, else one per file."""
    below: dict[str, list[str]] = {}
    for path in python_paths:
        for folder in folders_above(path):
            below.setdefault(folder, []).append(path)
    whole = {f for f, paths in below.items() if all(p in files for p in paths)}
    top = sorted(f for f in whole if not any(f.startswith(o + "/") for o in whole))
    out, covered = [], set()
    for folder in top:
        paths = sorted(below[folder])
        covered.update(paths)
        out.append(_finding(folder + "/", f"folder {folder}/ ({len(paths)} Python files, "
                            f"{sum(lines.get(p, 0) for p in paths)} lines)", files[paths[0]],
                            {"files": paths, "lines": sum(lines.get(p, 0) for p in paths)}))
    for path in sorted(set(files) - covered):
        out.append(_finding(path, path, files[path], {"lines": lines.get(path, 0)}))
    return out


def _finding(subject: str, what: str, site: str, details: dict) -> Finding:
    return Finding("unused-file", subject, f"{what} is reached only if a built module name holds a dot",
                   f"only the dynamic import at {site} reaches it, and only if one of its holes holds a dot (a value "
                   f"from a config or the user): with one name per hole it names it not; kept, since unknown means "
                   f"keep", CONFIDENCE, subject, None, {**details, "dotted_hole": site})
