"""Console scripts, entry points and installed script files the spec drops: ``drop = ["script:NAME",
"entry-point:GROUP:NAME", "bin/tool"]``. The build metadata makes each declared one a root (the fork's commands must
work), so a spec keeping one feature of a project with a command line kept the whole command line. A dropped one
leaves the distribution the fork declares: it is no root, and its declaration leaves the fork's build files
(``pyproject.toml``'s tables, ``setup.cfg``'s ``[options.entry_points]``/``[entry_points]``, a literal list of
``setup.py``, ``entry_points.txt`` of the tree's ``*.egg-info``/``*.dist-info``), so the fork installs without a
command whose code is gone. A declaration that cannot be cut (a computed one) stops the run: never a fork that
declares a command it lacks."""

from __future__ import annotations

import ast
import configparser
import dataclasses
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

from slimfork.errors import SpecError
from slimfork.globs import first_match

SCRIPT = "script:"
ENTRY = "entry-point:"
Groups = dict[str, dict[str, str]]  # group -> name -> "module:attr"


def is_entry_drop(pattern: str) -> bool:
    return pattern.startswith((SCRIPT, ENTRY))


@dataclass(frozen=True)
class EntryDrop:
    index: int  # in the spec's drop
    group: str  # a glob of the entry point group (console scripts: console_scripts)
    name: str  # a glob of the name

    def matches(self, group: str, name: str) -> bool:
        return fnmatchcase(group, self.group) and fnmatchcase(name, self.name)


def entry_drops(patterns: list[str]) -> list[EntryDrop]:
    out = []
    for i, pattern in enumerate(patterns):
        if pattern.startswith(SCRIPT):
            name = pattern[len(SCRIPT):].strip()
            group = "console_scripts"
        elif pattern.startswith(ENTRY):
            group, _, name = pattern[len(ENTRY):].partition(":")
            group, name = group.strip(), name.strip() or "*"
        else:
            continue
        if not name or not group:
            raise SpecError(f"'{pattern}' names no console script or entry point", key=f"drop[{i}]",
                            hint="write 'script:NAME' or 'entry-point:GROUP:NAME' (globs allowed)")
        out.append(EntryDrop(i, group, name))
    return out


def path_drops(patterns: list[str]) -> list[str]:
    """The spec's drop globs that name paths (the others name scripts and entry points)."""
    return [p for p in patterns if not is_entry_drop(p)]


def split_dropped(scripts: dict[str, str], entry_points: Groups,
                  drops: list[EntryDrop]) -> tuple[dict[str, str], Groups, Groups]:
    """(the scripts kept, the entry points kept, the dropped ones as group -> name -> value)."""
    dropped: Groups = {}
    kept_scripts = {}
    for name, value in scripts.items():
        if any(d.matches("console_scripts", name) for d in drops):
            dropped.setdefault("console_scripts", {})[name] = value
        else:
            kept_scripts[name] = value
    kept_eps: Groups = {}
    for group, entries in entry_points.items():
        for name, value in entries.items():
            if any(d.matches(group, name) for d in drops):
                dropped.setdefault(group, {})[name] = value
            else:
                kept_eps.setdefault(group, {})[name] = value
    return kept_scripts, kept_eps, dropped


def unmatched(drops: list[EntryDrop], dropped: Groups) -> list[EntryDrop]:
    return [d for d in drops if not any(d.matches(g, n) for g, names in dropped.items() for n in names)]


