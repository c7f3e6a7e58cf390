"""Requirements a source tree declares outside PEP 621 metadata: ``setup.py``'s ``install_requires``,
``extras_require`` and ``tests_require`` (literal, or read from a requirements file the call names),
``setup.cfg``'s ``[options]`` and ``[options.extras_require]``, setuptools' ``dynamic`` requirement files,
poetry's ``[tool.poetry.dependencies]`` and groups, pdm's, uv's and rye's dev dependencies, ``requirements*.txt``
files and tox.ini's ``[testenv] deps``. A git checkout has no PKG-INFO, and an older sdist's PKG-INFO lists no
``Requires-Dist``: without these the draft's ``[verify]`` suggestion named none of a setup.py project's
dependencies (zope.deprecation 5.0, async-timeout 4.0.3)."""

from __future__ import annotations

import ast
import configparser
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from slimfork.source.declared_entry_points import literal_value

_REQ = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\s*(\[[^\]]*\])?\s*(\(|[<>=!~;@]|$)")
# a list of the oldest releases a project supports (``tests-min.txt`` beside ``tests.txt``): a CI run of its own
_OLDEST = re.compile(r"[-_.](min|minimum|minimal|lowest|oldest)(?=$|[-_.])")
_TEST = re.compile(r"(^|[-_.])(tests?|testing)($|[-_.])", re.I)
_RUNTIME_FILES = ("requirements", "base", "main", "install", "runtime", "prod", "requires")


@dataclass
class Declared:
    """Runtime requirement lines and named lists (an extra, a dependency group, a requirements file's stem, tox's
    deps), each with where it was read."""

    runtime: list[str] = field(default_factory=list)
    groups: dict[str, list[str]] = field(default_factory=dict)
    origins: list[str] = field(default_factory=list)
    relaxed: dict[str, str] = field(default_factory=dict)  # a requirements file's pin as a lower bound -> the pin
    oldest: list[str] = field(default_factory=list)  # files not read: the oldest releases supported, a CI variant

    def add(self, name: str | None, lines: list[str], origin: str) -> None:
        lines = [line for line in lines if line]
        if not lines:
            return
        if name is None:
            self.runtime += lines
        else:
            self.groups.setdefault(name, []).extend(lines)
        if origin not in self.origins:
            self.origins.append(origin)


def is_test_group(name: str) -> bool:
    """A list for the tests: ``test``, ``tests``, ``testing``, ``tests_require``, ``test-requirements``, tox."""
    return bool(_TEST.search(name)) or name in ("tests_require", "tox")


def declared_requirements(root: Path) -> Declared:
    out = Declared()
    used_files: set[Path] = set()
    _setup_py(root, out, used_files)
    _setup_cfg(root, out, used_files)
    _pyproject(root, out, used_files)
    _requirement_files(root, out, used_files)
    _tox(root, out, used_files)
    return out


def read_requirement_file(path: Path, read: set[Path] | None = None, _stack: tuple[Path, ...] = ()) -> list[str]:
    """The requirement lines of a pip requirements file: ``-r``/``--requirement`` followed (relative to it), options,
    ``-e``/``-c``, paths and URLs left out, comments and ``--hash`` stripped, ``\\`` continuations joined.
    ``read`` collects every file read, the included ones too (no file of it is scanned again on its own)."""
    try:
        path = path.resolve()
        if path in _stack or not path.is_file():
            return []
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    if read is not None:
        read.add(path)
    out: list[str] = []
    for line in text.replace("\\\n", " ").splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        include = re.match(r"^(?:-r|--requirement)\s*=?\s*(\S+)", line)
        if include:
            out += read_requirement_file(path.parent / include.group(1), read, (*_stack, path))
        elif line and not line.startswith("-") and _REQ.match(line):
            out.append(" ".join(re.sub(r"\s+--hash\S*", "", line).split()))
    return out


def _setup_py(root: Path, out: Declared, used: set[Path]) -> None:
    path = root / "setup.py"
    if not path.is_file():
        return
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (SyntaxError, ValueError):
        return
    assigned = {t.id: n.value for n in tree.body if isinstance(n, ast.Assign) for t in n.targets
                if isinstance(t, ast.Name)}
    for node in ast.walk(tree):
        for kw in node.keywords if isinstance(node, ast.Call) else ():
            if kw.arg in ("install_requires", "tests_require"):
                name = None if kw.arg == "install_requires" else "tests_require"
                value = literal_value(kw.value, assigned)
                if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
                    out.add(name, [str(v).strip() for v in value], "setup.py")
                elif isinstance(value, str):
                    out.add(name, _lines(value), "setup.py")
                else:  # open("requirements.txt").read().splitlines(), parse_requirements("requirements/base.txt")
                    for file in _named_files(root, kw.value, assigned):
                        out.add(name, _lower_bounds(read_requirement_file(file, used), out),
                                f"setup.py ({file.relative_to(root).as_posix()})")
            elif kw.arg == "extras_require":
                value = literal_value(kw.value, assigned)
                if isinstance(value, dict):
                    for extra, reqs in value.items():
                        _extra(out, str(extra), reqs, "setup.py")


def _extra(out: Declared, extra: str, reqs, origin: str) -> None:
    """An extras_require entry: ``"test"``, or ``"test:python_version < '3.8'"`` (its marker goes on each line)."""
    name, _, marker = extra.partition(":")
    lines = _lines(reqs) if isinstance(reqs, str) else [str(r).strip() for r in reqs] \
        if isinstance(reqs, (list, tuple)) else []
    if marker.strip():
        lines = [f"{line} and ({marker.strip()})" if ";" in line else f"{line}; {marker.strip()}" for line in lines]
    out.add(name.strip() or "_", lines, origin)


def _named_files(root: Path, node: ast.expr, assigned: dict[str, ast.expr]) -> list[Path]:
    """Requirement files a computed ``install_requires`` names: string constants below it (through names bound at
    module level and the functions of the file it calls) that are files of the source."""
    found: list[Path] = []
    todo, seen = [node], set()
    while todo:
        current = todo.pop()
        for sub in ast.walk(current):
            if isinstance(sub, ast.Name) and sub.id in assigned and sub.id not in seen:
                seen.add(sub.id)
                todo.append(assigned[sub.id])
            elif isinstance(sub, ast.Constant) and isinstance(sub.value, str) and sub.value.strip() \
                    and len(sub.value) < 200 and "\n" not in sub.value:
                try:
                    file = (root / sub.value).resolve()
                    inside = file.is_file() and file.is_relative_to(root.resolve())
                except (OSError, ValueError):
                    inside = False
                if inside and file.suffix in (".txt", ".in") and file not in found:
                    found.append(file)
    return found


def _lines(text: str) -> list[str]:
    """The requirements of a multi-line value, a line ending in ``\\`` joined to the next, as setuptools reads it
    (jaraco.path 3.5.0's ``pytest-flake8; \\`` over ``python_version < "3.12"``: the marker was a requirement)."""
    text = re.sub(r"[ \t]*\\[ \t]*\n\s*", " ", text)
    return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]


