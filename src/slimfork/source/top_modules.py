"""Top-level single-file modules a project installs (``six.py``, ``jsonpointer.py``), beside or instead of
packages. They count where the build says so: an sdist's ``*.egg-info/top_level.txt``, setuptools' ``py_modules``
(pyproject.toml, setup.cfg, a literal ``setup(py_modules=[...])``), flit's module, hatch's and poetry's
``packages``/``include`` entries naming a ``.py`` file, hatch's ``force-include`` of a file to the top of the wheel
(jupyter_core 5.9.1's ``"./jupyter.py" = "jupyter.py"``), or a file named after the distribution (flit, hatch and
poetry install that one by default). A project with neither packages nor such a module falls back on every
top-level ``.py`` file that is not a test, a build script or a tool's configuration (unknown means keep)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from slimfork.source.build_config import declared_list

# Top-level files that build, test or configure a project rather than being installed by it.
NOT_MODULES = frozenset({"setup", "conftest", "noxfile", "tasks", "fabfile", "ez_setup", "versioneer", "conf",
                         "manage", "hatch_build", "build", "prebuild", "bootstrap", "run_tests", "runtests"})


def top_modules(root: Path, py_root: Path) -> list[str]:
    """The top-level modules of ``py_root`` the build installs (see the module docstring)."""
    names = set(_top_level_txt(root, py_root)) | set(declared_list(root, "py-modules", "py_modules"))
    names |= _pyproject_modules(root)
    names.add(_normalized(_dist_name(root)))
    return sorted(n for n in names if n.isidentifier() and (py_root / f"{n}.py").is_file() and not _is_tool(n))


def loose_modules(py_root: Path) -> list[str]:
    """Every top-level ``.py`` file of ``py_root`` that is not a test, build script or tool configuration."""
    return sorted(p.stem for p in py_root.glob("*.py")
                  if p.stem.isidentifier() and not p.stem.startswith("__") and not _is_tool(p.stem))


def _is_tool(name: str) -> bool:
    return name in NOT_MODULES or name.startswith("test") or name.endswith("_test") or name.endswith("_tests")


def _top_level_txt(root: Path, py_root: Path) -> list[str]:
    out: list[str] = []
    for folder in dict.fromkeys((root, py_root)):
        for path in sorted(folder.glob("*.egg-info/top_level.txt")):
            out += path.read_text(errors="replace").split()
    return out


def _pyproject(root: Path) -> dict:
    try:
        return tomllib.loads((root / "pyproject.toml").read_text(errors="replace"))
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def _pyproject_modules(root: Path) -> set[str]:
    """flit's ``[tool.flit.module] name``; ``.py`` entries of hatch's wheel ``packages``/``only-include``/
    ``include``, the top-level ``.py`` destinations of its ``force-include`` and of poetry's ``packages = [{include = "x.py"}]`` and ``include``."""
    data = _pyproject(root)
    tool = data.get("tool", {}) if isinstance(data.get("tool"), dict) else {}
    names = {str(tool.get("flit", {}).get("module", {}).get("name", ""))}
    wheel = tool.get("hatch", {}).get("build", {}).get("targets", {}).get("wheel", {})
    entries = [e for key in ("packages", "only-include", "include") for e in wheel.get(key, []) or []]
    for table in (tool.get("hatch", {}).get("build", {}), wheel):
        forced = table.get("force-include") if isinstance(table, dict) else None
        entries += [e for e in forced.values() if isinstance(e, str) and "/" not in e.strip("/")] \
            if isinstance(forced, dict) else []
    entries += [e.get("include", "") for e in tool.get("poetry", {}).get("packages", []) or [] if isinstance(e, dict)]
    entries += [e.get("path", "") if isinstance(e, dict) else e for e in tool.get("poetry", {}).get("include", []) or []
                if isinstance(e, (dict, str))]  # poetry's `include = ["extra.py"]` (top-level files only below)
    for entry in entries:
        if isinstance(entry, str) and entry.endswith(".py") and not set("*?[") & set(entry):
            names.add(entry.rsplit("/", 1)[-1][:-3])
    return {n.split(".")[0] for n in names if n}


def _dist_name(root: Path) -> str:
    data = _pyproject(root)
    name = data.get("project", {}).get("name") or data.get("tool", {}).get("poetry", {}).get("name")
    if isinstance(name, str):
        return name
    pkg_info = root / "PKG-INFO"
    if pkg_info.is_file():
        match = re.search(r"^Name:\s*(\S+)", pkg_info.read_text(errors="replace"), re.M)
        if match:
            return match.group(1)
    return ""


def _normalized(name: str) -> str:
    return re.sub(r"[-.]+", "_", name).lower()
