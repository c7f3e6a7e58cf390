"""Builders of native code: CMake files name the sources they compile (``add_library``, ``nanobind_add_module``,
``file(GLOB ...)``), and a ``setup.py`` names the folders it compiles every source of (``all_files_in_dir(
"transformer_engine/pytorch/csrc", "cpp")``) or globs them (``glob("csrc/*.cu")``)."""

from __future__ import annotations

import ast
import fnmatch
import io
import posixpath
import re
import string
import tokenize
from collections.abc import Set as AbstractSet
from pathlib import Path

from slimfork.audit.links import SourceResolver
from slimfork.source.build_scripts import named_build_script
from slimfork.globs import glob_body

_CMAKE_COMMENT = re.compile(r"#\[\[.*?\]\]|#[^\n]*", re.S)
_PATTERN = re.compile(r"[\w${}./+-]*\*[\w*./+-]*\.(?:cuh|cu|cpp|cc|cxx|c|hpp|hh|h|hip|metal|mm|m|inl|inc)\b")
_SOURCE = re.compile(r"[\w${}./+-]+\.(?:cuh|cu|cpp|cc|cxx|c|hpp|hh|h|hip|metal|mm|m|inl|inc)\b")
_VAR_PREFIX = re.compile(r"^\$\{(?:CMAKE_CURRENT_SOURCE_DIR|CMAKE_CURRENT_LIST_DIR|PROJECT_SOURCE_DIR|"
                         r"CMAKE_SOURCE_DIR)\}/")


# aux_source_directory(<dir> <variable>): every source of the folder (not below it); the folder "." or "${...}"
_AUX_SOURCE = re.compile(r"\baux_source_directory\s*\(\s*([\w${}./+-]+)\s+\w+\s*\)", re.I)
_AUX_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".cu", ".m", ".mm", ".hip", ".C", ".c++")


def _glob_match(path: str, pattern: str) -> bool:
    """Whether a Python glob pattern matches a path: ``*``, ``?`` and ``[...]`` stay inside one folder (``glob(
    "csrc/*.cpp")`` builds none of ``csrc/cpu/*.cpp``); ``**/`` is any number of folders, a trailing ``**`` anything
    below (read as recursive whether or not the call says so: over-keeping, never under)."""
    return re.fullmatch(glob_body(pattern, classes=True), path) is not None


def is_cmake(path: str) -> bool:
    return posixpath.basename(path) == "CMakeLists.txt" or path.endswith(".cmake")


_CMAKE_SET = re.compile(r"\bset\s*\(\s*(\w+)\s+(\"[^\"\n]*\"|[^\s()\"]+)\s*(\w*)\s*\)", re.I)
_CMAKE_ANY_SET = re.compile(r"\bset\s*\(\s*(\w+)\b", re.I)
_CMAKE_REF = re.compile(r"\$\{(\w+)\}")
_CMAKE_PROJECT = re.compile(r"^\s*project\s*\(\s*([\w.+-]+)", re.I | re.M)
_CMAKE_FILE_GLOB = re.compile(r"\bfile\s*\(\s*(GLOB|GLOB_RECURSE)\s+\w+([^()]*)\)", re.I)
_CMAKE_GLOB_OPTIONS = {"LIST_DIRECTORIES": 1, "RELATIVE": 1, "CONFIGURE_DEPENDS": 0, "FOLLOW_SYMLINKS": 0}


def _cmake_variables(text: str) -> dict[str, str]:
    """The variables a CMake file sets to one path and only to it (``set(CSRC pyg_lib/csrc)``, ``set(D
    "${CMAKE_CURRENT_SOURCE_DIR}/src")``), their own ``${...}`` expanded where known, and ``PROJECT_NAME`` where
    the file declares one ``project()``. A variable set twice to different values, to a list, or with
    ``CACHE``/``PARENT_SCOPE`` words is unknown (left out)."""
    counts: dict[str, int] = {}
    for m in _CMAKE_ANY_SET.finditer(text):
        counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    values: dict[str, set[str]] = {}
    for m in _CMAKE_SET.finditer(text):
        if m.group(3):  # set(V value CACHE ...), set(V a b): not one plain value
            continue
        values.setdefault(m.group(1), set()).add(m.group(2).strip('"'))
    plain = [m.group(1) for m in _CMAKE_SET.finditer(text) if not m.group(3)]
    env = {name: next(iter(vals)) for name, vals in values.items()
           if len(vals) == 1 and plain.count(name) == counts[name]}
    projects = set(_CMAKE_PROJECT.findall(text))
    if len(projects) == 1:  # project(bestla ...): file(GLOB srcs ${PROJECT_NAME}/ut/*.cpp)
        env.setdefault("PROJECT_NAME", next(iter(projects)))
    for _ in range(4):  # nested: set(A ${B}/x)
        env = {name: _CMAKE_REF.sub(lambda r: env.get(r.group(1), r.group(0)) if r.group(1) != name else r.group(0),
                                    value) for name, value in env.items()}
    return env


def _cmake_expand(word: str, env: dict[str, str]) -> str:
    """A CMake word with the source-folder variables dropped (relative to the file's folder) and the file's own
    one-value variables expanded; ``${...}`` stays where unknown."""
    word = _VAR_PREFIX.sub("", word)
    for _ in range(4):
        expanded = _VAR_PREFIX.sub("", _CMAKE_REF.sub(lambda r: env.get(r.group(1), r.group(0)), word))
        if expanded == word:
            break
        word = expanded
    return word


_R_PACKAGE = re.compile(r"^Package:\s*(\S+)", re.M)
_R_SOURCES = (".c", ".cc", ".cpp", ".cxx", ".f", ".f90", ".cu")


def r_package_sources(root: Path, other_files: list[str], native: list[str]) -> dict[str, str]:
    """The sources R compiles when it installs a package of the tree: those directly in the ``src/`` folder beside
    an R ``DESCRIPTION`` file (``Package: rkeops``: ``rkeops/src/rkeops.cpp``, ``RcppExports.cpp``). path -> why."""
    out: dict[str, str] = {}
    for rel in [p for p in other_files if posixpath.basename(p) == "DESCRIPTION"]:
        try:
            found = _R_PACKAGE.search((root / rel).read_text(errors="replace")[:4096])
        except OSError:
            continue
        if not found:
            continue
        src = posixpath.join(posixpath.dirname(rel), "src")
        for path in native:
            if posixpath.dirname(path) == src and path.endswith(_R_SOURCES):
                out[path] = f"built by R when it installs the package {found.group(1)} ({rel})"
    return out


def _stem_template_sources(name: str, here: str, native: list[str]) -> list[str]:
    """The sources a CMake source name builds whose file name holds a variable left unknown beside a fixed part
    (``specific/shape_distance/cudafshape${ext_name}.cpp``, a loop's variable): the files of its folder (known,
    relative to the CMake file's) that its pattern matches. A file name of variables alone (``${name}.cpp``)
    names nothing known."""
    folder, _, file = name.rpartition("/")
    if "${" in folder or folder.startswith("/"):
        return []
    stem, dot, suffix = file.rpartition(".")
    if not dot or not _CMAKE_REF.sub("", stem).strip("_-."):
        return []
    regex = re.compile("^" + ".*".join(re.escape(part) for part in _CMAKE_REF.split(file)[::2]) + "$")
    base = posixpath.normpath(posixpath.join(here, folder)) if folder else here
    return [p for p in native if posixpath.dirname(p) == base and regex.match(posixpath.basename(p))]


def _cmake_glob_patterns(text: str, env: dict[str, str]) -> list[tuple[str, bool, int, int]]:
    """The patterns of ``file(GLOB v ...)``/``file(GLOB_RECURSE v ...)`` calls: (pattern, recursive, start,
    end of the call). Options (``RELATIVE dir``, ``CONFIGURE_DEPENDS``, ...) and words without a wildcard
    (``${ALL_SOURCES}``, a list already globbed) are left out."""
    out = []
    for m in _CMAKE_FILE_GLOB.finditer(text):
        words = [w.strip('"') for w in m.group(2).split()]
        i = 0
        while i < len(words):
            option = _CMAKE_GLOB_OPTIONS.get(words[i].upper())
            if option is not None:
                i += 1 + option
                continue
            word = _cmake_expand(words[i], env)
            if any(c in word for c in "*?["):
                out.append((word, m.group(1).upper() == "GLOB_RECURSE", m.start(), m.end()))
            i += 1
    return out


