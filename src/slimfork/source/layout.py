"""What the source holds: where its packages are, and the distribution's metadata (scripts, entry points)."""

from __future__ import annotations

import configparser
import email.parser
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from slimfork.errors import SpecError
from slimfork.source.declared_entry_points import declared_entry_points, setup_cfg_metadata, setup_py_metadata
from slimfork.source.package_dir import declared_python_root
from slimfork.source.top_modules import loose_modules, top_modules

SKIP_DIRS = {".git", ".hg", ".svn", "__pycache__", ".tox", ".nox", ".venv", "venv", "node_modules", ".eggs",
             "build", "dist", ".mypy_cache", ".pytest_cache", ".ruff_cache"}
_BUILD_OUTPUTS = {"build", "dist"}


def skipped_dir(folder: Path) -> bool:
    """A folder no scan reads: version control, caches, virtual environments, build outputs. A ``build`` or
    ``dist`` folder that holds an ``__init__.py`` is a package of the source, not an output (aiter's
    ``aiter/dist/``, imported as ``aiter.dist.parallel_state``)."""
    if folder.name in _BUILD_OUTPUTS:
        return not (folder / "__init__.py").is_file()
    return folder.name in SKIP_DIRS


@dataclass
class Distribution:
    """Metadata of the distribution the source came from (wheel dist-info, sdist PKG-INFO, or pyproject)."""

    name: str
    version: str
    summary: str = ""
    requires: list[str] = field(default_factory=list)  # PEP 508 lines, markers included
    requires_python: str = ""
    scripts: dict[str, str] = field(default_factory=dict)  # console script -> "module:attr"
    entry_points: dict[str, dict[str, str]] = field(default_factory=dict)  # group -> name -> value
    license: str = ""
    origin: str = ""  # the file it was read from


