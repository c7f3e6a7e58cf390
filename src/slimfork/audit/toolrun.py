"""Python files that something other than Python runs: a file a shell script, CI workflow, Makefile, build or
tool configuration of the tree names by path (``python .github/scripts/check_lmdeploy.py`` in a workflow,
``python ./validate_async_io.py`` in a sweep script beside it, ``two_gpu_test.py`` in a ``unit_test.sh``), and a
Sphinx ``conf.py`` (a ``docs/`` folder's configuration, which
``sphinx-build`` executes) and the examples its sphinx-gallery runs (``examples_dirs``). Nothing imports them, but they run: unknown means keep, so they are reported at a low
confidence, like scripts, with the file that names them. Documentation (``.md``, ``.rst``) names files too, but
describes rather than runs them, so it is not read. (A module such a file runs as ``python -m pkg.tool`` is a root
already: ``graph.data_files.run_roots``.) A module such a file names by its dotted name (Megatron-LM's
``export TRITON_CACHE_MANAGER="megatron.core.ssm.triton_cache_manager:ParallelFileCacheManager"``: Triton imports
it) is reported the same way, and so is a pytest plugin a command loads by its module name
(``pytest -p pytest_cuda_scheduler`` in tilelang's ``maint/scripts/run_local_ci_test.sh``). So are the files of a
stub folder (one holding ``.pyi`` files) a type checker configuration names (xformers' ``.pyre_configuration``:
``"source_directories": ["stubs", ...]``, which reads ``stubs/torch_stub_tests.py``), and a module a Hydra
configuration names a class of (``_target_: src.callbacks.ema.EMACallback``)."""

from __future__ import annotations

import os
import posixpath
import re
from pathlib import Path

# files that run commands or configure tools that do
_SUFFIXES = (".sh", ".bash", ".zsh", ".yml", ".yaml", ".cfg", ".ini", ".toml", ".mk", ".cmake", ".bat", ".ps1",
             ".bzl", ".bazel")
_NAMES = ("Makefile", "GNUmakefile", "makefile", "Jenkinsfile", "CMakeLists.txt", "BUILD", "Justfile",
          "justfile", "Procfile", *(_TYPE_CHECKER_CONFIGS := (".pyre_configuration", ".pyre_configuration.local",
                                                             "pyrightconfig.json", "mypy.ini", ".mypy.ini")))
# keys of type checker configurations whose values are folders the checker reads as source or stubs (xformers'
# .pyre_configuration: "source_directories": ["stubs", ...]; mypy_path = stubs; stubPath = "typings")
_CHECKER_KEY = re.compile(r"""["']?(source_directories|search_path|mypy_path|stubPath|stub_path|extraPaths|"""
                          r"""typeshed)["']?\s*[:=]""")
_QUOTED_OR_BARE = re.compile(r"""["']([\w.+/-]+)["'](?!\s*:)|(?<=[=:,])\s*([\w.+/-]+)\s*(?=$|[,\]])""")
# hidden folders that hold CI configuration; other hidden folders (.git, .venv, caches) are not read
_HIDDEN = (".github", ".gitlab", ".circleci", ".buildkite", ".ci", ".azure-pipelines", ".jenkins", ".devcontainer")
_SKIP = ("node_modules", "__pycache__", "site-packages", "third_party", "3rdparty")
_MAX_BYTES = 1 << 20
_PATH = re.compile(r"(?<![\w./-])((?:\.{1,2}/)?[\w.+-]*[\w+-](?:/[\w.+-]+)*\.py)(?![\w/])")
_SPHINX = re.compile(r"^\s*(html_theme|extensions)\s*=", re.M)
# a pytest plugin loaded by its module name: pytest -p pytest_cuda_scheduler, -p=pkg.plugin, -pname
_PLUGIN = re.compile(r"(?<![\w-])-p[ =]?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\b")
_TARGET = re.compile(r"(?:^|[\s{,])[\"']?_target_[\"']?\s*:")  # Hydra: the object instantiate() builds
_DOTTED = re.compile(r"(?<![\w./-])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?=:[A-Za-z_]|[\s\"',;)\]}]|$)")


def command_files(root: Path) -> list[str]:
    """The files of the tree that may run Python files (tree-relative paths)."""
    out = []
    for folder, dirs, files in os.walk(root):
        rel = os.path.relpath(folder, root)
        dirs[:] = [d for d in dirs if (not d.startswith(".") or d in _HIDDEN) and d not in _SKIP]
        for name in files:
            if name.endswith(_SUFFIXES) or name in _NAMES or name.startswith("Dockerfile"):
                out.append(name if rel == "." else posixpath.join(rel.replace(os.sep, "/"), name))
    return sorted(out)


