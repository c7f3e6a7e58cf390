"""The fork's packaging metadata: a pyproject.toml carrying the original's name, version (+ local suffix),
console scripts, entry points and dependencies, so ``pip install ./fork`` gives the same commands."""

from __future__ import annotations

import json
import re

from slimfork.source.layout import Distribution, SourceTree

LOCAL_SUFFIX = "slimfork"
DEFAULT_SUFFIX = "+" + LOCAL_SUFFIX  # the spec's version_suffix; "" keeps the original's version
_EXTRA = re.compile(r"""\s*(?:and\s+)?extra\s*==\s*["']([^"']+)["']\s*(?:and\s+)?""")


def local_version(version: str, suffix: str = DEFAULT_SUFFIX) -> str:
    if not suffix:
        return version
    return f"{version}.{suffix[1:]}" if "+" in version else f"{version}{suffix}"


def fork_pyproject(tree: SourceTree, kept_modules: set[str], requires: list[str] | None = None,
                   suffix: str = DEFAULT_SUFFIX) -> tuple[str, list[str]]:
    """Return (pyproject text, notes) for a fork of a wheel source."""
    dist = tree.dist or Distribution(name=tree.packages[0], version="0")
    notes: list[str] = []
    deps, extras = split_requirements(dist.requires if requires is None else requires)
    lines = ["# Written by slimfork from the original distribution's metadata.",
             "[build-system]", 'requires = ["setuptools>=68"]', 'build-backend = "setuptools.build_meta"', "",
             "[project]", f"name = {_q(dist.name)}", f"version = {_q(local_version(dist.version, suffix))}"]
    if dist.summary:
        lines.append(f"description = {_q(dist.summary)}")
    if dist.requires_python:
        lines.append(f"requires-python = {_q(dist.requires_python)}")
    lines.append("dependencies = " + _list(deps))
    if extras:
        lines += ["", "[project.optional-dependencies]"]
        lines += [f"{_q(name)} = {_list(reqs)}" for name, reqs in sorted(extras.items())]
    scripts = {}
    for name, target in sorted(dist.scripts.items()):
        if target.split(":")[0].strip() in kept_modules:
            scripts[name] = target
        else:
            notes.append(f"console script '{name}' ({target}) left out: its module is not in the fork")
    if scripts:
        lines += ["", "[project.scripts]"] + [f"{_q(k)} = {_q(v)}" for k, v in scripts.items()]
    for group, entries in sorted(dist.entry_points.items()):
        lines += ["", f"[project.entry-points.{_q(group)}]"] + [f"{_q(k)} = {_q(v)}" for k, v in sorted(entries.items())]
    where = tree.relpath(tree.python_root) if tree.python_root != tree.root else "."
    modules = [name for name in tree.packages if (tree.python_root / f"{name}.py").is_file()]
    if modules:  # single-file modules (six.py): setuptools' find does not install them
        lines += ["", "[tool.setuptools]", "py-modules = " + _list(modules)]
    lines += ["", "[tool.setuptools.packages.find]", f"where = [{_q(where)}]",
              "include = " + _list([p for name in tree.packages for p in (name, f"{name}.*")]), "namespaces = true",
              "", "[tool.setuptools.package-data]", '"*" = ["*", "**/*"]', ""]
    return "\n".join(lines), notes


def split_requirements(requires: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    deps: list[str] = []
    extras: dict[str, list[str]] = {}
    for req in requires:
        match = _EXTRA.search(req)
        if not match:
            deps.append(req)
            continue
        rest = _EXTRA.sub(" ", req).strip().rstrip(";").strip()
        rest = re.sub(r";\s*$", "", rest)
        rest = re.sub(r";\s*(and\s*)?$", "", rest).replace("; and ", "; ").strip()
        extras.setdefault(match.group(1), []).append(rest)
    return deps, extras


def _q(text: str) -> str:
    return json.dumps(text)


def _list(items: list[str]) -> str:
    if not items:
        return "[]"
    return "[\n" + "".join(f"    {_q(i)},\n" for i in items) + "]"


def bump_pyproject_version(text: str, suffix: str = DEFAULT_SUFFIX) -> tuple[str, bool]:
    """For sdist or folder sources: add the local suffix to a static [project] version, if there is one."""
    match = re.search(r'(?m)^(version\s*=\s*["\'])([^"\']+)(["\'])', text)
    if not match or not suffix or suffix[1:] in match.group(2).partition("+")[2].split("."):
        return text, False
    return text[: match.start(2)] + local_version(match.group(2), suffix) + text[match.end(2):], True