def _recursive_pattern(pattern: str) -> str:
    """A ``GLOB_RECURSE`` pattern as a Python glob: its file name matched in its folder and every folder below
    (``csrc/*.cu`` -> ``csrc/**/*.cu``)."""
    folder, name = posixpath.split(pattern)
    return posixpath.join(folder, "**", name) if folder else posixpath.join("**", name)


def cmake_sources(root: Path, other_files: list[str], native: list[str], unread: AbstractSet[str] = frozenset()
                  ) -> dict[str, str]:
    """Native sources a CMake file of the tree names or globs: path -> "built by CMakeLists.txt:81". A
    ``file(GLOB v dir/*.cu)`` builds the sources directly in ``dir``, ``file(GLOB_RECURSE v dir/*.cu)`` those in
    ``dir`` and every folder below it; the file's one-value ``set(CSRC pyg_lib/csrc)`` variables are expanded
    (pyg-lib's ``file(GLOB_RECURSE ALL_SOURCES ${CSRC}/*.cpp)``). A pattern of another command (a project's own
    glob function) matches across folders: what it builds is not known, so it keeps more."""
    resolver = SourceResolver(native)
    present = set(native)
    out: dict[str, str] = {}
    for rel in sorted(p for p in other_files if is_cmake(p) and p not in unread):
        try:
            text = _CMAKE_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), (root / rel).read_text(
                errors="replace"))
        except OSError:
            continue
        here = posixpath.dirname(rel)
        env = _cmake_variables(text)
        bases = [here] + ([""] if rel.endswith(".cmake") and here else [])  # include()d: the includer's folder
        globs = _cmake_glob_patterns(text, env)
        for pattern, recursive, start, _end in globs:
            if "${" in pattern or pattern.startswith("/"):
                continue
            line = text.count("\n", 0, start) + 1
            kind = "GLOB_RECURSE" if recursive else "GLOB"
            for base in bases:
                full = posixpath.normpath(posixpath.join(base, pattern))
                full = _recursive_pattern(full) if recursive else full
                for path in native:
                    if _glob_match(path, full):
                        out.setdefault(path, f"built by {rel}:{line} (file({kind} {pattern}))")
        spans = [(start, end) for _p, _r, start, end in globs]
        for m in _PATTERN.finditer(text):  # glob_files_nohip(v csrc/moe/*.cpp), ...
            if any(start <= m.start() < end for start, end in spans):
                continue
            pattern = _cmake_expand(m.group(0), env)
            if "${" in pattern:
                continue
            line = text.count("\n", 0, m.start()) + 1
            for full in (posixpath.normpath(posixpath.join(b, pattern)) for b in bases):
                for path in native:
                    if fnmatch.fnmatch(path, full):
                        out.setdefault(path, f"built by {rel}:{line} (glob {pattern})")
        for m in _AUX_SOURCE.finditer(text):  # aux_source_directory(${CMAKE_CURRENT_SOURCE_DIR}/cpu_backend V)
            folder = _VAR_PREFIX.sub("", m.group(1).rstrip("/") + "/")
            if "${" in folder:
                continue
            full = posixpath.normpath(posixpath.join(here, folder))
            line = text.count("\n", 0, m.start()) + 1
            for path in native:
                if posixpath.dirname(path) == full and path.endswith(_AUX_SUFFIXES):
                    out.setdefault(path, f"built by {rel}:{line} (aux_source_directory {m.group(1)})")
        for m in _SOURCE.finditer(text):
            name = _cmake_expand(m.group(0), env)
            line = text.count("\n", 0, m.start()) + 1
            if "${" in name and "*" not in name:  # set(name2 cudafshape${ext}) ... dir/${name2}.cpp
                for path in _stem_template_sources(name, here, native):
                    out.setdefault(path, f"built by {rel}:{line} ({m.group(0)})")
            if "${" in name or "*" in name:
                continue
            for path in resolver.resolve(name, rel):
                out.setdefault(path, f"built by {rel}:{line}")
        for function, index, suffix in _stem_functions(text):
            for call in re.finditer(r"(?<![\w$])%s\s*\(([^()]*)\)" % re.escape(function), text):
                args = call.group(1).split()
                if index >= len(args) or not re.fullmatch(r"[\w./+-]+", args[index]):
                    continue
                line = text.count("\n", 0, call.start()) + 1
                stem = args[index]
                path = posixpath.normpath(posixpath.join(here, f"{stem}.{suffix}"))
                if path in present:
                    out.setdefault(path, f"built by {rel}:{line} ({function}({stem}) compiles {stem}.{suffix})")
    return out


_ADD_SUBDIRECTORY = re.compile(r"\badd_subdirectory\s*\(\s*(\"[^\"]*\"|[^\s()]+)", re.I)
_PROJECT = re.compile(r"^[ \t]*project\s*\(", re.I | re.M)


def unread_cmake_files(root: Path, other_files: list[str], python_paths: list[str]) -> dict[str, str]:
    """``CMakeLists.txt`` files no CMake build reads: path -> why. CMake reads a folder's ``CMakeLists.txt`` only
    when it is the top of a build or an ``add_subdirectory`` of a read one names its folder. One is unread when a
    folder above it has a ``CMakeLists.txt``, it declares no ``project()`` of its own, no read CMake file adds its
    folder (an ``add_subdirectory`` with a variable left unknown reads every folder below its file's), and no Python,
    shell or read CMake file names the folder as a whole (``cmake -S csrc``, ``SOURCE_DIR ${...}/csrc``):
    tiny-cuda-nn's ``src/CMakeLists.txt`` listing ``common.cu`` after the root stopped adding ``src``, a CUTLASS
    example's ``CMakeLists.txt`` copied into ``dependencies/cutlass_b2b/``."""
    lists = sorted(p for p in other_files if posixpath.basename(p) == "CMakeLists.txt")
    folders = {posixpath.dirname(p): p for p in lists}
    texts: dict[str, str] = {}
    for rel in [p for p in other_files if is_cmake(p)]:
        try:
            texts[rel] = _CMAKE_COMMENT.sub(" ", (root / rel).read_text(errors="replace"))
        except OSError:
            texts[rel] = ""
    candidates = {}
    for folder, rel in folders.items():
        parts = folder.split("/") if folder else []
        if not folder or not any("/".join(parts[:i]) in folders for i in range(len(parts))):
            continue  # the top of a build
        if _PROJECT.search(texts.get(rel, "")):
            continue  # a project of its own, which may be built by itself
        candidates[folder] = rel
    if not candidates:
        return {}
    others: list[str] = []
    for rel in [*python_paths, *(p for p in other_files if p.endswith((".sh", ".bash")))]:
        try:
            others.append((root / rel).read_text(errors="replace"))
        except OSError:
            continue

    def named(folder: str, text: str) -> bool:
        return re.search(r"(?<![\w./-])(?:\./)?%s/?(?![\w./-])" % re.escape(folder), text) is not None

    unread = {folder for folder in candidates if not any(named(folder, text) for text in others)}
    changed = True
    while changed:  # what read files add (or name) is read
        changed = False
        for rel, text in texts.items():
            if posixpath.basename(rel) == "CMakeLists.txt" and posixpath.dirname(rel) in unread:
                continue
            here = posixpath.dirname(rel)
            env = _cmake_variables(text)
            for m in _ADD_SUBDIRECTORY.finditer(text):
                arg = _cmake_expand(m.group(1).strip('"'), env)
                added = {f for f in unread if f == here or f.startswith(here + "/") or not here} if "${" in arg \
                    else {posixpath.normpath(posixpath.join(here, arg))}
                if added & unread:
                    unread -= added
                    changed = True
            for folder in [f for f in unread if named(posixpath.relpath(f, here or ".") if here else f, text)
                           or named(f, text)]:
                unread.discard(folder)
                changed = True
    return {candidates[f]: f"no CMake build reads {candidates[f]} (no add_subdirectory names '{f}', which has no "
            "project() of its own)" for f in sorted(unread)}


