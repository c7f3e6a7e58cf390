"""Read and validate a keep spec. Everything wrong with it stops here, before any work, with a key path."""

from __future__ import annotations

import importlib
import re
import tomllib
from pathlib import Path
from typing import Any

from slimfork.errors import SpecError
from slimfork.globs import is_glob_form
from slimfork.spec.fields import REGISTRY, TOP
from slimfork.spec.kinds import DEFAULT_KIND, FILTERING_KINDS
from slimfork.spec.model import RegistrySpec, Root, Spec
from slimfork.spec.schema import Section, check_table

# Sections parsed by the feature that owns them: key -> "module:function(raw: dict, key: str) -> object".
SECTION_PARSERS: dict[str, str] = {}
SECTION_PARSERS["kernels"] = "slimfork.kernels.spec:parse_kernels"
SECTION_PARSERS["checks"] = "slimfork.verify.spec:parse_checks"
SECTION_PARSERS["verify"] = "slimfork.verify.spec:parse_verify"
SECTION_PARSERS["facts"] = "slimfork.facts.spec:parse_facts"
SECTION_PARSERS["registries"] = "slimfork.mapping.spec:parse_mappings"
SECTION_PARSERS["tests"] = "slimfork.testsuite.spec:parse_tests"
SECTION_PARSERS["symbols"] = "slimfork.prune.spec:parse_symbols"

_DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def load_spec(path: str | Path) -> Spec:
    path = Path(path)
    if path.is_dir():
        for name in ("slimfork.toml", "pyproject.toml"):
            if (path / name).is_file():
                path = path / name
                break
    if not path.is_file():
        raise SpecError(f"spec file not found: {path}", hint="pass a slimfork.toml or a pyproject.toml "
                        "with a [tool.slimfork] table")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise SpecError(f"{path}: not UTF-8 text", hint="save the spec as UTF-8") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise toml_error(path, text, exc) from None
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("slimfork")
        if not isinstance(data, dict):
            raise SpecError(f"{path} has no [tool.slimfork] table", key="tool.slimfork",
                            hint="add a [tool.slimfork] table or use a slimfork.toml")
    return parse_spec(data, path.resolve())


def toml_error(path: Path, text: str, exc: tomllib.TOMLDecodeError) -> SpecError:
    """The parser's message with the line it names; "at end of document" names the last line instead."""
    message = str(exc)
    lines = text.splitlines()
    if message.endswith("(at end of document)"):
        number = max((i for i, line in enumerate(lines, 1) if line.strip()), default=1)
        line = lines[number - 1].strip() if lines else ""
        return SpecError(f"{path}: not valid TOML: {message.removesuffix(' (at end of document)')} "
                         f"at the end of the file (its last line is {number}: {line!r})",
                         hint=f"close the bracket, brace or quote opened on line {number} or above it")
    found = re.search(r"\(at line (\d+), column \d+\)$", message)
    if found and 0 < int(found[1]) <= len(lines):
        return SpecError(f"{path}: not valid TOML: {message}",
                         hint=f"check line {found[1]}: {lines[int(found[1]) - 1].strip()!r}")
    return SpecError(f"{path}: not valid TOML: {message}", hint="check the line named above")


def parse_spec(data: dict[str, Any], path: Path) -> Spec:
    check_table(data, TOP)
    spec = Spec(path=path, source=data["source"], raw=data)
    spec.dist = data.get("dist", "wheel")
    spec.python_root = data.get("python_root")
    spec.packages = list(data.get("packages", []))
    for i, name in enumerate(spec.packages):
        if not _DOTTED.match(name) or "." in name:
            raise SpecError(f"'{name}' is not a top-level package name", key=f"packages[{i}]",
                            hint="name import packages such as 'sglang', not paths")
    if not data["roots"]:
        raise SpecError("roots is empty", key="roots", hint="name at least one module, symbol or script")
    spec.roots = [parse_root(text, f"roots[{i}]") for i, text in enumerate(data["roots"])]
    spec.drop = list(data.get("drop", []))
    spec.keep = list(data.get("keep", []))
    spec.outside_imports = list(data.get("outside_imports", []))
    spec.type_checking_imports = data.get("type_checking_imports", "keep") == "keep"
    spec.allow_stale = bool(data.get("allow_stale", False))
    suffix = data.get("version_suffix", "+slimfork")
    if suffix and not re.fullmatch(r"\+[A-Za-z0-9]+(\.[A-Za-z0-9]+)*", suffix):
        raise SpecError(f"'{suffix}' is not a PEP 440 local version suffix", key="version_suffix",
                        hint="for example '+slimfork', or '' to keep the original's version")
    out = data.get("out") or f"{path.stem if path.name != 'pyproject.toml' else path.parent.name}-fork"
    spec.out = (path.parent / out).resolve()
    source = (path.parent / spec.source).resolve() if not spec.source.startswith("pypi:") else None
    if "out" not in data and source is not None and spec.out.is_relative_to(source):
        # a spec inside its own source (init's draft written there, a [tool.slimfork] table): the default fork
        # goes beside the source, as a fork inside it would be copied into the next one
        spec.out = source.parent / f"{source.name}-fork"
    for i, reg in enumerate(data.get("registries", [])):
        key = f"registries[{i}]"
        check_table(reg, _indexed(REGISTRY, key))
        if not _DOTTED.match(reg["package"]):
            raise SpecError(f"'{reg['package']}' is not a dotted module name", key=f"{key}.package",
                            hint="for example 'sglang.srt.models'")
        for j, pattern in enumerate(reg["keep"]):
            if pattern.startswith("re:"):
                try:
                    re.compile(pattern[3:])
                except re.error as exc:
                    raise SpecError(f"bad regex: {exc}", key=f"{key}.keep[{j}]",
                                    hint="regexes follow Python's re syntax after 're:'") from None
        if reg.get("kind", DEFAULT_KIND) in FILTERING_KINDS:  # the others rewrite (spec/kinds.py)
            spec.registries.append(RegistrySpec(reg["package"], tuple(reg["keep"]), reg.get("reason", ""), key))
    for name, target in SECTION_PARSERS.items():
        if name in data:
            module, func = target.split(":")
            spec.sections[name] = getattr(importlib.import_module(module), func)(data[name], name)
    return spec


def _indexed(section, key):
    return Section(key, section.doc, section.fields, section.open_keys)


def parse_root(text: str, key: str) -> Root:
    hint = "write 'pkg.mod', 'pkg.*' or 'pkg.**' (module globs), 'pkg.mod:name', 'script:NAME', 'script:*' or 'file:path/x.py'"
    if text.startswith("script:"):
        name = text[len("script:"):]
        if not name:
            raise SpecError("empty script name", key=key, hint=hint)
        return Root("script", name, text=text)
    if text.startswith("file:"):
        name = text[len("file:"):]
        if not name:
            raise SpecError("empty file path", key=key, hint=hint)
        return Root("file", name, text=text)
    module, colon, symbol = text.partition(":")
    if colon and not symbol:  # 'pkg:' kept the whole module silently, as if the name were left out
        raise SpecError(f"'{text}' names no symbol after ':'", key=key,
                        hint=f"write '{module}:NAME' for one of its names, or '{module}' for the module")
    if not symbol and is_glob_form(module):
        return Root("glob", module, text=text)
    if not _DOTTED.match(module) or (symbol and not _DOTTED.match(symbol)):
        raise SpecError(f"'{text}' is not a root", key=key, hint=hint)
    if symbol:
        return Root("symbol", module, symbol, text=text)
    return Root("module", module, text=text)