@dataclass
class SourceTree:
    root: Path
    python_root: Path
    packages: list[str]
    dist: Distribution | None
    kind: str  # "wheel", "sdist" or "folder"
    # what the spec's drop takes from the build metadata (source/entry_drops.py): group -> name -> value,
    # the cut build files (path -> content) and the path globs (installed script files they match are no roots)
    dropped_entries: dict[str, dict[str, str]] = field(default_factory=dict)
    entry_cuts: dict[str, bytes] = field(default_factory=dict)
    drop: tuple[str, ...] = ()

    def relpath(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()


def open_tree(root: Path, python_root: str | None = None, packages: list[str] | None = None,
              kind: str = "folder") -> SourceTree:
    if python_root is not None:
        py_root = (root / python_root).resolve()
        if not py_root.is_dir():
            raise SpecError(f"python_root '{python_root}' is not a folder of the source", key="python_root",
                            hint=f"folders in the source: {', '.join(sorted(p.name for p in root.iterdir() if p.is_dir())[:12])}")
    elif (declared := declared_python_root(root)) is not None and top_level_names(root, root / declared):
        py_root = root / declared  # the build configuration's package-dir (setproctitle's pkg/)
    else:
        py_root = root / "src" if _src_layout(root) else root
    found = top_level_names(root, py_root)
    if packages:
        for i, name in enumerate(packages):
            if name not in found and not _namespace_folder(py_root / name):
                raise SpecError(f"package '{name}' not found in {py_root}", key=f"packages[{i}]",
                                hint=f"packages found: {', '.join(found) or 'none'}")
    else:
        packages = found
    if not packages:
        raise SpecError(f"no Python package or module found in {py_root}", key="source", hint=_no_code_hint(py_root))
    return SourceTree(root, py_root, list(packages), read_distribution(root), kind)


def _src_layout(root: Path) -> bool:
    """``src/`` holds the packages, unless it is itself a package of plain modules (AQLM's ``src/__init__.py``,
    ``src/aq.py``, imported as ``from src.aq import ...`` by the scripts beside it): a src layout's folder has no
    ``__init__.py``, and one that has it but holds packages is read as a layout with a stray ``__init__.py``."""
    src = root / "src"
    if not src.is_dir() or not top_level_names(root, src):
        return False
    return not (src / "__init__.py").is_file() or bool(find_packages(src))


def _no_code_hint(py_root: Path) -> str:
    """What to do when no package is found: a C extension with only stubs (ciso8601: ``ciso8601/__init__.pyi``,
    ``module.c``) has no Python code to fork, which "point source at the folder that holds the packages" hid."""
    # at the top, or below src/ (mmh3 5.3.1: src/mmh3/__init__.pyi and mmh3module.c got "point source at ...")
    places = [p for p in (py_root, py_root / "src") if p.is_dir()]
    stubs = sorted(p.relative_to(py_root).as_posix() for place in places for p in place.glob("*/*.pyi"))[:3]
    native = sorted(p.relative_to(py_root).as_posix() for place in places
                    for p in [*place.glob("*"), *place.glob("*/*")]
                    if p.suffix in (".c", ".cc", ".cpp", ".rs", ".pyx") and p.is_file())[:3]
    if stubs and not native:  # types-six: six-stubs/__init__.pyi describes a package that lives elsewhere
        return ("it holds type stubs only: " + ", ".join(stubs) + " (a stub-only package, PEP 561: no code runs from "
                "it); slimfork forks Python packages and modules: point source at the package the stubs describe")
    if stubs or native:
        return ("its code is not Python: " + ", ".join(stubs + native) + " (a compiled extension" +
                (" with type stubs" if stubs else "") + "); slimfork forks Python packages and modules")
    return "point source (or python_root) at the folder that holds the packages"


_NOT_PACKAGES = {"tests", "test", "docs", "doc", "documentation", "examples", "benchmarks", "scripts"}


def top_level_names(root: Path, py_root: Path) -> list[str]:
    """The packages of ``py_root`` and the single-file modules the build installs beside them (``six.py``); with
    neither (a ``tests`` package aside), every top-level ``.py`` file that is not a test or build script."""
    names = set(find_packages(py_root)) | set(top_modules(root, py_root))
    if not names - _NOT_PACKAGES:
        names |= set(loose_modules(py_root))
    return sorted(names)


def find_packages(py_root: Path) -> list[str]:
    """Top-level importable folders: regular or namespace packages (single modules: :func:`top_level_names`).

    A folder without an ``__init__.py`` counts when it holds Python files or regular packages
    (``jaraco/functools/__init__.py``); where no folder of ``py_root`` does, one whose Python files are only
    deeper, in folders without any ``__init__.py`` (PEP 420 all the way down: ``nsplug/core/api.py``), counts too.
    That deeper rule applies only then (a ``tests`` or ``docs`` package aside: google-cloud-core's
    ``google/cloud/client/__init__.py`` beside ``tests/__init__.py``), so a project with packages keeps a
    ``tools/release/bump.py`` outside them."""
    names, deep = [], []
    for entry in sorted(py_root.iterdir()):
        if entry.name.startswith(".") or skipped_dir(entry) or not entry.name.isidentifier():
            continue
        if entry.is_dir() and (entry / "__init__.py").is_file():
            names.append(entry.name)
        elif entry.is_dir() and entry.name not in _NOT_PACKAGES:
            if any(entry.glob("*.py")) or any((d / "__init__.py").is_file() for d in entry.iterdir()):
                names.append(entry.name)  # a namespace package: Python files, or regular packages (jaraco/functools)
            elif _namespace_folder(entry):
                deep.append(entry.name)
    return names if any(n not in _NOT_PACKAGES for n in names) else sorted(names + deep)


def _namespace_folder(folder: Path, depth: int = 0) -> bool:
    """A folder importable as an implicit namespace package that holds Python code at some depth: through
    folders with identifier names (a ``.py`` file, or a regular package, below it)."""
    if depth > 8 or not folder.is_dir() or skipped_dir(folder) or not folder.name.isidentifier():
        return False
    if (folder / "__init__.py").is_file() or any(folder.glob("*.py")):
        return True
    return any(_namespace_folder(d, depth + 1) for d in sorted(folder.iterdir()) if d.is_dir())


def read_distribution(root: Path) -> Distribution | None:
    for info in sorted(root.glob("*.dist-info")):
        return _from_metadata(info / "METADATA", info / "entry_points.txt")
    return _with_egg_info_entry_points(_with_declared_entry_points(_source_distribution(root), root), root)


def _with_egg_info_entry_points(dist: Distribution | None, root: Path) -> Distribution | None:
    """Add the entry points a tree's ``*.egg-info`` (``src/pkg.egg-info/entry_points.txt`` of a checkout installed
    with ``pip install -e .``; ``importlib.metadata`` finds it on ``sys.path``) declares that the rest lacks (session
    42: a plugin only it declared left the fork, exit 0)."""
    if dist is None:
        return None
    for eps in sorted(root.glob("*.egg-info/entry_points.txt")) + sorted(root.glob("src/*.egg-info/entry_points.txt")):
        parser = _CasedParser(interpolation=None, delimiters=("=",))
        try:
            parser.read_string(eps.read_text(encoding="utf-8"))
        except (configparser.Error, UnicodeDecodeError):
            continue
        for group in parser.sections():
            target = dist.scripts if group == "console_scripts" else dist.entry_points.setdefault(group, {})
            for name, value in parser.items(group):
                target.setdefault(name, value.strip())
    return dist


def _source_distribution(root: Path) -> Distribution | None:
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        dist = _from_pyproject(pyproject)
        if dist is not None:
            if not dist.version and (root / "PKG-INFO").is_file():  # a dynamic version: the sdist's metadata has it
                dist.version = _from_metadata(root / "PKG-INFO", None).version
            return dist
    if (root / "PKG-INFO").is_file():
        eps = next(iter(sorted(root.glob("*.egg-info/entry_points.txt")) + sorted(root.glob("src/*.egg-info/entry_points.txt"))), None)
        return _from_metadata(root / "PKG-INFO", eps)
    return None


def _with_declared_entry_points(dist: Distribution | None, root: Path) -> Distribution | None:
    """Add the entry points setup.cfg, setup.py or poetry declare that the metadata read lacks."""
    declared = declared_entry_points(root)
    if not declared:
        return dist
    if dist is None:
        name, version = setup_cfg_metadata(root)
        origin = "setup.cfg" if name else ""
        if not name:  # records' checkout: "a keep spec for proj ." (the folder's name, no version)
            name, version = setup_py_metadata(root)
            origin = "setup.py" if name else ""
        dist = Distribution(name=name or root.name, version=version, origin=origin)
    for group, entries in declared.items():
        target = dist.scripts if group == "console_scripts" else dist.entry_points.setdefault(group, {})
        for name, value in entries.items():
            target.setdefault(name, value)
    return dist


def _from_metadata(metadata: Path, entry_points: Path | None) -> Distribution:
    msg = email.parser.Parser().parsestr(metadata.read_text(encoding="utf-8", errors="replace"))
    dist = Distribution(
        name=msg.get("Name", ""), version=msg.get("Version", ""), summary=msg.get("Summary", "") or "",
        requires=list(msg.get_all("Requires-Dist") or []), requires_python=msg.get("Requires-Python", "") or "",
        license=(msg.get("License-Expression") or "").strip(), origin=metadata.name,
    )
    if entry_points is not None and entry_points.is_file():
        parser = _CasedParser(interpolation=None, delimiters=("=",))
        parser.read_string(entry_points.read_text(encoding="utf-8"))
        for group in parser.sections():
            dist.entry_points[group] = {k: v.strip() for k, v in parser.items(group)}
    dist.scripts = dict(dist.entry_points.pop("console_scripts", {}))
    return dist


def _from_pyproject(path: Path) -> Distribution | None:
    try:
        project = tomllib.loads(path.read_text(encoding="utf-8")).get("project")
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return None
    if not isinstance(project, dict) or "name" not in project:
        return None
    dist = Distribution(name=project["name"], version=str(project.get("version", "")),
                        summary=project.get("description", ""), requires=list(project.get("dependencies", [])),
                        requires_python=project.get("requires-python", ""), origin="pyproject.toml")
    dist.scripts = dict(project.get("scripts", {}))
    dist.entry_points = {g: dict(v) for g, v in project.get("entry-points", {}).items()}
    if project.get("gui-scripts"):  # installed as programs too: roots, like the console scripts
        dist.entry_points.setdefault("gui_scripts", {}).update(project["gui-scripts"])
    return dist


class _CasedParser(configparser.ConfigParser):
    """An INI parser that keeps the case of keys (entry point names)."""

    def optionxform(self, optionstr: str) -> str:
        return optionstr