# folder names that say the code in them was replaced: kept around, built by nothing
SUPERSEDED_FOLDER = re.compile(r"^(?:old|legacy|deprecated|obsolete|archived?|attic|backup|unused|dead)$", re.I)
_NAMING_FILES = (".py", ".sh", ".bash", ".bat", ".cmd", ".yml", ".yaml", ".toml", ".cfg", ".ini", ".json", ".mk",
                 ".cmake", ".txt", ".md", ".rst", "Makefile", "Dockerfile", "Jenkinsfile")


def superseded_cmake_projects(root: Path, other_files: list[str], python_paths: list[str]) -> dict[str, str]:
    """``CMakeLists.txt`` files of a CMake project of its own in a folder whose name says it was replaced (``old/``,
    ``legacy/``, ``deprecated/``: keops ``7b3f1d75^``, whose ``old/`` held the C++ engine its JIT had replaced),
    and those below it, when no file outside that folder names it (a build, script, CI or configuration file,
    a document: ``add_subdirectory(old)``, ``cmake -S legacy``, ``cd old``, ``old/build.sh``): path -> why.
    Nothing builds such a project; a folder of another name may be a project users build by hand, so it stays."""
    lists = sorted(p for p in other_files if posixpath.basename(p) == "CMakeLists.txt")
    folders = {posixpath.dirname(p) for p in lists}
    tops = []
    for rel in lists:
        folder = posixpath.dirname(rel)
        if not folder or not SUPERSEDED_FOLDER.match(posixpath.basename(folder)):
            continue
        parts = folder.split("/")
        above = any("/".join(parts[:i]) in folders for i in range(len(parts)))
        try:
            own = bool(_PROJECT.search(_CMAKE_COMMENT.sub(" ", (root / rel).read_text(errors="replace"))))
        except OSError:
            continue
        if own or not above:
            tops.append(folder)
    if not tops:
        return {}
    texts = []
    for rel in [*python_paths, *(p for p in other_files if p.endswith(_NAMING_FILES))]:
        try:
            texts.append((rel, (root / rel).read_text(errors="replace")))
        except OSError:
            continue
    def naming(path: str) -> re.Pattern[str]:
        word = re.escape(path)
        return re.compile(r"(?<![\w.-])(?:\./)?%s/|(?:-S|-B|cd|add_subdirectory\s*\()\s*[\"']?(?:\./)?%s\b|[\"']"
                          r"(?:\./)?%s/?[\"']" % (word, word, word))

    out = {}
    for folder in tops:
        full = naming(folder)
        # by its path from the top, or from the naming file's folder (add_subdirectory(legacy) in its parent)
        if any(full.search(text) or naming(posixpath.relpath(folder, posixpath.dirname(rel) or ".")).search(text)
               for rel, text in texts if not rel.startswith(folder + "/")):
            continue
        for rel in lists:
            if rel.startswith(folder + "/"):
                out[rel] = f"a CMake project in {folder}/, a folder whose name says its code was replaced, that no " \
                           "build, script or file outside it builds, adds or names"
    return out


_INCLUDE_DIRECTORIES = re.compile(r"\btarget_include_directories\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)", re.I)
_GENERATOR = re.compile(r"^\$<(?:BUILD_INTERFACE|INSTALL_INTERFACE|BUILD_LOCAL_INTERFACE):(.*)>$")


def exported_include_dirs(root: Path, other_files: list[str], unread: AbstractSet[str] = frozenset()) -> dict[str, str]:
    """Folders of the tree a CMake target exports to its users (``target_include_directories(tiny-cuda-nn PUBLIC
    "include" "dependencies")``, ``INTERFACE``, ``$<BUILD_INTERFACE:...>``): folder -> "exported by
    CMakeLists.txt:272". Headers there are the library's C++ API, which code outside the tree includes."""
    out: dict[str, str] = {}
    for rel in sorted(p for p in other_files if is_cmake(p) and p not in unread):
        try:
            text = _CMAKE_COMMENT.sub(" ", (root / rel).read_text(errors="replace"))
        except OSError:
            continue
        here = posixpath.dirname(rel)
        env = _cmake_variables(text)
        for m in _INCLUDE_DIRECTORIES.finditer(text):
            scope = None
            for word in m.group(1).split()[1:]:
                word = word.strip('"')
                if word.upper() in ("PUBLIC", "INTERFACE", "PRIVATE"):
                    scope = word.upper()
                    continue
                if scope not in ("PUBLIC", "INTERFACE") or word.upper() in ("SYSTEM", "BEFORE", "AFTER"):
                    continue
                inner = _GENERATOR.match(word)
                folder = _cmake_expand(inner.group(1) if inner else word, env)
                if "${" in folder or "$<" in folder or folder.startswith("/"):
                    continue
                full = posixpath.normpath(posixpath.join(here, folder))
                if not full.startswith(".."):
                    out.setdefault(full, f"exported by {rel}:{text.count(chr(10), 0, m.start()) + 1}")
    return out


_MAKEFILES = ("Makefile", "makefile", "GNUmakefile")
_MAKE_COMMENT = re.compile(r"(?<!\\)#[^\n]*")
_MAKE_FIND = re.compile(r"\$\(shell\s+find\s+([\w./+-]+)[^)]*?-name\s+['\"]?([\w*.+-]+)")


_MAKE_ASSIGN = re.compile(r"^[ \t]*(?:override[ \t]+|export[ \t]+)?(\w+)[ \t]*(?::{1,3}|\?|\+)?=[ \t]*(.*?)[ \t]*$",
                          re.M)
_MAKE_REF = re.compile(r"\$[({](\w+)[)}]")


def _make_variables(text: str) -> dict[str, str]:
    """The variables a Makefile sets to one word and only to it (``SRC_DIR := ./src``), their own ``$(...)``
    expanded where known; one appended to (``+=``) or set to several words or different values is left out."""
    values: dict[str, set[str]] = {}
    for m in _MAKE_ASSIGN.finditer(text):
        value = m.group(2)
        appended = re.match(r"\w+[ \t]*\+=", m.group(0).strip()) is not None
        values.setdefault(m.group(1), set()).add("\0" if appended or not value or " " in value or "\t" in value
                                                 else value)
    env = {name: next(iter(vals)) for name, vals in values.items() if len(vals) == 1 and "\0" not in vals}
    for _ in range(4):
        env = {name: _MAKE_REF.sub(lambda r: env.get(r.group(1), r.group(0)) if r.group(1) != name else r.group(0),
                                   value) for name, value in env.items()}
    return env


def is_makefile(path: str) -> bool:
    return posixpath.basename(path) in _MAKEFILES or path.endswith(".mk")


def makefile_sources(root: Path, other_files: list[str], native: list[str]) -> dict[str, str]:
    """Native sources a Makefile names (``SRC=matmul.cu``), globs (``$(wildcard src/*.cu)``) or finds
    (``$(shell find . -name '*.cu')``), relative to its folder: path -> "built by kernels/x/Makefile:12".
    ThunderKittens builds its kernels and unit tests this way: 100+ sources were reported never built at 70.
    A glob's ``*`` stays in one folder, as make's and the shell's do; variables set once to one word
    (MinkowskiEngine's ``SRC_DIR := ./src``, ``$(wildcard $(SRC_DIR)/*.cu)``) are expanded; names made of other
    make variables (``$(TARGET).cu``) keep nothing."""
    resolver = SourceResolver(native)
    out: dict[str, str] = {}
    for rel in sorted(p for p in other_files if is_makefile(p)):
        try:
            text = _MAKE_COMMENT.sub(lambda m: " " * len(m.group(0)), (root / rel).read_text(errors="replace"))
        except OSError:
            continue
        env = _make_variables(text)
        text = _MAKE_REF.sub(lambda r: env.get(r.group(1), r.group(0)), text)  # $(SRC_DIR)/*.cu: ./src/*.cu
        here = posixpath.dirname(rel)
        for m in _MAKE_FIND.finditer(text):
            folder = posixpath.normpath(posixpath.join(here, m.group(1)))
            line = text.count("\n", 0, m.start()) + 1
            for path in native:
                inside = folder == "." or path.startswith(folder + "/")
                if inside and fnmatch.fnmatch(posixpath.basename(path), m.group(2)):
                    out.setdefault(path, f"built by {rel}:{line} (find {m.group(1)} -name {m.group(2)})")
        for m in _PATTERN.finditer(text):  # $(wildcard src/*.cu): make's (the shell's) `*` stays in one folder
            if "$" in m.group(0) or "{" in m.group(0) or text[m.start() - 1:m.start()] in (")", "}"):
                continue
            full = posixpath.normpath(posixpath.join(here, m.group(0)))
            line = text.count("\n", 0, m.start()) + 1
            for path in native:
                if _glob_match(path, full):
                    out.setdefault(path, f"built by {rel}:{line} (glob {m.group(0)})")
        for m in _SOURCE.finditer(text):
            name = m.group(0)
            if "$" in name or "{" in name or "*" in name:
                continue
            line = text.count("\n", 0, m.start()) + 1
            for path in resolver.resolve(name, rel):
                out.setdefault(path, f"built by {rel}:{line}")
    return out


