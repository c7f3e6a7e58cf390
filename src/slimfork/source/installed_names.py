"""The top-level packages and modules a build installs, where its configuration lists them: hatch's wheel
``packages``, ``only-include`` (through ``sources``) or plain ``include`` paths, poetry's ``packages = [{include,
from}]`` (by default the distribution's name) and ``.py`` files of its ``include``, flit's module (by default the
distribution's name), setuptools' literal ``packages``/``py_modules`` and its finder's ``include`` (``setup.py``,
``setup.cfg``, ``pyproject.toml``: ``source/package_find.py``), meson-python's ``meson.build`` install calls,
and an sdist's ``*.egg-info/top_level.txt``. Each is a pattern (``fnmatch``, most are plain names). ``None`` when
nothing lists them (``find_packages()``, hatch's defaults): every package found counts then. `slimfork init`
roots only what the build installs (a ``bench/`` or ``docs_src/`` package beside it is the project's own tooling)."""

from __future__ import annotations

import fnmatch
import posixpath
import re
import tomllib
from pathlib import Path

from slimfork.source.build_config import declared_list
from slimfork.source.compiled_modules import meson_installed
from slimfork.source.package_find import finder_includes

_GLOB = set("*?[")


def installed_patterns(root: Path) -> set[str] | None:
    found: set[str] = set()
    try:
        data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8", errors="replace"))
    except (OSError, tomllib.TOMLDecodeError):
        data = {}
    tool = data.get("tool", {}) if isinstance(data.get("tool"), dict) else {}
    for read in (_hatch, _poetry):
        names = read(tool)
        if names is None:  # a list it cannot read (a glob across folders): it declares nothing usable
            return None
        found |= names
    found |= finder_includes(root) | _poetry_default(root, tool, data)
    pdm = _pdm(root, tool, data)
    if pdm is None:
        return None
    found |= pdm
    if not found:
        found |= _hatch_default(root, tool, data)
    found |= _flit(tool, data)
    if "mesonpy" in str(_table(data, "build-system").get("build-backend", "")):
        found |= meson_installed(root)
    found |= {n.split(".")[0] for n in declared_list(root, "packages", "packages") + declared_list(
        root, "py-modules", "py_modules") if n}
    for path in sorted(root.glob("*.egg-info/top_level.txt")) + sorted(root.glob("*/*.egg-info/top_level.txt")):
        try:
            found |= set(path.read_text(errors="replace").split())
        except OSError:
            continue
    return {n for n in found if n} or None


def matches(name: str, patterns: set[str]) -> bool:
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


def _table(value, *keys) -> dict:
    for key in keys:
        value = value.get(key, {}) if isinstance(value, dict) else {}
    return value if isinstance(value, dict) else {}


def _strings(value) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _top(path: str) -> str | None:
    """The first part of a path a build installs, ``.py`` left off; None for a glob that spans parts."""
    parts = [p for p in posixpath.normpath(path.replace("\\", "/").lstrip("/")).split("/") if p not in ("", ".")]
    if not parts:
        return None
    first = parts[0][:-3] if len(parts) == 1 and parts[0].endswith(".py") else parts[0]
    if _GLOB & set(first) and not first.endswith("*"):
        return None
    return first


def _hatch(tool: dict) -> set[str] | None:
    wheel = _table(tool, "hatch", "build", "targets", "wheel")
    build = _table(tool, "hatch", "build")
    packages = _strings(wheel.get("packages", build.get("packages")))
    only = _strings(wheel.get("only-include", build.get("only-include")))
    sources = wheel.get("sources", build.get("sources", []))
    out: set[str] = {posixpath.basename(p.rstrip("/")) for p in packages}
    for path in only:
        path = path.lstrip("/")
        if isinstance(sources, dict):
            for prefix, into in sorted(sources.items(), key=lambda kv: -len(kv[0])):
                if isinstance(prefix, str) and isinstance(into, str) and (path + "/").startswith(prefix.rstrip("/") + "/"):
                    path = posixpath.join(into, path[len(prefix.rstrip("/")):].lstrip("/"))
                    break
        elif isinstance(sources, list):
            for prefix in sorted(_strings(sources), key=len, reverse=True):
                if (path + "/").startswith(prefix.rstrip("/") + "/"):
                    path = path[len(prefix.rstrip("/")):].lstrip("/")
                    break
        top = _top(path)
        if top is None:
            return None
        out.add(top)
    if not packages and not only:
        for pattern in _strings(wheel.get("include", [])):
            top = _top(pattern)
            if top is None or top.startswith("!"):
                return None
            out.add(top)
    return out | (_forced(build, wheel) if out else set())  # force-include adds files to what the rest selects