def tool_run_files(root: Path, python_paths: list[str], candidates: set[str]) -> dict[str, str]:
    """Of ``candidates`` (files nothing reaches), those a tool runs: path -> why."""
    if not candidates:
        return {}
    present = set(python_paths)
    by_name: dict[str, list[str]] = {}
    for path in python_paths:
        by_name.setdefault(posixpath.basename(path), []).append(path)
    dotted: dict[str, str] = {}  # "megatron.core.ssm.triton_cache_manager" -> its file, for the candidates
    for path in candidates:
        if path.endswith(".py") and posixpath.basename(path) != "__init__.py" and "/" in path:
            name = path[:-3].replace("/", ".")
            dotted.setdefault(name, path)
            dotted.setdefault(name.split(".", 1)[1], path)  # below a src/ or python/ folder
    out: dict[str, str] = {}
    for rel in command_files(root):
        try:
            if (root / rel).stat().st_size > _MAX_BYTES:
                continue
            text = (root / rel).read_text(errors="replace")
        except OSError:
            continue
        here = posixpath.dirname(rel)
        for folder, number, key in _checker_folders(rel, text):
            base = posixpath.normpath(posixpath.join(here, folder)).lstrip("./")
            if not base or base == "." or not _holds_stubs(root / base):
                continue  # a source folder of the package itself (xformers): nothing says its files are read
            for path in sorted(candidates):
                if base and base != "." and path.startswith(base + "/"):
                    out.setdefault(path, f"{rel}:{number} names its folder ('{folder}', {key}): a type checker "
                                         "reads it")
        for number, line in enumerate(text.splitlines(), 1):
            for m in _DOTTED.finditer(line) if "." in line else ():  # TRITON_CACHE_MANAGER="pkg.mod:Class"
                found = dotted.get(m.group(1))
                if found is not None and "." in m.group(1):
                    out.setdefault(found, f"{rel}:{number} names the module ('{m.group(1)}'): a tool may import it")
                elif _TARGET.search(line) and (found := dotted.get(m.group(1).rsplit(".", 1)[0])) is not None:
                    # Hydra's `_target_: src.callbacks.ema.EMACallback` (flash-attention's training/configs):
                    # instantiate() imports the module and builds the class
                    out.setdefault(found, f"{rel}:{number} names a class of the module ('{m.group(1)}' as "
                                          "_target_): Hydra's instantiate imports it")
            for m in _PLUGIN.finditer(line) if "-p" in line and "pytest" in line.lower() else ():
                found = _resolve(m.group(1).replace(".", "/") + ".py", here, present, by_name)
                if found is not None and found in candidates:
                    out.setdefault(found, f"{rel}:{number} loads it as a pytest plugin ('-p {m.group(1)}')")
            if ".py" in line:
                for m in _PATH.finditer(line):
                    found = _resolve(m.group(1), here, present, by_name)
                    if found is not None and found in candidates:
                        out.setdefault(found, f"{rel}:{number} runs or names it ('{m.group(1)}'): a tool or a "
                                             "shell script may run it")
    for path, why in list(out.items()):  # importing a module runs the __init__.py of each package above it
        if why.endswith(("a tool may import it", "Hydra's instantiate imports it")):
            folder = posixpath.dirname(path)
            while folder and (init := f"{folder}/__init__.py") in candidates and init != path:
                out.setdefault(init, f"the package of {path}, which {why.split(': ')[0]}: importing it runs this")
                folder = posixpath.dirname(folder)
    for path in candidates:
        if posixpath.basename(path) == "conf.py" and path not in out:
            try:
                if _SPHINX.search((root / path).read_text(errors="replace")):
                    out[path] = "a Sphinx configuration (html_theme/extensions): sphinx-build runs it"
            except OSError:
                continue
    for path, why in gallery_examples(root, python_paths, candidates).items():
        out.setdefault(path, why)
    return out


_GALLERY_DIRS = re.compile(r"""["']examples_dirs["']\s*:\s*(\[[^\]]*\]|["'][^"']*["'])""")
_GALLERY_PATTERN = re.compile(r"""["']filename_pattern["']\s*:\s*r?["']([^"']*)["']""")