_SHELL_ASSIGN = re.compile(r"^[ \t]*(?:export[ \t]+)?(\w+)=([\"']?)([^\s\"'`;|&<>]*)\2[ \t]*(?:#.*)?$", re.M)
_SHELL_VAR = re.compile(r"\$\{(\w+)\}|\$(\w+)")
# the script's own folder: SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd), HERE="$(dirname "$0")"
_SELF = r"""["']?\$(?:\{BASH_SOURCE(?:\[0\])?\}|BASH_SOURCE|\{0\}|0)["']?"""
_SCRIPT_FOLDER = re.compile(r"""^[ \t]*(?:export[ \t]+)?(\w+)=["']?(?:\$\(cd[ \t]+["']?\$\(dirname[ \t]+""" + _SELF +
                            r"""\)["']?[ \t]*(?:&&|;)[ \t]*pwd(?:[ \t]+-P)?[ \t]*\)|\$\(dirname[ \t]+""" + _SELF +
                            r"""\))["']?[ \t]*(?:#.*)?$""", re.M)
_COMPILER = re.compile(r"(?:^|[\s/(`'\"])(?:nvcc|hipcc|gcc|g\+\+|clang|clang\+\+|c\+\+|cc|icpx|mpicc|mpicxx)\b")


def shell_sources(root: Path, other_files: list[str], native: list[str]) -> dict[str, str]:
    """Native sources a shell script compiles: a command line of a compiler (``nvcc``, ``gcc``, ``$(which nvcc)``...)
    naming a source, with the script's plain ``VAR=value`` assignments expanded (torch_cluster's old ``build.sh``:
    ``SRC_DIR=aten/THC`` ... ``$(which nvcc) -c -o "$BUILD_DIR/THC.so" "$SRC_DIR/THC.cu"``; the ffi era's build
    scripts, mmdetection's ``compile.sh``), and Windows batch files. A variable holding the script's own folder
    (``SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)``) is ``.``. A name left with an unknown variable
    keeps nothing."""
    resolver = SourceResolver(native)
    out: dict[str, str] = {}
    for rel in sorted(p for p in other_files if p.endswith((".sh", ".bash", ".bat", ".cmd"))):
        try:
            text = (root / rel).read_text(errors="replace")
        except OSError:
            continue
        if rel.endswith((".bat", ".cmd")):  # a Windows batch file (LightX2V's lgrf_uni/build.bat: "icpx
            # sdp_kernels.cpp -shared -o esimd.unify.lgrf.dll ^"): "^" continues a line, %VAR% stays unknown
            text = re.sub(r"\^[ \t]*\r?\n", " \\\n", text.replace("\\", "/").replace("%", "$?"))
        env: dict[str, str] = {}
        for m in _SHELL_ASSIGN.finditer(text):  # a name bound twice to different values is unknown ("$?")
            value = _SHELL_VAR.sub(lambda v: env.get(v.group(1) or v.group(2), "$?"), m.group(3))
            env[m.group(1)] = value if env.get(m.group(1), value) == value else "$?"
        for m in _SCRIPT_FOLDER.finditer(text):  # ${SCRIPT_DIR}/transfer_device.cu: beside the script
            env[m.group(1)] = "." if env.get(m.group(1), ".") == "." else "$?"
        lines: list[tuple[int, str]] = []  # (first line number, command with its continuation lines)
        for number, line in enumerate(text.splitlines(), 1):
            if lines and lines[-1][1].endswith("\\"):
                lines[-1] = (lines[-1][0], lines[-1][1][:-1] + " " + line)
            else:
                lines.append((number, line))
        for number, line in lines:
            code = line.split(" #", 1)[0]
            if code.lstrip().startswith("#") or not _COMPILER.search(code):
                continue
            expanded = _SHELL_VAR.sub(lambda v: env.get(v.group(1) or v.group(2), "$?"), code)
            for m in _SOURCE.finditer(expanded):
                name = m.group(0)
                if "$" in name or "{" in name or "*" in name or name.endswith(_HEADER):
                    continue
                for path in resolver.resolve(name, rel):
                    out.setdefault(path, f"built by {rel}:{number}")
    return out


_HEADER = (".h", ".hpp", ".hh", ".cuh", ".inl", ".inc")


_FUNCTION = re.compile(r"^[ \t]*(?:function|macro)\s*\(\s*(\w+)([^)]*)\)(.*?)^[ \t]*end(?:function|macro)\b",
                       re.M | re.S | re.I)
_STEM_USE = re.compile(r"\$\{(\w+)\}\.(cuh|cu|cpp|cc|cxx|c|hip|metal|mm|m)\b")


def _stem_functions(text: str) -> list[tuple[str, int, str]]:
    """CMake functions that compile a source named by the stem a parameter gives (mlx's
    ``function(build_kernel KERNEL) set(SRCFILE ${CMAKE_CURRENT_SOURCE_DIR}/${KERNEL}.metal)``, called as
    ``build_kernel(arange arange.h)``): (function, parameter position, suffix)."""
    out = []
    for m in _FUNCTION.finditer(text):
        params = m.group(2).split()
        for use in _STEM_USE.finditer(m.group(3)):
            if use.group(1) in params:
                out.append((m.group(1), params.index(use.group(1)), use.group(2)))
    return out


_EXTENSION_CALL = re.compile(r"\b\w*Extension\s*\(")
# A name bound to an extension class, called later (pytorch3d: ``extension = CppExtension`` ... ``extension =
# CUDAExtension`` ... ``extension("pytorch3d._C", sources, ...)``).
_EXTENSION_CLASS_BINDING = re.compile(r"^[ \t]*([A-Za-z_]\w*)\s*=\s*(?:[\w.]+\.)?\w*Extension[ \t]*(?:#.*)?$", re.M)


def _extension_calls(text: str) -> list[re.Match]:
    """The ``*Extension(`` calls of a build script, and calls of names bound only to extension classes."""
    calls = list(_EXTENSION_CALL.finditer(text))
    bound = {m.group(1) for m in _EXTENSION_CLASS_BINDING.finditer(text)}
    if bound:
        rebound = {name for name in bound
                   if re.search(rf"^[ \t]*{name}\s*=(?!=)(?!\s*(?:[\w.]+\.)?\w*Extension[ \t]*(?:#.*)?$)", text, re.M)}
        names = "|".join(sorted(re.escape(n) for n in bound - rebound if not n.endswith("Extension")))
        if names:
            calls += [m for m in re.finditer(rf"(?<![\w.])(?:{names})\s*\(", text)]
    return sorted(calls, key=lambda m: m.start())
_NAME = re.compile(r"""^\s*[fF]?(["'])([\w.]+)\1|\bname\s*=\s*[fF]?(["'])([\w.]+)\3""")  # f"gsplat.csrc" too
_NAME_VARIABLE = re.compile(r"""^\s*([A-Za-z_]\w*)\s*,|\bname\s*=\s*([A-Za-z_]\w*)\s*[,)\n]""")
_STRING_BINDING = re.compile(r"""^([A-Za-z_]\w*)\s*=\s*(["'])([\w.]+)\2[ \t]*$""", re.M)
_BINDING = re.compile(r"^[ \t]*([A-Za-z_]\w*)\s*=[^=]", re.M)