def _poetry(tool: dict) -> set[str] | None:
    poetry = _table(tool, "poetry")
    out: set[str] = set()
    for entry in poetry.get("packages", []) or []:
        include = entry.get("include") if isinstance(entry, dict) else None
        if isinstance(include, str):
            top = _top(include)
            if top is None:
                return None
            out.add(top)
    for entry in poetry.get("include", []) or []:
        path = entry.get("path") if isinstance(entry, dict) else entry
        if isinstance(path, str) and path.endswith(".py") and "/" not in path.lstrip("/") and not _GLOB & set(path):
            out.add(path.lstrip("/")[:-3])
    return out


def _poetry_default(root: Path, tool: dict, data: dict) -> set[str]:
    """poetry-core without ``packages``: the package (or module) named after the distribution (``-`` and ``.`` as
    ``_``, lower case) at the root or in ``src/``. crashtest 0.4.1 and rsa 4.9.1 list none, and the audit called
    their public modules nothing imports unreached (60) instead of a library's API."""
    poetry = _table(tool, "poetry")
    backend = str(_table(data, "build-system").get("build-backend", ""))
    if "packages" in poetry or not (poetry or backend.startswith("poetry")):
        return set()
    name = poetry.get("name") or _table(data, "project").get("name")
    if not isinstance(name, str) or not name:
        return set()
    module = name.lower().replace("-", "_").replace(".", "_")
    return {module} if any((root / folder / module).is_dir() or (root / folder / f"{module}.py").is_file()
                           for folder in (".", "src")) else set()


def _hatch_default(root: Path, tool: dict, data: dict) -> set[str]:
    """hatchling without a file selection: the package named after the project (non-word runs as ``_``) at the
    top or in ``src/``, or that module. referencing 0.37.0 selects none, and its ``suite/`` (another distribution,
    the tests' data) was a root of the draft, which the install check then failed to import."""
    backend = str(_table(data, "build-system").get("build-backend", ""))
    hatch = _table(tool, "hatch", "build")
    if not backend.startswith("hatchling") or any(hatch.get(k) for k in ("packages", "only-include", "include")) \
            or any(_table(hatch, "targets", "wheel").get(k) for k in ("packages", "only-include", "include")):
        return set()
    name = _table(data, "project").get("name")
    if not isinstance(name, str) or not name:
        return set()
    module = re.sub(r"[^\w.]+", "_", name).replace(".", "_")
    for candidate in dict.fromkeys((module, module.lower())):
        if any((root / f / candidate / "__init__.py").is_file() for f in (".", "src")) or \
                (root / f"{candidate}.py").is_file():
            return {candidate} | _forced(hatch, _table(hatch, "targets", "wheel"))
    return set()


def _pdm(root: Path, tool: dict, data: dict) -> set[str] | None:
    """pdm-backend's wheel: its ``includes`` (relative to the project, ``package-dir`` left off), else every
    top-level package of ``package-dir`` (``src`` where there is one) that ``source-includes`` and ``excludes``
    (sdist only) do not name. typer 0.29.2's sdist-only ``docs_src/`` package was a root of its draft. None for
    an ``includes`` this cannot read (a glob across folders)."""
    backend = str(_table(data, "build-system").get("build-backend", ""))
    if not backend.startswith(("pdm.backend", "pdm.pep517")):
        return set()
    build = _table(tool, "pdm", "build") or _table(tool, "pdm")
    given = build.get("package-dir")
    package_dir: str = given if isinstance(given, str) else "src" if (root / "src").is_dir() else "."
    prefix = posixpath.normpath(package_dir).strip("/") + "/"
    if "includes" in build:
        tops = set()
        for path in _strings(build.get("includes")):
            path = posixpath.normpath(path.lstrip("/"))
            top = _top(path[len(prefix):] if (path + "/").startswith(prefix) and prefix != "./" else path)
            if top is None:
                return None
            tops.add(top)
        return tops
    sdist_only = {_top(p) for p in _strings(build.get("source-includes")) + _strings(build.get("excludes"))}
    folder = root / package_dir
    return {p.name for p in folder.iterdir() if (p / "__init__.py").is_file() and p.name not in sdist_only} \
        if folder.is_dir() else set()


def _forced(*tables: dict) -> set[str]:
    """The top-level names hatch's ``force-include`` puts in the wheel beside its selection (jupyter_core 5.9.1's
    ``jupyter.py``)."""
    out: set[str] = set()
    for table in tables:
        forced = table.get("force-include")
        out |= {top for dest in forced.values() if isinstance(dest, str) and (top := _top(dest))} \
            if isinstance(forced, dict) else set()
    return out


def _flit(tool: dict, data: dict) -> set[str]:
    """``[tool.flit.module] name``, else (flit's default) the distribution's name with ``-`` as ``_``: asyncstdlib
    3.12.5's ``unittests`` package, which only its sdist carries, was a root of the draft."""
    name = _table(tool, "flit", "module").get("name")
    if not name and str(_table(data, "build-system").get("build-backend", "")).startswith(("flit_core", "flit.")):
        name = _table(data, "project").get("name")
    return {name.split(".")[0].replace("-", "_")} if isinstance(name, str) and name else set()
