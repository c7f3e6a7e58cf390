"""Fold preprocessor facts into CUDA/C++ sources with ``unifdef``, checked like every rewrite.

unifdef is the binary when one is found ($SLIMFORK_UNIFDEF, else on PATH), else slimfork's Python port of it
(``pyunifdef``, byte-for-byte the same output), so nothing outside Python is needed.

Per file: unifdef removes the conditionals the facts decide; ``cexpr`` then drops the known terms of the
partly known ``#if`` lines unifdef passes through. The result is accepted only if every line that changed
is a conditional directive (untouched bytes stay identical), and a second pass changes nothing. A file
unifdef calls malformed (exit status 2), a file that ``#define``s or ``#undef``s a fact macro, and a
result that fails a check are left exactly as they were and reported.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from slimfork.errors import SlimforkError
from slimfork.fsutil import write_atomic
from slimfork.kernels import pyunifdef
from slimfork.kernels.cexpr import mentions, reduce_directive
from slimfork.kernels.spec import PreprocessorFacts

FOLDED_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".cpp", ".c")
_CONDITIONAL = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b")


@dataclass(frozen=True)
class FileFold:
    """What folding did to one file. ``status``: "folded", "unchanged", or why it was left alone:
    "malformed" (unifdef exit 2), "redefines-fact", "unsafe" (a non-directive line changed), "unstable"
    (a second pass changed it again), "symlink", "unreadable"."""

    path: str
    status: str
    directives_folded: int = 0  # conditional directive lines removed or rewritten
    lines_removed: int = 0
    expressions_reduced: int = 0  # partly known #if/#elif lines whose known terms were dropped
    remaining: tuple[str, ...] = ()  # "LINE: text" of conditionals that still test a fact macro
    message: str = ""

    @property
    def left_alone(self) -> bool:
        return self.status not in ("folded", "unchanged")


@dataclass
class KernelFoldReport:
    facts: PreprocessorFacts
    files: list[FileFold] = field(default_factory=list)
    unifdef_version: str = ""
    engine: str = ""  # "binary" or "python"
    engine_path: str = ""  # the binary's path ("" for the Python port)

    def folded(self) -> list[FileFold]:
        return [f for f in self.files if f.status == "folded"]

    def left_alone(self) -> list[FileFold]:
        return [f for f in self.files if f.left_alone]

    @property
    def lines_removed(self) -> int:
        return sum(f.lines_removed for f in self.files)

    @property
    def directives_folded(self) -> int:
        return sum(f.directives_folded for f in self.files)

    def to_dict(self) -> dict:
        return {"unifdef": self.unifdef_version, "engine": self.engine, "engine_path": self.engine_path,
                "args": self.facts.unifdef_args(),
                "files_folded": len(self.folded()), "directives_folded": self.directives_folded,
                "lines_removed": self.lines_removed,
                "files": [asdict(f) for f in self.files if f.status != "unchanged"]}


@dataclass(frozen=True)
class Engine:
    """What runs unifdef: the binary at ``path``, or (``path`` empty) slimfork's Python port."""

    path: str = ""
    version: str = pyunifdef.VERSION

    @property
    def name(self) -> str:
        return "binary" if self.path else "python"

    def describe(self) -> str:
        return f"{self.version} ({self.path})" if self.path else f"{self.version} (slimfork's Python port; no binary)"

    def run(self, args: list[str], data: bytes) -> tuple[int, bytes, bytes]:
        """``unifdef ARGS -`` on ``data``: (exit status, stdout, stderr)."""
        if not self.path:
            return pyunifdef.run([*args, "-"], data)
        proc = subprocess.run([self.path, *args, "-"], input=data, capture_output=True)
        return proc.returncode, proc.stdout, proc.stderr


PYTHON_ENGINE = Engine()


def find_engine(facts: PreprocessorFacts | None = None) -> Engine:
    """$SLIMFORK_UNIFDEF (a path, or ``python`` for the port), else ``unifdef`` on PATH, else the Python port.

    (The PyPI wheel ``pup-unifdef`` is not used: its binary aborts on every input, see ``pyunifdef``.)"""
    chosen = os.environ.get("SLIMFORK_UNIFDEF", "")
    if chosen == "python":
        return PYTHON_ENGINE
    candidate = chosen or shutil.which("unifdef")
    if not candidate:
        return PYTHON_ENGINE
    if os.access(candidate, os.X_OK) and Path(candidate).is_file():
        return Engine(candidate, unifdef_version(candidate))
    raise SlimforkError(f"SLIMFORK_UNIFDEF names '{chosen}', which is not an executable file",
                        key=facts.key if facts else "facts.preprocessor",
                        hint="set SLIMFORK_UNIFDEF to the unifdef binary's path ('apt-get install unifdef', "
                             "'brew install unifdef'), or unset it to use slimfork's built-in Python unifdef")


def unifdef_version(tool: str) -> str:
    proc = subprocess.run([tool, "-V"], capture_output=True, text=True)
    match = re.search(r"unifdef-[0-9.]+", proc.stdout + proc.stderr)
    return match.group(0) if match else "unifdef"