# a Python file a build script runs through a shell command (hqq's setup.py: ``cmd = "cd hqq/kernels; "``,
# ``cmd += "python setup_cuda.py install; "``, ``os.system(cmd)``)
_RUN_PY = re.compile(r"""(?:^|[\s;&|("'])python[\d.]*\s+(?:-\S+\s+)*([\w./-]+\.py)\b""")
_CD = re.compile(r"""(?:^|[\s;&|"'])cd\s+([\w./-]+)""")


def setup_scripts(root: Path, python_paths: list[str]) -> dict[str, str]:
    """Every ``setup.py`` (path -> ""), and the Python files a ``setup.py`` runs through a shell command string
    (path -> "run by setup.py:LINE"): a ``cd DIR`` of the same script places the run file, else the one file of
    that name below the script's folder. Those build the extensions they declare as part of the build."""
    present = set(python_paths)
    out = {p: "" for p in sorted(python_paths) if posixpath.basename(p) == "setup.py"}
    for folder in sorted({posixpath.dirname(p) for p in python_paths}):  # build.py calling setuptools' setup()
        named = named_build_script(root / folder)
        if named is not None:
            out.setdefault(posixpath.join(folder, named), "a build script: it calls setuptools' setup()")
    for rel in list(out):
        try:
            text = (root / rel).read_text(errors="replace")
        except OSError:
            continue
        here = posixpath.dirname(rel)
        folders = [posixpath.normpath(posixpath.join(here, m.group(1))) for m in _CD.finditer(text)]
        for number, line in enumerate(text.splitlines(), 1):
            for m in _RUN_PY.finditer(line):
                name = m.group(1)
                hits = [path for base in [here, *folders] if (path := posixpath.normpath(posixpath.join(base, name))
                                                               .lstrip("./")) in present]
                if not hits:
                    below = [p for p in present if p.endswith("/" + name.lstrip("./")) and
                             (not here or p.startswith(here + "/"))]
                    hits = below if len(below) == 1 else []
                for path in hits[:1]:
                    if path not in out:
                        out[path] = f"run by {rel}:{number}"
    return out


def _extension_name(body: str, constants: dict[str, str]) -> str | None:
    """The module name an ``Extension(...)`` call's arguments give: a literal first argument or ``name=``, or a
    name the script binds once, to a literal (``extension_name = "exllamav2_ext"`` ... ``CUDAExtension(
    extension_name, [...])``)."""
    literal = _NAME.search(body)
    if literal is not None:
        return literal.group(2) or literal.group(4)
    variable = _NAME_VARIABLE.search(body)
    if variable is not None:
        return constants.get(variable.group(1) or variable.group(2))
    return None


def _string_constants(text: str) -> dict[str, str]:
    """Names a script binds exactly once, at the top level, to a string literal."""
    counts: dict[str, int] = {}
    for m in _BINDING.finditer(text):
        counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    return {m.group(1): m.group(3) for m in _STRING_BINDING.finditer(text) if counts.get(m.group(1)) == 1}
_BUILT_SOURCE = re.compile(r"""(["'])((?:\{\w+\}/)?[\w./+-]+\.(?:cu|cpp|cc|cxx|c|hip|mm))\1""")


def _hole(source: re.Match) -> str:
    """The source path as the resolver reads it: an f-string's leading ``{bd_dir}/`` as a hole."""
    return re.sub(r"^\{\w+\}/", "{...}/", source.group(2))


def extension_names(root: Path, python_paths: list[str], native: list[str]) -> dict[str, list[str]]:
    """The modules ``setup.py`` extensions build from each native source they list (``CUDAExtension(
    name="flash_attn_2_cuda", sources=["csrc/flash_attn/flash_api.cpp", ...])``, or a name bound once to a
    literal: ``CUDAExtension(extension_name, [...])``; ``sources=[f"{bd_dir}/hipbsolgemm.cu"]`` by its file name):
    path -> module names (aiter builds ``hipbsolgemm.cu`` as ``hipbsolidxgemm`` in ``gradlib/setup.py`` and as
    ``hipbsolidxgemm_`` in its root ``setup.py``). A ``PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)`` source gets its
    module's names from here."""
    resolver = SourceResolver(native)
    out: dict[str, list[str]] = {}

    def add(path: str, module: str) -> None:
        if module not in out.setdefault(path, []):
            out[path].append(module)

    walked: dict[str, str] | None = None
    for rel in setup_scripts(root, python_paths):
        try:
            text = _without_comments((root / rel).read_text(errors="replace"))
        except OSError:
            continue
        unlisted = set()  # extensions whose sources are computed (sources=sources): the file's other literals
        constants = _string_constants(text)
        for call in _extension_calls(text):
            body = _call_text(text, call.end())
            name = _extension_name(body, constants)
            if name is None:
                continue
            listed = [path for source in _BUILT_SOURCE.finditer(body) for path in resolver.resolve(_hole(source), rel)]
            if not listed and (variable := _SOURCES_VARIABLE.search(body)) is not None:
                listed = _variable_glob_sources(root, rel, variable.group(1) or variable.group(2), native)
            for path in listed:
                add(path, name)
            if not listed:
                unlisted.add(name)
        if len(unlisted) == 1:
            for source in _BUILT_SOURCE.finditer(text):
                for path in resolver.resolve(_hole(source), rel):
                    add(path, next(iter(unlisted)))
            if walked is None:
                walked = setup_folder_sources(root, python_paths, native)
            for path, why in walked.items():  # its sources globbed or walked (os.walk(sources_dir)): those it builds
                if why.startswith(f"built by {rel}:") and path not in out:
                    add(path, next(iter(unlisted)))
    return out


_SOURCES_VARIABLE = re.compile(r"\bsources\s*=\s*([A-Za-z_]\w*)\s*[,)\n]|^\s*[^,()]+,\s*([A-Za-z_]\w*)\s*[,)\n]")