def _setup_cfg(root: Path, out: Declared, used: set[Path]) -> None:
    path = root / "setup.cfg"
    if not path.is_file():
        return
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # extra names keep their case
    try:
        parser.read_string(path.read_text(encoding="utf-8", errors="replace"))
    except configparser.Error:
        return
    for key, name in (("install_requires", None), ("tests_require", "tests_require")):
        text = parser.get("options", key, fallback="")
        out.add(name, _cfg_value(root, text, used, out), "setup.cfg")
    if parser.has_section("options.extras_require"):
        for extra, text in parser.items("options.extras_require"):
            _extra(out, extra, _cfg_value(root, text, used, out), "setup.cfg")


def _cfg_value(root: Path, text: str, used: set[Path], out: Declared) -> list[str]:
    """A setup.cfg list, or ``file: requirements.txt`` (setuptools 62.6)."""
    if text.strip().startswith("file:"):
        lines = []
        for name in text.strip()[5:].split(","):
            lines += _lower_bounds(read_requirement_file(root / name.strip(), used), out)
        return lines
    if "\n" in text.strip():
        return _lines(text)
    # one line is a list separated by ';', as setuptools reads it (stack_data 0.6.3's `tests = pytest; typeguard;
    # pygments`); a part that starts with a marker variable is the previous requirement's marker
    out_lines: list[str] = []
    for part in (p.strip() for p in text.split(";")):
        if part and out_lines and _MARKER_START.match(part):
            out_lines[-1] += f"; {part}"
        elif part and not part.startswith("#"):
            out_lines.append(part)
    return out_lines


