"""Checks every rewritten file must pass before it is written (a failing file is left unmodified).

The edit compiles; the bytes around the edits keep their form (BOM, PEP 263 coding line, line endings,
indentation characters, final newline); every comment of the original is still there or was inside code the
fold deleted; the fold did not make a name undefined (pyflakes: a name bound only in a deleted branch and
used after it, pitfall 20). Stability (a second run changes nothing) is checked by the caller, which owns
the fold.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections import Counter

from slimfork.index.parse import parse_python

_BOM = b"\xef\xbb\xbf"
_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
_NEWLINES = re.compile(rb"\r\n|\r|\n")


def check_rewrite(old: bytes, new: bytes, dropped: Counter[str], path: str = "<file>",
                  undefined: tuple[set[str] | None, set[str] | None] | None = None) -> list[str]:
    """Problems with replacing ``old`` by ``new`` (empty: safe). ``undefined`` may pass the undefined names
    of both, already computed."""
    problems: list[str] = []
    text = _decode(new)
    if text is None:
        return ["the rewritten file cannot be decoded"]
    try:
        compile(text, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        return [does_not_compile(_decode(old) or "", text, exc)]
    if old.startswith(_BOM) != new.startswith(_BOM):
        problems.append("byte order mark added or dropped")
    old_lines, new_lines = old.splitlines(keepends=True), new.splitlines(keepends=True)
    for i in range(2):
        old_cookie = i < len(old_lines) and _CODING.match(old_lines[i])
        if old_cookie and (i >= len(new_lines) or new_lines[i] != old_lines[i]):
            problems.append("encoding declaration changed or moved")
    old_endings, new_endings = Counter(_NEWLINES.findall(old)), Counter(_NEWLINES.findall(new))
    if set(new_endings) - set(old_endings):
        problems.append(f"new line endings introduced: {sorted(set(new_endings) - set(old_endings))}")
    if old and new and old.endswith((b"\n", b"\r")) != new.endswith((b"\n", b"\r")):
        problems.append("final newline added or dropped")
    old_indent, new_indent = _indent_chars(old_lines), _indent_chars(new_lines)
    if new_indent - old_indent:
        problems.append("indentation characters changed (tabs/spaces)")
    old_comments, new_comments = _comments(old), _comments(new)
    if old_comments is not None and new_comments is not None:
        lost = old_comments - new_comments - dropped
        if lost:
            problems.append(f"comments lost outside deleted code: {sorted(lost)[:3]}")
    before, after = undefined or (undefined_names(_decode(old) or "", path), undefined_names(text, path))
    if before is not None and after is not None:
        problems += [f"the fold leaves '{name}' undefined (bound only in deleted code)"
                     for name in sorted(after - before)]
    return problems


def does_not_compile(old: str, new: str, exc: Exception) -> str:
    """Why a rewrite is refused when it does not compile, at the line of the original the error is in (the
    rewrite's own line numbers mean nothing to a reader of the source)."""
    line = getattr(exc, "lineno", None)
    message = getattr(exc, "msg", None) or str(exc)
    if not line:
        return f"the rewritten file does not compile: {message}"
    new_lines = new.splitlines()
    wrong = new_lines[line - 1].strip() if 0 < line <= len(new_lines) else ""
    original = _original_line(old.splitlines(), new_lines, line)
    return (f"the rewritten file does not compile ({message}) in the rewrite of line {original}"
            + (f": `{wrong}`" if wrong else ""))


def _original_line(old_lines: list[str], new_lines: list[str], line: int) -> int:
    """The line of ``old_lines`` that line ``line`` (1-based) of ``new_lines`` comes from (or replaces)."""
    import difflib

    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes():
        if j1 <= line - 1 < j2:
            return i1 + min(line - 1 - j1, max(i2 - i1 - 1, 0)) + 1
    return line


def _decode(data: bytes) -> str | None:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        return None
    return text[1:] if text.startswith("\ufeff") else text


def _indent_chars(lines: list[bytes]) -> set[int]:
    out: set[int] = set()
    for line in lines:
        stripped = line.lstrip(b" \t")
        if stripped.strip():
            out.update(line[: len(line) - len(stripped)])
    return out


def _comments(data: bytes) -> Counter[str] | None:
    try:
        tokens = tokenize.tokenize(io.BytesIO(data).readline)
        return Counter(tok.string.strip() for tok in tokens if tok.type == tokenize.COMMENT)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None


def undefined_names(text: str, path: str = "<file>") -> set[str] | None:
    """Names pyflakes reports as undefined (None when the text does not parse)."""
    from pyflakes import checker, messages

    try:
        tree = parse_python(text, path)
    except (SyntaxError, ValueError):
        return None
    found = checker.Checker(tree, filename=path)
    return {m.message_args[0] for m in found.messages if isinstance(m, messages.UndefinedName)}