def _variable_glob_sources(root: Path, rel: str, variable: str, native: list[str]) -> list[str]:
    """The sources an extension's ``sources=variable`` globs: those of the globs of computable paths in the
    script's assignments of the name (torch-points-kernels: ``ext_sources = glob.glob("{}/src/*.cpp".format(root))
    + glob.glob("{}/src/*.cu".format(root))`` for one extension, ``cpu_ext_sources = ...`` for the other; a later
    ``sources = [p for p in sources if "hip" not in p]`` adds none)."""
    try:
        tree = ast.parse((root / rel).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return []
    spans = [(node.lineno, node.end_lineno or node.lineno) for node in ast.walk(tree) if isinstance(node, ast.Assign)
             and any(isinstance(t, ast.Name) and t.id == variable for t in node.targets)]
    here = posixpath.dirname(rel)
    out: list[str] = []
    for pattern, line in _glob_patterns(tree):
        if not any(first <= line <= last for first, last in spans):
            continue
        full = posixpath.normpath(posixpath.join(here, pattern))
        for path in native:
            if path.endswith(_NATIVE_SOURCE) and path not in out and (
                    _glob_match(path, full)):
                out.append(path)
    return out


def built_extension_modules(root: Path, python_paths: list[str]) -> set[str]:
    """The dotted names of the extension modules every ``setup.py`` declares (``CUDAExtension("pytorch3d._C",
    ...)``, also through a name bound to the class), whatever their sources: importing them is importing code the
    build makes (``from pytorch3d import _C`` in a test)."""
    out: set[str] = set()
    for rel in setup_scripts(root, python_paths):
        try:
            text = _without_comments((root / rel).read_text(errors="replace"))
        except OSError:
            continue
        constants = _string_constants(text)
        for call in _extension_calls(text):
            name = _extension_name(_call_text(text, call.end()), constants)
            if name:
                out.add(name)
    return out


_SETUP_CALL = re.compile(r"\bsetup\s*\(")
_DECLARES_PYTHON = re.compile(r"\b(?:packages|py_modules|package_dir)\s*=")


def sole_api_extensions(root: Path, python_paths: list[str]) -> set[str]:
    """Extensions a ``setup.py`` builds whose distribution installs no Python package or module (``setup(
    name="thunderkittens", ext_modules=[CUDAExtension("thunderkittens", ...)])``, no ``packages=``/``py_modules=``,
    no ``pyproject.toml``, ``setup.cfg`` or package beside it): the extension is the distribution's whole Python API, so
    its exports are public even when nothing in the tree reads them."""
    out: set[str] = set()
    for rel in sorted(p for p in python_paths if posixpath.basename(p) == "setup.py"):
        here = posixpath.dirname(rel)
        if any((root / here / name).is_file() for name in ("pyproject.toml", "setup.cfg")):
            continue
        if any(p.count("/") == here.count("/") + (2 if here else 1) and p.endswith("/__init__.py")
               and (not here or p.startswith(here + "/")) for p in python_paths):
            continue  # a package beside it (mlx's examples/extensions/mlx_sample_extensions/) wraps the extension
        try:
            text = _without_comments((root / rel).read_text(errors="replace"))
        except OSError:
            continue
        if not _SETUP_CALL.search(text) or _DECLARES_PYTHON.search(text):
            continue
        constants = _string_constants(text)
        for call in _extension_calls(text):
            name = _extension_name(_call_text(text, call.end()), constants)
            if name is not None:
                out.add(name)
    return out


def _call_text(text: str, start: int) -> str:
    """The arguments of the call whose ``(`` ends at ``start``: up to its balancing ``)``."""
    depth = 1
    for i in range(start, min(len(text), start + 20000)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return text[start:i]
    return text[start:start + 20000]


def _without_comments(text: str) -> str:
    """Python source with its comments blanked (a commented-out ``CUDAExtension(`` builds nothing)."""
    lines = text.splitlines(keepends=True)
    try:
        comments = [t for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError):
        return text
    for token in reversed(comments):
        row, col = token.start
        line = lines[row - 1]
        lines[row - 1] = line[:col] + " " * (token.end[1] - col) + line[token.end[1]:]
    return "".join(lines)


_NATIVE_SOURCE = (".cu", ".cpp", ".cc", ".cxx", ".c", ".hip", ".mm")


def setup_folder_sources(root: Path, python_paths: list[str], native: list[str]) -> dict[str, str]:
    """Native sources a ``setup.py`` compiles by its folder or a glob: path -> "built by setup.py:221 (...)". A
    string of the script that is a folder path of the tree (relative to the script's folder, with a "/", holding
    sources and no Python files) keeps
    every source below it: a build helper walks it (Transformer Engine's ``setup_pytorch_extension(
    "transformer_engine/pytorch/csrc", ...)`` compiles ``all_files_in_dir(path, "cpp")``). Include folders
    (``include_dirs=[...]``, a name with ``include``) are not compiled and keep nothing; headers stay by the
    sources that include them."""
    sources = [p for p in native if p.endswith(_NATIVE_SOURCE)]
    folders: dict[str, list[str]] = {}
    for path in sources:
        parts = path.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folders.setdefault("/".join(parts[:i]), []).append(path)
    python_folders = {"/".join(p.split("/")[:i]) for p in python_paths for i in range(1, p.count("/") + 1)}
    out: dict[str, str] = {}
    for rel, tree, here in _parsed_setup_scripts(root, python_paths):
        for text, line in _build_strings(tree):
            full = posixpath.normpath(posixpath.join(here, text.rstrip("/")))
            if full.startswith("..") or full == "." or "/" not in text.strip("./") or full in python_folders:
                continue
            if "*" in text:  # glob("csrc/**/*.cu")
                if text.endswith(_NATIVE_SOURCE):
                    for path in sources:
                        if _glob_match(path, full):
                            out.setdefault(path, f"built by {rel}:{line} (glob {text})")
                elif full.endswith("/*") and "*" not in full[:-1]:  # glob("csrc/plugins/*"): every file of the folder
                    for path in folders.get(full[:-2], ()):
                        if posixpath.dirname(path) == full[:-2]:
                            out.setdefault(path, f"built by {rel}:{line} (glob {text})")
                continue
            for path in folders.get(full, ()):
                out.setdefault(path, f"built by {rel}:{line} (every source below the folder '{text}')")
        for pattern, line in _glob_patterns(tree):  # glob(os.path.join(ext_dir, "**", "*.cpp")), ext_dir a join
            full = posixpath.normpath(posixpath.join(here, pattern))
            if full.startswith("..") or not full.endswith(_NATIVE_SOURCE + ("/**/*",)) or "/" not in full:
                continue  # (an os.walk: every source below the folder)
            for path in sources:
                if _glob_match(path, full):
                    out.setdefault(path, f"built by {rel}:{line} (glob {full})")
    return out


_GLOBS = ("glob", "iglob", "rglob")


def _glob_patterns(tree: ast.Module) -> list[tuple[str, int]]:
    """The patterns of the glob calls of a build script whose pattern is a path joined from constants and from
    names bound, in the same function or at module level, to such paths or to the script's own folder
    (``d = os.path.join("pkg", "csrc")`` ... ``glob.glob(os.path.join(d, "**", "*.cu"), recursive=True)`` gives
    ``pkg/csrc/**/*.cu``; ``Path(d).rglob("*.cu")`` gives ``pkg/csrc/**/*.cu``; ``os.walk(d)`` gives ``pkg/csrc/**/*``:
    exllamav3's ``[... for root, _, files in os.walk(sources_dir) for file in files if file.endswith(".cu")]``).
    A part computed out of sight gives no pattern."""
    out: list[tuple[str, int]] = []
    scopes: list[ast.AST] = [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef,
                                                                                    ast.AsyncFunctionDef))]
    module_env = _path_bindings(tree, {})
    for scope in scopes:
        env = module_env if scope is tree else _path_bindings(scope, module_env)
        for node in _own_nodes(scope):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            method = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if method == "walk" and node.args and isinstance(func, ast.Attribute) and ast.unparse(func.value) == "os":
                base = _path_value(node.args[0], env)  # os.walk(os.path.join("pkg", ext_name)): every file below
                if base is not None:
                    out.append((posixpath.join(base, "**", "*"), node.lineno))
                continue
            if method not in _GLOBS or not node.args:
                continue
            pattern = _path_value(node.args[0], env)
            if pattern is None:
                continue
            if isinstance(func, ast.Attribute) and ast.unparse(func.value) != "glob":
                base = _path_value(func.value, env)  # Path(d).glob("*.cu"), Path(d).rglob("*.cu")
                if base is None:
                    continue
                pattern = posixpath.join(base, "**", pattern) if method == "rglob" else posixpath.join(base, pattern)
            out.append((pattern, node.lineno))
        for node in _own_nodes(scope):  # osp.join(extensions_dir, 'cpu', f'{name}_cpu.cpp'), name a loop's
            template = _source_template(node, env)
            if template is not None:
                out.append((template, node.lineno))
    return out


_JOINS = ("os.path.join", "path.join", "osp.join")


def _source_template(node: ast.AST, env: dict[str, str]) -> str | None:
    """A native source path whose folder _path_value computes and whose file name is an f-string with parts it does
    not (a loop's name): the glob pattern of the files it can name, ``*`` for each unknown part (pytorch_sparse:
    ``for main in glob.glob(osp.join(extensions_dir, '*.cpp')): name = ...; path = osp.join(extensions_dir,
    'cpu', f'{name}_cpu.cpp')`` builds ``csrc/cpu/*_cpu.cpp``)."""
    if isinstance(node, ast.Call) and ast.unparse(node.func) in _JOINS and len(node.args) >= 2 and not node.keywords \
            and isinstance(node.args[-1], ast.JoinedStr):
        parts = [_path_value(a, env) for a in node.args[:-1]]
        name = node.args[-1]
    elif isinstance(node, ast.JoinedStr) and isinstance(node.values[0], ast.FormattedValue):
        parts, name = [], node  # f"{folder}/{name}_cpu.cpp": the folder part computed, the rest a template
    else:
        return None
    if any(p is None for p in parts):
        return None
    text = ""
    for value in name.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            text += value.value.replace("*", "")
        elif isinstance(value, ast.FormattedValue):
            known = _path_value(value.value, env) if value.conversion == -1 and value.format_spec is None else None
            text += "*" if known is None else known
        else:
            return None
    if not parts and "/" not in text:
        return None
    if "*" not in text or not text.endswith(_NATIVE_SOURCE) or posixpath.basename(text) in ("*",) + tuple(
            "*" + s for s in _NATIVE_SOURCE):
        return None  # f"{anything}.cpp": no folder or stem to go by
    full = posixpath.join(*[p for p in parts if p is not None], text)
    if "*" in posixpath.dirname(full):
        return None
    return full