_MARKER_START = re.compile(r"(python_version|python_full_version|python_implementation|sys_platform|platform_\w+|"
                           r"os_name|implementation_\w+|extra)\s*(==|!=|<=|>=|<|>|~=|not\s+in\b|in\b)")


def _pyproject(root: Path, out: Declared, used: set[Path]) -> None:
    path = root / "pyproject.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError):
        return
    tool = data.get("tool")
    tool = tool if isinstance(tool, dict) else {}
    setuptools = tool.get("setuptools")
    dynamic = setuptools.get("dynamic", {}) if isinstance(setuptools, dict) else {}
    if isinstance(dynamic, dict):
        for name, files in _dynamic_files(dynamic):
            for file in files:
                out.add(name, _lower_bounds(read_requirement_file(root / file, used), out),
                        "pyproject.toml [tool.setuptools.dynamic]")
    poetry = tool.get("poetry")
    if isinstance(poetry, dict):
        _poetry(poetry, out)
    _dev_tables(tool, out)


def _dev_tables(tool: dict, out: Declared) -> None:
    """pdm's ``[tool.pdm.dev-dependencies]`` groups (before PEP 735; unearth 0.17.2's ``test`` group held its test
    dependencies, and the draft had pytest alone), and uv's and rye's ``dev-dependencies`` lists (a ``dev`` group).
    An editable or path entry (``-e file:///${PROJECT_ROOT}/...``) is left out."""
    pdm = tool.get("pdm")
    groups = pdm.get("dev-dependencies") if isinstance(pdm, dict) else None
    lists = [(group, reqs, "[tool.pdm.dev-dependencies]") for group, reqs in groups.items()] \
        if isinstance(groups, dict) else []
    for name in ("uv", "rye"):
        table = tool.get(name)
        if isinstance(table, dict):
            lists.append(("dev", table.get("dev-dependencies"), f"[tool.{name}] dev-dependencies"))
    for group, reqs, where in lists:
        if isinstance(reqs, list):
            out.add(group, [r.strip() for r in reqs if isinstance(r, str) and _REQ.match(r.strip())],
                    f"pyproject.toml {where}")


def _dynamic_files(dynamic: dict) -> list[tuple[str | None, list[str]]]:
    found: list[tuple[str | None, list[str]]] = []
    deps = dynamic.get("dependencies")
    if isinstance(deps, dict) and isinstance(deps.get("file"), (str, list)):
        found.append((None, [deps["file"]] if isinstance(deps["file"], str) else list(deps["file"])))
    extras = dynamic.get("optional-dependencies")
    for extra, table in (extras.items() if isinstance(extras, dict) else []):
        if isinstance(table, dict) and isinstance(table.get("file"), (str, list)):
            found.append((extra, [table["file"]] if isinstance(table["file"], str) else list(table["file"])))
    return found