def apply_drops(tree, patterns: list[str]):
    """``tree`` (a SourceTree) without the console scripts and entry points ``patterns`` drop, with the cut
    build files (``entry_cuts``) and the dropped entries (``dropped_entries``); a declaration that cannot be cut
    is a SpecError."""
    drops = entry_drops(patterns)
    paths = path_drops(patterns)
    files = [p for p in _installed_script_paths(tree.root) if first_match(paths, p) is not None] if paths else []
    if not drops and not files:
        return dataclasses.replace(tree, drop=tuple(paths))
    dist = tree.dist
    dropped: Groups = {}
    if dist is not None and drops:
        scripts, eps, dropped = split_dropped(dist.scripts, dist.entry_points, drops)
        dist = dataclasses.replace(dist, scripts=scripts, entry_points=eps)
    cuts = cut_declarations(tree.root, dropped, files, drops)
    return dataclasses.replace(tree, dist=dist, dropped_entries=dropped, entry_cuts=cuts, drop=tuple(paths))


def _installed_script_paths(root: Path) -> list[str]:
    from slimfork.source.build_config import installed_scripts

    return installed_scripts(root)


# --- cutting the declarations -------------------------------------------------------------------------------------

def cut_declarations(root: Path, dropped: Groups, files: list[str], drops: list[EntryDrop]) -> dict[str, bytes]:
    """path -> the build file's new content, without the dropped entries and installed script ``files``."""
    out: dict[str, bytes] = {}
    if not dropped and not files:
        return out
    pairs = {(g, n, _norm(v)) for g, names in dropped.items() for n, v in names.items()}
    for rel, cut in (("pyproject.toml", _cut_pyproject), ("setup.cfg", _cut_setup_cfg), ("setup.py", _cut_setup_py)):
        path = root / rel
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        new = cut(text, dropped, pairs, files)
        if new != text:
            out[rel] = new.encode("utf-8")
    for path in [p for pattern in ("*.egg-info", "src/*.egg-info", "*.dist-info")
                 for p in sorted(root.glob(f"{pattern}/entry_points.txt"))]:
        text = path.read_text(encoding="utf-8", errors="replace")
        new = _cut_ini_lines(text, lambda section, option, name: option is None and section in dropped
                             and name in dropped[section])
        if new != text:
            out[path.relative_to(root).as_posix()] = new.encode("utf-8")
    _check_cut(root, out, dropped, files, drops)
    return out


def _norm(value: str) -> str:
    return re.sub(r"\s+", "", value)


_TOML_TABLES: dict[str, list[tuple[str, ...]]] = {"console_scripts": [("project", "scripts"), ("tool", "poetry", "scripts")],
                "gui_scripts": [("project", "gui-scripts")]}


def _tables(group: str) -> list[tuple[str, ...]]:
    return _TOML_TABLES.get(group, [("project", "entry-points", group), ("tool", "poetry", "plugins", group)])


def _header_path(line: str) -> tuple[str, ...] | None:
    """The key path of a ``[table]`` header line (not an array of tables), or None."""
    stripped = line.strip()
    if not stripped.startswith("[") or stripped.startswith("[["):
        return None
    try:
        data = tomllib.loads(stripped.split("#")[0] if '"' not in stripped and "'" not in stripped else stripped)
    except tomllib.TOMLDecodeError:
        return None
    path: list[str] = []
    while isinstance(data, dict) and len(data) == 1:
        key, data = next(iter(data.items()))
        path.append(key)
    return tuple(path) if data == {} else None


def _line_key(line: str) -> str | None:
    """The key of a ``key = value`` TOML line (bare or quoted), or None."""
    try:
        data = tomllib.loads(line)
    except tomllib.TOMLDecodeError:
        return None
    return next(iter(data)) if len(data) == 1 and not isinstance(next(iter(data.values())), dict) else None


def _cut_pyproject(text: str, dropped: Groups, pairs, files: list[str]) -> str:
    wanted = {path: set(names) for group, names in dropped.items() for path in _tables(group)}
    out, table = [], None
    for line in text.splitlines(keepends=True):
        header = _header_path(line)
        if header is not None:
            table = header
        elif table in wanted and (key := _line_key(line)) is not None and key in wanted[table]:
            continue
        out.append(line)
    return "".join(out)