def _own_nodes(scope: ast.AST):
    """The nodes of a module or function, not those of the functions it defines."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def _path_bindings(scope: ast.AST, outer: dict[str, str]) -> dict[str, str]:
    """Names a scope binds once, by a plain assignment, to a path _path_value can compute."""
    env = dict(outer)
    counts: dict[str, int] = {}
    assigns: list[tuple[str, ast.expr]] = []
    for node in _own_nodes(scope):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    counts[target.id] = counts.get(target.id, 0) + 1
                    assigns.append((target.id, node.value))
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
            counts[node.target.id] = counts.get(node.target.id, 0) + 2
    for name, value in sorted(assigns, key=lambda a: getattr(a[1], "lineno", 0)):
        if counts[name] != 1:
            env.pop(name, None)
            continue
        path = _path_value(value, env)
        if path is None:
            env.pop(name, None)
        else:
            env[name] = path
    return env


_OSPATH = r"((os\.)?path\.|osp\.)?"  # os.path.dirname, path.dirname (from os import path), osp.dirname


def _path_value(node: ast.AST, env: dict[str, str]) -> str | None:
    """A path joined from constants, bound names and the script's folder ("" for ``os.path.dirname(__file__)``,
    its ``abspath``, ``Path(__file__).parent``): ``os.path.join``/``Path(...)``, ``/`` and ``+``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return env.get(node.id)
    text = ast.unparse(node)
    if re.fullmatch(rf"{_OSPATH}dirname\({_OSPATH}((abs|real)path\()?__file__\)?\)|(pathlib\.)?Path\(__file__\)"
                    r"(\.(resolve|absolute)\(\))?\.parent", text):
        return ""
    if re.fullmatch(r"os\.(path\.)?curdir|os\.getcwd\(\)|(pathlib\.)?Path\.cwd\(\)", text):
        return "."  # the working folder: a build runs its script in the script's folder
    if isinstance(node, ast.Call):
        func = ast.unparse(node.func)
        if re.fullmatch(rf"{_OSPATH}dirname", func) and len(node.args) == 1 and not node.keywords:
            inner = _path_value(node.args[0], env)  # dirname(os.path.curdir) is "": the working folder; the
            return posixpath.dirname(posixpath.normpath(inner)) if inner else None  # script folder's parent: unknown
        if re.fullmatch(rf"{_OSPATH}(abs|real)path|str|os\.fspath", func) and \
                len(node.args) == 1 and not node.keywords:
            return _path_value(node.args[0], env)
        if func in ("os.path.join", "path.join", "osp.join", "join", "Path", "pathlib.Path", "PurePath") and node.args and \
                not node.keywords:
            parts = [_path_value(a, env) for a in node.args]
            if any(p is None for p in parts):
                return None
            return posixpath.join(*[p for p in parts if p is not None])
    if isinstance(node, ast.JoinedStr):  # f"{root}/src/*.cu"
        out = ""
        for part in node.values:
            if isinstance(part, ast.FormattedValue):
                if part.conversion != -1 or part.format_spec is not None:
                    return None
                value = _path_value(part.value, env)
                if value is None:
                    return None
                out += value
            elif isinstance(part, ast.Constant) and isinstance(part.value, str):
                out += part.value
            else:
                return None
        return out
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format" \
            and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str):
        return _formatted(node.func.value.value, node, env)  # "{}/src/*.cpp".format(ext_src_root)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.Add)):
        left, right = _path_value(node.left, env), _path_value(node.right, env)
        if left is None or right is None:
            return None
        return posixpath.join(left, right) if isinstance(node.op, ast.Div) else left + right
    return None


def _formatted(template: str, call: ast.Call, env: dict[str, str]) -> str | None:
    """``template.format(...)`` when every field is a positional or keyword argument _path_value computes (plain
    fields only: no attribute, index, conversion or format spec)."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    args = [_path_value(a, env) for a in call.args]
    kwargs = {k.arg: _path_value(k.value, env) for k in call.keywords if k.arg}
    out, auto = "", 0
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError:
        return None
    for literal, field, spec, conversion in fields:
        out += literal
        if field is None:
            continue
        if spec or conversion:
            return None
        if field == "":
            value = args[auto] if auto < len(args) else None
            auto += 1
        elif field.isdigit():
            value = args[int(field)] if int(field) < len(args) else None
        else:
            value = kwargs.get(field)
        if value is None:
            return None
        out += value
    return out


_NOT_COMPILED = ("include", "package", "exclude")  # include_dirs=, packages=, package_data=, exclude=


def _translated_strings(tree: ast.Module) -> set[int]:
    """The string nodes only source translators (a call of ``*hipify*``) read: their own arguments, and the values of
    names every read of which is such an argument."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and "hipify" in ast.unparse(node.func).lower():
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                inside.update(id(n) for n in ast.walk(arg))
    if not inside:
        return set()
    read: dict[str, bool] = {}  # name -> every read of it is a translator's argument
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            read[node.id] = read.get(node.id, True) and id(node) in inside
    out = {i for i in inside}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if targets and all(isinstance(t, ast.Name) and read.get(t.id) for t in targets):
                out.update(id(n) for n in ast.walk(node.value))
    return out


def _build_strings(tree: ast.Module) -> list[tuple[str, int]]:
    """The whole-path strings of a build script, not those of include folders, of a path joined from parts, or of a
    folder only a source translator reads (``hipify(project_directory=project_dir, ...)`` rewrites CUDA files into
    new ones, which the build globs; the folder itself is not compiled)."""
    skip = _translated_strings(tree)
    for node in ast.walk(tree):
        named: str | None = None
        value: ast.AST | None = None
        if isinstance(node, ast.keyword) and node.arg:
            named, value = node.arg, node.value
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            named = " ".join(ast.unparse(t) for t in targets)
            value = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "append", "extend", "insert") and "include" in ast.unparse(node.func.value).lower():
            skip.update(id(n) for a in node.args for n in ast.walk(a))
        elif isinstance(node, ast.BinOp) or isinstance(node, ast.Call) and ast.unparse(node.func).endswith("join"):
            parts = [node.left, node.right] if isinstance(node, ast.BinOp) else node.args
            if len(parts) > 1:  # a part of a path ("csrc" in root / "csrc" / "src"), not a whole one
                skip.update(id(a) for a in parts if isinstance(a, ast.Constant))
        if named is not None and value is not None and any(w in named.lower() for w in _NOT_COMPILED):
            skip.update(id(n) for n in ast.walk(value))
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("find_packages"):
            skip.update(id(n) for n in ast.walk(node))
    return [(n.value, n.lineno) for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in skip and 0 < len(n.value) <= 200 and re.fullmatch(r"[\w.*/+-]+", n.value)]


def _loop_derived(loop: ast.For, name: str, item: str) -> bool:
    """Whether ``name`` is the loop's item or a name the loop body binds from it (``name = main.split(os.sep)[-1][
    :-4]``)."""
    if name == item:
        return True
    return any(isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
               and any(isinstance(n, ast.Name) and n.id == item for n in ast.walk(node.value))
               for node in ast.walk(loop))