def _poetry(poetry: dict, out: Declared) -> None:
    """``[tool.poetry.dependencies]`` (python left out; an optional one is an extra's), ``dev-dependencies`` and
    ``[tool.poetry.group.NAME.dependencies]``. A caret or tilde constraint keeps its lower bound only (``^4.0``:
    ``>=4.0``): the checks run on the interpreter of today, which an old upper bound may not install on."""
    deps = poetry.get("dependencies", {})
    optional = {name for name, value in deps.items() if isinstance(value, dict) and value.get("optional")} \
        if isinstance(deps, dict) else set()
    out.add(None, _poetry_lines(deps, skip=optional), "pyproject.toml [tool.poetry.dependencies]")
    extras = poetry.get("extras", {})
    for extra, names in (extras.items() if isinstance(extras, dict) else []):
        chosen = {n.lower() for n in names if isinstance(n, str)} if isinstance(names, list) else set()
        out.add(extra, _poetry_lines({k: v for k, v in deps.items() if k.lower() in chosen}),
                "pyproject.toml [tool.poetry.extras]")
    out.add("dev", _poetry_lines(poetry.get("dev-dependencies", {})), "pyproject.toml [tool.poetry.dev-dependencies]")
    groups = poetry.get("group", {})
    for group, table in (groups.items() if isinstance(groups, dict) else []):
        if isinstance(table, dict):
            out.add(group, _poetry_lines(table.get("dependencies", {})), f"pyproject.toml [tool.poetry.group.{group}]")


def _poetry_lines(deps, skip: set[str] = frozenset()) -> list[str]:  # type: ignore[assignment]
    if not isinstance(deps, dict):
        return []
    lines = []
    for name, value in deps.items():
        if name.lower() == "python" or name in skip or not re.match(r"^[A-Za-z0-9][A-Za-z0-9._-]*$", name):
            continue
        if isinstance(value, list):  # several constraints by marker: any will do for a draft
            value = value[0] if value else "*"
        if isinstance(value, dict):
            if "path" in value or "git" in value or "url" in value:
                continue
            extras = value.get("extras")
            if isinstance(extras, list) and extras:
                name += "[" + ",".join(str(e) for e in extras) + "]"
            version, marker = value.get("version", "*"), value.get("markers", "")
            python = _python_marker(str(value.get("python", "*")))
            if python is None:
                continue  # a Python constraint it cannot read: not installed where it may not belong
            marker = " and ".join(f"({m})" if " or " in m else m for m in (python, marker)
                                  if isinstance(m, str) and m)
        else:
            version, marker = value, ""
        line = name + _poetry_constraint(str(version))
        lines.append(line + (f"; {marker}" if isinstance(marker, str) and marker else ""))
    return lines


_PY_TERM = re.compile(r"^(\^|~=?|==|!=|<=|>=|<|>)?\s*(\d+(?:\.\d+){0,2})(?:\.\*)?$")


def _python_marker(constraint: str) -> str | None:
    """A poetry ``python = "~2.7 || ^3.4"`` as an environment marker ('' for any Python; None where it is not
    read). clikit 0.6.2's checkout: ``enum34 = { version = "^1.1", python = "~2.7" }`` became ``enum34>=1.1``,
    which shadows the standard library's enum on Python 3."""
    constraint = constraint.strip()
    if constraint in ("", "*"):
        return ""
    alternatives = []
    for alternative in constraint.split("||"):
        parts = []
        for term in re.split(r"[,\s]+(?=[\^~=!<>\d])", alternative.strip()):
            match = _PY_TERM.match(term.strip())
            if not match:
                return None
            op, version = match.group(1) or "==", match.group(2)
            numbers = [int(n) for n in version.split(".")]
            var = "python_full_version" if len(numbers) == 3 else "python_version"
            if op in ("^", "~", "~="):
                if op == "^":
                    upper = [numbers[0] + 1] if numbers[0] else [0, numbers[1] + 1] if len(numbers) > 1 else [1]
                else:
                    upper = [numbers[0] + 1] if len(numbers) == 1 else numbers[:-1 if op == "~=" else 2][:-1] + \
                        [numbers[:-1 if op == "~=" else 2][-1] + 1]
                parts.append(f'{var} >= "{version}" and python_version < "{".".join(map(str, upper))}"')
            else:
                parts.append(f'{var} {op} "{version}"')
        alternatives.append(" and ".join(parts))
    return " or ".join(f"({a})" if " and " in a and len(alternatives) > 1 else a for a in alternatives)