def _cut_ini_lines(text: str, drop) -> str:
    """Remove the ``name = value`` lines ``drop(section, option, name)`` selects: in a section (``option`` None) or
    in the indented continuation lines of an option's value."""
    out, section, option = [], None, None
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]") and not line[:1].isspace():
            section, option = stripped[1:-1].strip(), None
        elif stripped and not stripped.startswith(("#", ";")):
            name, eq, _ = stripped.partition("=")
            if not line[:1].isspace():
                option = name.strip() if eq else None
                if eq and drop(section, None, name.strip()):
                    continue
            elif eq and option is not None and drop(section, option, name.strip()):
                continue
        out.append(line)
    return "".join(out)


def _cut_setup_cfg(text: str, dropped: Groups, pairs, files: list[str]) -> str:
    def drop(section, option, name):
        return section in ("options.entry_points", "entry_points") and option is not None and option in dropped \
            and name in dropped[option]

    text = _cut_ini_lines(text, drop)
    if files:  # [options] scripts = bin/a\n    bin/b
        lines = text.splitlines(keepends=True)
        out, section, option = [], None, None
        for line in lines:
            stripped = line.strip()
            if stripped.startswith("[") and stripped.endswith("]") and not line[:1].isspace():
                section, option = stripped[1:-1].strip(), None
            elif stripped and not line[:1].isspace():
                option = stripped.partition("=")[0].strip() if "=" in stripped else None
                if section == "options" and option == "scripts":
                    value = stripped.partition("=")[2].split()
                    kept = [v for v in value if v.lstrip("./") not in files]
                    if kept != value:
                        line = f"{stripped.partition('=')[0].rstrip()} = {' '.join(kept)}\n"
            elif stripped and section == "options" and option == "scripts" and stripped.lstrip("./") in files:
                continue
            out.append(line)
        text = "".join(out)
    return text


def _cut_setup_py(text: str, dropped: Groups, pairs, files: list[str]) -> str:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return text
    names = {(n, v) for _, n, v in pairs}
    spans = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.List, ast.Tuple)):
            continue
        hits = []
        for i, elt in enumerate(node.elts):
            if not (isinstance(elt, ast.Constant) and isinstance(elt.value, str)):
                continue
            name, eq, value = elt.value.partition("=")
            if (eq and (name.strip(), _norm(value)) in names) or elt.value.lstrip("./") in files:
                hits.append(i)
        spans += element_spans(node, hits)
    if not spans:
        return text
    data = text.encode("utf-8")  # ast's columns are UTF-8 byte offsets
    offsets = line_offsets(data)
    for start, end in sorted(((offsets[a[0] - 1] + a[1], offsets[b[0] - 1] + b[1]) for a, b in spans), reverse=True):
        data = data[:start] + data[end:]
    return data.decode("utf-8")


def element_spans(node: ast.List | ast.Tuple, hits: list[int]):
    """The (start, end) positions, as (line, col), that remove elements ``hits`` of a list with their separating
    commas: each run of removed elements up to the next kept one, or from the previous kept one when the run ends
    the list; all of them when none is kept."""
    elts = node.elts
    out: list = []
    if not hits:
        return out
    if len(hits) == len(elts):  # up to the closing bracket: a trailing comma goes too (`[,]` is no list)
        end = (node.end_lineno or 0, node.end_col_offset or 0)
        closing = (end[0], end[1] - 1) if isinstance(node, ast.List) or end > (
            elts[-1].end_lineno or 0, elts[-1].end_col_offset or 0) else None
        return [((elts[0].lineno, elts[0].col_offset), closing or (elts[-1].end_lineno, elts[-1].end_col_offset))]
    runs: list[list[int]] = []
    for i in hits:
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    for run in runs:
        first, last = elts[run[0]], elts[run[-1]]
        if run[-1] + 1 < len(elts):
            nxt = elts[run[-1] + 1]
            out.append(((first.lineno, first.col_offset), (nxt.lineno, nxt.col_offset)))
        else:
            prev = elts[run[0] - 1]
            out.append(((prev.end_lineno, prev.end_col_offset), (last.end_lineno, last.end_col_offset)))
    return out