def _name_parts(node: ast.AST) -> tuple[str, str] | None:
    """A module name written as a constant prefix and one computed name: ``'torch_sparse._' + name`` or
    ``f'torch_sparse._{name}'`` -> ("torch_sparse._", "name")."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(node.left, ast.Constant) \
            and isinstance(node.left.value, str) and isinstance(node.right, ast.Name):
        return node.left.value, node.right.id
    if isinstance(node, ast.JoinedStr) and len(node.values) == 2 and isinstance(node.values[0], ast.Constant) \
            and isinstance(node.values[1], ast.FormattedValue) and isinstance(node.values[1].value, ast.Name) \
            and node.values[1].conversion == -1 and node.values[1].format_spec is None:
        return str(node.values[0].value), node.values[1].value.id
    return None


def _extension_call_name(call: ast.Call) -> ast.AST | None:
    func = ast.unparse(call.func)
    if not func.endswith("Extension") or func.endswith("BuildExtension"):
        return None
    for keyword in call.keywords:
        if keyword.arg == "name":
            return keyword.value
    return call.args[0] if call.args else None


def _extension_call_sources(call: ast.Call) -> ast.AST | None:
    for keyword in call.keywords:
        if keyword.arg == "sources":
            return keyword.value
    return call.args[1] if len(call.args) > 1 else None


def setup_extensions(root: Path, python_paths: list[str], native: list[str]
                     ) -> list[tuple[str, str, int, set[str], str]]:
    """The extensions a ``setup.py`` declares with sources it names exactly: (module name, script, line, the
    sources only that extension is built from, group). A call whose name is a constant and whose sources are a
    list of constant paths (``CUDAExtension("pkg._old", ["csrc/old.cu"])``) is one; a call in a loop over a glob
    whose name is a constant prefix and a name derived from the loop's file (pytorch_sparse: ``for main in
    glob.glob(osp.join(extensions_dir, '*.cpp')): name = main.split(os.sep)[-1][:-4]; ... Extension('torch_sparse._'
    + name, sources, ...)``) is one extension per file, named prefix + the file's stem, built from the file and from
    the paths the loop names with the name filled in (``osp.join(extensions_dir, 'cpu', f'{name}_cpu.cpp')``); those
    extensions share a group (the script and line). Sources the other calls compute are not listed."""
    resolver = SourceResolver(native)
    out: list[tuple[str, str, int, set[str], str]] = []
    for rel, tree, here in _parsed_setup_scripts(root, python_paths):
        loops = [node for node in ast.walk(tree) if isinstance(node, ast.For) and isinstance(node.target, ast.Name)]
        patterns = _glob_patterns(tree)
        for call in (node for node in ast.walk(tree) if isinstance(node, ast.Call)):
            name = _extension_call_name(call)
            if name is None:
                continue
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                sources = _extension_call_sources(call)
                if isinstance(sources, ast.List) and sources.elts and all(
                        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in sources.elts):
                    paths = {p for e in sources.elts for p in resolver.resolve(str(e.value), rel)}  # type: ignore
                    if paths:
                        out.append((name.value, rel, call.lineno, paths, f"{rel}:{call.lineno}"))
                continue
            parts = _name_parts(name)
            if parts is None:
                continue
            prefix, stem_name = parts
            loop = next((lp for lp in loops if any(n is call for n in ast.walk(lp))
                         and isinstance(lp.target, ast.Name) and _loop_derived(lp, stem_name, lp.target.id)), None)
            if loop is None:
                continue
            files = _loop_files(tree, loop, patterns, here, native)
            if not files:
                continue
            env = _path_bindings(tree, {})
            for scope in ast.walk(tree):
                if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(n is loop for n in ast.walk(
                        scope)):
                    env = _path_bindings(scope, env)
            templates = [t for node in ast.walk(loop) if (t := _named_template(node, stem_name, env)) is not None]
            for path in files:
                stem = posixpath.splitext(posixpath.basename(path))[0]
                own = {path} | {full for t in templates
                                if (full := posixpath.normpath(posixpath.join(here, t.replace("*", stem))))
                                in resolver.exists}
                out.append((prefix + stem, rel, call.lineno, own, f"{rel}:{call.lineno}"))
    return out


def _loop_files(tree: ast.Module, loop: ast.For, patterns: list[tuple[str, int]], here: str,
                native: list[str]) -> list[str]:
    """The native sources a loop iterates over: a glob call, or a name bound to one."""
    spans = [(loop.iter.lineno, loop.iter.end_lineno or loop.iter.lineno)]
    if isinstance(loop.iter, ast.Name):
        name = loop.iter.id
        spans = [(node.lineno, node.end_lineno or node.lineno) for node in ast.walk(tree)
                 if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name
                                                         for t in node.targets)]
    out: list[str] = []
    for pattern, line in patterns:
        if "*" not in pattern or not any(first <= line <= last for first, last in spans):
            continue
        full = posixpath.normpath(posixpath.join(here, pattern))
        out += [p for p in native if p.endswith(_NATIVE_SOURCE) and _glob_match(p, full) and p not in out]
    return out


def _named_template(node: ast.AST, name: str, env: dict[str, str]) -> str | None:
    """``osp.join(d, 'cpu', f'{name}_cpu.cpp')`` -> ``d/cpu/*_cpu.cpp`` when the only part computed out of sight
    is ``name``."""
    fstring = node.args[-1] if isinstance(node, ast.Call) and node.args else node
    if not isinstance(fstring, ast.JoinedStr):
        return None
    holes = [v.value for v in fstring.values if isinstance(v, ast.FormattedValue)]
    if sum(1 for h in holes if isinstance(h, ast.Name) and h.id == name) != 1 or any(
            not (isinstance(h, ast.Name) and (h.id == name or h.id in env)) for h in holes):
        return None
    template = _source_template(node, env)
    return template if template is not None and template.count("*") == 1 else None


_WORD = re.compile(r"[A-Za-z_]\w*")


def unloaded_extension_sources(root: Path, python_paths: list[str], native: list[str]
                               ) -> dict[str, tuple[str, int]]:
    """Sources built only into ``setup.py`` extensions nothing loads: path -> (why, confidence): 60 for a private
    module name (``torch_sparse._degree_padding``), 40 for a public one, which users may import. An extension is
    loaded when a Python file other than the setup scripts has its module name's last part as a word (``import pkg._C``,
    ``from . import _C``, ``torch.ops.load_library(... '_padding' ...)``) or an f-string with a constant part that
    can give it; the distribution's sole API is loaded by its users. Of extensions built one per globbed file,
    only those whose siblings are loaded by their names can be unloaded (pytorch_sparse ``631df92^``: ``_padding``,
    ``_convert``... in the ``torch.ops.load_library`` list, ``_degree_padding`` in none): siblings loaded by a
    computed name say nothing. A source another extension (or another build) also compiles is not listed here."""
    extensions = setup_extensions(root, python_paths, native)
    if not extensions:
        return {}
    scripts = set(setup_scripts(root, python_paths))
    words: set[str] = set()
    fpatterns: list[re.Pattern] = []
    for rel in python_paths:
        if rel in scripts:
            continue
        try:
            text = (root / rel).read_text(errors="replace")
        except OSError:
            continue
        words.update(_WORD.findall(text))
        if "{" in text:
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError):
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.JoinedStr):
                    literal = "".join(str(v.value) for v in node.values if isinstance(v, ast.Constant))
                    if len(literal.strip(". /")) >= 2:
                        fpatterns.append(re.compile("".join(
                            re.escape(str(v.value)) if isinstance(v, ast.Constant) else ".*" for v in node.values)))
    sole = sole_api_extensions(root, python_paths)

    def loaded(module: str) -> bool:
        last = module.rsplit(".", 1)[-1]
        return module in sole or last in words or any(p.fullmatch(module) or p.fullmatch(last) for p in fpatterns)

    groups: dict[str, list[bool]] = {}
    for module, _rel, _line, _paths, group in extensions:
        groups.setdefault(group, []).append(loaded(module))
    builders: dict[str, int] = {}
    for _module, _rel, _line, paths, _group in extensions:
        for path in paths:
            builders[path] = builders.get(path, 0) + 1
    out: dict[str, tuple[str, int]] = {}
    for module, rel, line, paths, group in extensions:
        states = groups[group]
        if loaded(module) or (len(states) > 1 and not any(states)):
            continue
        private = module.rsplit(".", 1)[-1].startswith("_")
        why = f"built only into the extension {module} ({rel}:{line}), which no Python code imports or names"
        if not private:  # apex's scaled_masked_softmax_cuda: imported by Megatron-LM, outside the tree
            why += "; its name is public: code outside the tree may import it"
        for path in sorted(paths):
            if builders[path] == 1:
                out[path] = (why, 60 if private else 40)
    return out


def _parsed_setup_scripts(root: Path, python_paths):
    """(path, syntax tree, folder) of each setup script that parses."""
    for rel in setup_scripts(root, python_paths):
        try:
            tree = ast.parse((root / rel).read_bytes())
        except (OSError, SyntaxError, ValueError):
            continue
        yield rel, tree, posixpath.dirname(rel)