def _poetry_constraint(version: str) -> str:
    version = version.strip()
    if version in ("", "*"):
        return ""
    bound = re.match(r"^[\^~]=?\s*([0-9][0-9A-Za-z.*+-]*)$", version)
    if bound:
        return ">=" + bound.group(1)
    if re.match(r"^[0-9]", version):
        return "==" + version
    parts = [p.strip() for p in version.split(",")]
    if all(re.match(r"^(==|!=|<=|>=|<|>|~=)\s*[0-9][0-9A-Za-z.*+-]*$", p) for p in parts):
        return ",".join(p.replace(" ", "") for p in parts)
    return ""  # "^1.2 || ^2.0" and the like: the name alone


def _requirement_files(root: Path, out: Declared, used: set[Path]) -> None:
    """``requirements.txt`` (runtime, when no build file declares any), ``requirements-test.txt``,
    ``test-requirements.txt``, ``requirements/test.txt`` (a pip-compile ``.in`` wins over its pinned ``.txt``). Each
    is a list with what it includes (``-r cython.txt`` in yarl 1.9.4's ``requirements/test.txt``), also where that
    is a list of its own."""
    files = sorted({f.resolve() for f in [*root.glob("*requirements*.txt"), *root.glob("*requirements*.in"),
                                          *root.glob("requirements/*.txt"), *root.glob("requirements/*.in")]})
    stems = {(f.parent, f.stem) for f in files if f.suffix == ".in"}
    named = set(used)  # what the build files read: the runtime list
    for file in files:
        if file in named or (file.suffix == ".txt" and (file.parent, file.stem) in stems):
            continue
        stem = file.stem.lower()
        if file.parent.name == "requirements" and file.parent != root.resolve():
            name = stem
        else:
            name = re.sub(r"(^|[-_.])requirements?($|[-_.])", r"\1\2", stem).strip("-_.") or "requirements"
        if _OLDEST.search(stem) and any(f.parent == file.parent and f.stem.lower() == _OLDEST.sub("", stem)
                                        for f in files):
            out.oldest.append(file.relative_to(root.resolve()).as_posix())
            continue  # flask-sqlalchemy 3.1.1's tests-min.txt beside tests.txt: its werkzeug<2.3 joined the venv
        lines = _lower_bounds(read_requirement_file(file, used), out)
        rel = file.relative_to(root.resolve()).as_posix()
        if name in _RUNTIME_FILES:
            if not out.runtime:
                out.add(None, lines, rel)
        else:
            out.add(name, lines, rel)


def _tox(root: Path, out: Declared, used: set[Path]) -> None:
    """tox.ini's ``[testenv] deps``: a line for some factors only (``py38: mock``) and a substitution left out."""
    path = root / "tox.ini"
    if not path.is_file():
        return
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(path.read_text(encoding="utf-8", errors="replace"))
    except configparser.Error:
        return
    lines: list[str] = []
    for line in parser.get("testenv", "deps", fallback="").splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        include = re.match(r"^(?:-r|--requirement)\s*=?\s*(\S+)$", line)
        if include and "{" not in line:
            if (root / include.group(1)).resolve() not in used:  # read already as a list of its own
                lines += _lower_bounds(read_requirement_file(root / include.group(1), used), out)
        elif line and "{" not in line and not re.match(r"^[\w.,!-]+:\s", line) and _REQ.match(line):
            lines.append(line)
    out.add("tox", lines, "tox.ini [testenv] deps")


_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*\s*(?:\[[^\]]*\])?)\s*==\s*([0-9][0-9A-Za-z.+!-]*)\s*(;.*)?$")


def _lower_bounds(lines: list[str], out: Declared) -> list[str]:
    """A requirements file's exact pin (``pytest==7.4.3``, what pip-compile writes for the project's own CI) as a
    lower bound: the draft's venv is built today, on this Python, where an old pinned release may not install (yarl
    1.9.4's ``requirements/test.txt``); the build files' own ranges are left as they are."""
    relaxed = []
    for line in lines:
        match = _PIN.match(line)
        if match:
            new = f"{match.group(1).strip()}>={match.group(2)}" + (f"; {match.group(3)[1:].strip()}" if match.group(3)
                                                                     else "")
            out.relaxed[new] = line
            line = new
        relaxed.append(line)
    return relaxed