def gallery_examples(root: Path, python_paths: list[str], candidates: set[str]) -> dict[str, str]:
    """Files a Sphinx configuration's sphinx-gallery runs to build its pages: below a folder of its
    ``examples_dirs`` (relative to ``conf.py``), matching its ``filename_pattern`` (``/plot`` unless set): keops'
    ``pykeops/benchmarks/plot_benchmark_invkernel.py``, named by ``doc/conf.py``. Path -> why."""
    out: dict[str, str] = {}
    for conf in [p for p in python_paths if posixpath.basename(p) == "conf.py"]:
        try:
            text = re.sub(r"(?m)^\s*#.*$", "", (root / conf).read_text(errors="replace"))  # commented-out keys
        except OSError:
            continue
        found = _GALLERY_DIRS.search(text)
        if not found:
            continue
        pattern = _GALLERY_PATTERN.search(text)
        try:
            matcher = re.compile(pattern.group(1) if pattern else "/plot")
        except re.error:
            matcher = re.compile("")  # a pattern Python cannot read: every file of the folders (unknown: keep)
        here = posixpath.dirname(conf)
        for folder in re.findall(r"""["']([^"']+)["']""", found.group(1)):
            base = posixpath.normpath(posixpath.join(here, folder))
            for path in candidates:
                if path.startswith(base + "/") and matcher.search("/" + path):
                    out[path] = f"an example {conf}'s sphinx-gallery runs (examples_dirs '{folder}')"
    return out


def _holds_stubs(folder: Path) -> bool:
    """Whether a folder holds type stubs (``.pyi`` files) within two levels."""
    try:
        return folder.is_dir() and any(next(folder.glob(pattern), None) for pattern in ("*.pyi", "*/*.pyi", "*/*/*.pyi"))
    except OSError:
        return False


def _checker_folders(rel: str, text: str) -> list[tuple[str, int, str]]:
    """(folder, line, key) for the folders a type checker configuration names as source or stub folders (those that
    hold stubs are read by the checker: their unreached ``.py`` files too, xformers' ``stubs/torch_stub_tests.py``): in its
    own files (``.pyre_configuration``, ``pyrightconfig.json``, ``mypy.ini``), or in a ``[mypy]``/``[tool.mypy]``/
    ``[tool.pyright]`` section of ``setup.cfg``/``pyproject.toml``/``tox.ini``."""
    own = posixpath.basename(rel) in _TYPE_CHECKER_CONFIGS
    if not own and not rel.endswith((".cfg", ".toml", ".ini")):
        return []
    out = []
    section = ""
    key = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]") and not own:
            section, key = stripped.strip("[]").strip(), None
            continue
        if not own and not re.match(r"(tool\.)?(mypy|pyright)\b", section):
            continue
        m = _CHECKER_KEY.search(line)
        if m is not None:
            key, line = m.group(1), line[m.end() - 1:]
        elif key is None or not (line.startswith((" ", "\t")) or stripped.startswith(("\"", "'", "{", "]"))):
            key = None
            continue
        for q in _QUOTED_OR_BARE.finditer(line):
            folder = q.group(1) or q.group(2)
            if folder and not folder.endswith((".py", ".pyi")) and folder not in (".", "true", "false"):
                out.append((folder, number, key))
        if "]" in line or (m is not None and "[" not in line):
            key = None
    return out


def _resolve(text: str, here: str, present: set[str], by_name: dict[str, list[str]]) -> str | None:
    """The Python file a path written in a command file means (an ``__init__.py`` is touched, not run):
    relative to that file's folder, to the tree's root, else the one file whose path ends with it
    (``scripts/check.py`` run from a ``cd``), else the one file of that name below the command file's folder or
    in the tree."""
    if posixpath.basename(text) == "__init__.py":  # touch pkg/__init__.py: never run
        return None
    for base in (here, ""):
        path = posixpath.normpath(posixpath.join(base, text))
        if path in present:
            return path
    tail = posixpath.normpath(text).lstrip("./")
    if not tail:
        return None
    name = posixpath.basename(tail)
    if "/" in tail:
        hits = [p for p in by_name.get(name, ()) if p.endswith("/" + tail)]
        return hits[0] if len(hits) == 1 else None
    hits = by_name.get(name, [])
    below = [p for p in hits if not here or p.startswith(here + "/")]
    if len(below) == 1:
        return below[0]
    return hits[0] if len(hits) == 1 else None