def line_offsets(data: bytes) -> list[int]:
    """The byte offset of each line's start."""
    out, pos = [], 0
    for line in data.splitlines(keepends=True):
        out.append(pos)
        pos += len(line)
    out.append(pos)
    return out


def _check_cut(root: Path, cuts: dict[str, bytes], dropped: Groups, files: list[str], drops: list[EntryDrop]) -> None:
    """Every dropped entry and script file must be gone from every build file that declared it, and each cut
    file must still parse: else stop (a computed declaration, or a form no cut reads)."""
    from slimfork.source.build_config import declared_list
    from slimfork.source.declared_entry_points import declared_entry_points

    import shutil
    import tempfile

    with tempfile.TemporaryDirectory(prefix="slimfork-entry-drops-") as tmp:
        scratch = Path(tmp)
        for rel in ("pyproject.toml", "setup.cfg", "setup.py"):
            if (root / rel).is_file():
                shutil.copyfile(root / rel, scratch / rel)
        for rel, data in cuts.items():
            (scratch / rel).parent.mkdir(parents=True, exist_ok=True)
            (scratch / rel).write_bytes(data)
        for rel, data in cuts.items():
            _parses(rel, data.decode("utf-8"))
        left = declared_entry_points(scratch)
        left_pep621 = _pep621_entries(scratch / "pyproject.toml")
        left_pbr = _pbr_entries(scratch / "setup.cfg")
        left_ini = {rel: _ini_entries(data.decode("utf-8", "replace")) for rel, data in cuts.items()
                    if rel.endswith("entry_points.txt")}
        still: list[tuple[str, str, str]] = []
        for group, names in dropped.items():
            for name in names:
                where = [w for w, found in [("setup.cfg/setup.py/poetry", left), ("pyproject.toml", left_pep621),
                                            ("setup.cfg", left_pbr),
                                            *left_ini.items()] if name in found.get(group, {})]
                if where:
                    still.append((group, name, where[0]))
        left_files = set(declared_list(scratch, "script-files", "scripts"))
        still += [("scripts", f, "the build configuration") for f in files if f in left_files]
        setup_py = scratch / "setup.py"
        if setup_py.is_file():
            text = setup_py.read_text(encoding="utf-8", errors="replace")
            if dropped and not _literal_entry_points(text):
                still.append(next((g, n, "setup.py's computed entry_points") for g, ns in dropped.items() for n in ns))
            still += [(g, n, "setup.py") for g, names in dropped.items() for n, v in names.items()
                      if (g, n, "setup.py") not in still and re.search(
                          r"['\"]\s*" + re.escape(n) + r"\s*=\s*" + re.escape(v.strip()) + r"\s*['\"]", text)]
    if still:
        group, name, place = still[0]
        key = next((f"drop[{d.index}]" for d in drops if d.matches(group, name)), "drop")
        what = f"installed script '{name}'" if group == "scripts" else \
            f"console script '{name}'" if group == "console_scripts" else f"entry point [{group}] '{name}'"
        raise SpecError(f"{what} is dropped but {place} declares it in a form slimfork cannot cut (computed, or "
                        "not a literal list)", key=key,
                        hint="remove the drop, or edit the build configuration so the declaration is a literal")