def fold_text(data: bytes, facts: PreprocessorFacts, tool: Engine, path: str = "-") -> tuple[bytes, FileFold]:
    """Fold ``data`` (a file's bytes); returns the new bytes (the old ones when left alone) and the record."""
    names = facts.known()
    text = data.decode("latin-1")  # byte-for-byte round trip whatever the encoding
    if not mentions(text, names):
        return data, FileFold(path, "unchanged")
    first, error, reduced = _one_pass(data, facts, tool, path)
    if error is not None:
        return data, FileFold(path, "malformed", message=error)
    # A #define or #undef of a fact macro that survives folding means the file itself may change the value
    # the facts fixed (one inside a branch the facts remove never happens on the target platform).
    redefined = sorted({m.group(2) for m in re.finditer(r"(?m)^[ \t]*#[ \t]*(define|undef)[ \t]+(\w+)",
                                                          first.decode("latin-1")) if m.group(2) in names})
    if redefined:
        return data, FileFold(path, "redefines-fact", message=f"the file #defines or #undefs "
                              f"{', '.join(redefined)}; folding it with a fixed value could be wrong")
    second, error, _ = _one_pass(first, facts, tool, path)
    if error is not None or second != first:
        return data, FileFold(path, "unstable", message=error or "a second pass changed the file again")
    old_lines = text.splitlines(keepends=True)
    new_lines = first.decode("latin-1").splitlines(keepends=True)
    folded, problem = _check_only_directives_changed(old_lines, new_lines)
    if problem:
        return data, FileFold(path, "unsafe", message=problem)
    remaining = tuple(f"{i + 1}: {new_lines[i].rstrip()}" for i in directive_lines(new_lines)
                      if mentions(condition_text(new_lines[i]), names))
    status = "folded" if first != data else "unchanged"
    return first, FileFold(path, status, directives_folded=folded, lines_removed=len(old_lines) - len(new_lines),
                           expressions_reduced=reduced if status == "folded" else 0, remaining=remaining)


def fold_kernel_sources(root: Path, rel_paths: list[str], facts: PreprocessorFacts,
                        jobs: int | None = None, engine: Engine | None = None) -> KernelFoldReport:
    """Fold ``facts`` into the files ``rel_paths`` (relative to ``root``) in place; ``root`` is a scratch copy.

    Only files with a suffix in FOLDED_SUFFIXES are touched (``.hip`` and assembly are not C for this
    purpose); the others are ignored. ``engine`` defaults to ``find_engine()``.
    """
    report = KernelFoldReport(facts=facts)
    if not facts:
        return report
    tool = engine or find_engine(facts)
    report.unifdef_version, report.engine, report.engine_path = tool.version, tool.name, tool.path
    paths = sorted(p for p in set(rel_paths) if p.endswith(FOLDED_SUFFIXES))
    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 2) as pool:
        report.files = list(pool.map(lambda rel: _fold_file(Path(root), rel, facts, tool), paths))
    return report


def _fold_file(root: Path, rel: str, facts: PreprocessorFacts, tool: Engine) -> FileFold:
    path = root / rel
    if path.is_symlink():
        return FileFold(rel, "symlink", message="a symbolic link: its target is folded if listed itself")
    try:
        data = path.read_bytes()
        mode = path.stat().st_mode & 0o7777
    except OSError as exc:
        return FileFold(rel, "unreadable", message=str(exc))
    new, record = fold_text(data, facts, tool, rel)
    if new != data:
        write_atomic(path, new, mode=mode)
    return record


def _one_pass(data: bytes, facts: PreprocessorFacts, tool: Engine, path: str) -> tuple[bytes, str | None, int]:
    returncode, stdout, stderr = tool.run(facts.unifdef_args(), data)
    if returncode not in (0, 1):
        message = stderr.decode("utf-8", "replace").strip().replace("[stdin]", path)
        return data, message or f"unifdef exited with status {returncode}", 0
    lines = stdout.decode("latin-1").splitlines(keepends=True)
    reduced = 0
    for i in directive_lines(lines):
        if mentions(lines[i], facts.known()) and (new := reduce_directive(lines[i], facts)) is not None:
            lines[i], reduced = new, reduced + 1
    return "".join(lines).encode("latin-1"), None, reduced


def _check_only_directives_changed(old: list[str], new: list[str]) -> tuple[int, str]:
    """Count the conditional directives removed or rewritten; report any other line that changed."""
    folded = 0
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            continue
        folded += sum(1 for line in old[a0:a1] if _CONDITIONAL.match(line))
        for line in new[b0:b1]:
            if not _CONDITIONAL.match(line):
                return folded, f"a line that is not a conditional directive changed: {line.rstrip()!r}"
    return folded, ""


def condition_text(line: str) -> str:
    """The controlling expression of a conditional directive line, without comments ("" for other lines)."""
    match = re.match(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif)\b(.*)$", line.rstrip("\r\n"))
    if not match:
        return ""
    expr = match.group(2)
    cut = min((i for i in (expr.find("//"), expr.find("/*")) if i >= 0), default=len(expr))
    return expr[:cut]


def directive_lines(lines: list[str]) -> list[int]:
    """Indices of the lines that are real preprocessor directives: not inside a block comment, a string,
    or the continuation of the previous line."""
    found: list[int] = []
    in_comment = continued = False
    for index, line in enumerate(lines):
        body = line.rstrip("\r\n")
        if not in_comment and not continued and body.lstrip(" \t").startswith("#"):
            found.append(index)
        in_comment = _scan(body, in_comment)
        continued = body.endswith("\\")
    return found


def _scan(body: str, in_comment: bool) -> bool:
    """Whether a block comment is still open at the end of ``body``."""
    i, n = 0, len(body)
    while i < n:
        if in_comment:
            end = body.find("*/", i)
            if end < 0:
                return True
            in_comment, i = False, end + 2
            continue
        ch = body[i]
        if body.startswith("//", i):
            return False
        if body.startswith("/*", i):
            in_comment, i = True, i + 2
            continue
        if ch in "\"'":
            i += 1
            while i < n and body[i] != ch:
                i += 2 if body[i] == "\\" else 1
        i += 1
    return in_comment