def _literal_entry_points(text: str) -> bool:
    """Whether every ``entry_points=`` of a ``setup(...)`` call is a literal, or a name whose every module-level
    binding (``if``/``else`` arms too: apprise's ``console_scripts``) is one; ``setup(**kwargs)`` is unknown."""
    from slimfork.source.declared_entry_points import _value

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    bindings: dict[str, list[ast.expr]] = {}
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        stmt = todo.pop()
        if isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                if isinstance(t, ast.Name):
                    bindings.setdefault(t.id, []).append(stmt.value)
        elif isinstance(stmt, (ast.If, ast.Try)):
            todo += [*stmt.body, *stmt.orelse, *getattr(stmt, "finalbody", []),
                     *(s for h in getattr(stmt, "handlers", []) for s in h.body)]
    assigned = {name: values[0] for name, values in bindings.items() if len(values) == 1}

    def literal(node: ast.expr) -> bool:
        if isinstance(node, ast.Name) and len(bindings.get(node.id, ())) > 1:
            return all(literal(v) for v in bindings[node.id])
        if isinstance(node, ast.Dict) and None not in node.keys:
            return all(isinstance(_value(k, assigned), str) and literal(v)  # type: ignore[arg-type]
                       for k, v in zip(node.keys, node.values))
        return isinstance(_value(node, assigned), (str, list, dict))

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "setup" \
                and not _known_keywords(node.keywords, assigned, tree, literal):
            return False
    return True


def _known_keywords(keywords: list[ast.keyword], assigned: dict[str, ast.expr], tree: ast.Module,
                    literal: Callable[[ast.expr], bool]) -> bool:
    """Every ``entry_points=`` among ``keywords`` is a literal, and each ``**NAME`` is a name bound once to a dict
    literal with string keys or a ``dict(...)`` call whose keywords are known the same way (fontTools'
    ``setup_params = dict(..., **classifiers)``), and nothing changes it (no item store, no method call)."""
    for kw in keywords:
        if kw.arg == "entry_points" and not literal(kw.value):
            return False
        if kw.arg is not None:
            continue
        name = kw.value.id if isinstance(kw.value, ast.Name) else None
        value = assigned.get(name) if name else None
        if name is None or value is None or _changed(name, tree):
            return False
        if isinstance(value, ast.Dict):
            keys = [k.value if isinstance(k, ast.Constant) else None for k in value.keys]
            if not all(isinstance(k, str) for k in keys) or ("entry_points" in keys and not literal(
                    value.values[keys.index("entry_points")])):
                return False
        elif not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict"
                  and not value.args and _known_keywords(value.keywords, assigned, tree, literal)):
            return False
    return True


def _changed(name: str, tree: ast.Module) -> bool:
    return any(isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.value, ast.Name) and n.value.id == name
               and (isinstance(n, ast.Attribute) or isinstance(n.ctx, ast.Store)) for n in ast.walk(tree))


def _parses(rel: str, text: str) -> None:
    try:
        if rel.endswith(".toml"):
            tomllib.loads(text)
        elif rel.endswith(".py"):
            ast.parse(text)
        else:
            parser = configparser.ConfigParser(interpolation=None)
            parser.read_string(text)
    except (tomllib.TOMLDecodeError, SyntaxError, configparser.Error) as exc:
        raise SpecError(f"cutting the dropped entries left {rel} unreadable ({exc})", key="drop",
                        hint="remove the script and entry point drops, and report this") from exc


def _pep621_entries(path: Path) -> Groups:
    if not path.is_file():
        return {}
    project = tomllib.loads(path.read_text(encoding="utf-8")).get("project") or {}
    out: Groups = {"console_scripts": dict(project.get("scripts") or {}),
                   "gui_scripts": dict(project.get("gui-scripts") or {})}
    for group, entries in (project.get("entry-points") or {}).items():
        out[group] = dict(entries)
    return out


def _pbr_entries(path: Path) -> Groups:
    """pbr's ``[entry_points]`` section of setup.cfg."""
    from slimfork.source.declared_entry_points import _lines

    if not path.is_file():
        return {}
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(path.read_text(encoding="utf-8", errors="replace"))
    if not parser.has_section("entry_points"):
        return {}
    return {group: _lines(text) for group, text in parser.items("entry_points")}


def _ini_entries(text: str) -> Groups:
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment, method-assign]
    parser.read_string(text)
    return {s: dict(parser.items(s)) for s in parser.sections()}
