"""unifdef 2.10's line reader and comment/string lexer, translated line by line (``kernels.pyunifdef`` runs the
rest: the expression evaluator, the state table and the edits)."""

from __future__ import annotations

import re

# Comment lexer states and line states.
NO_COMMENT, C_COMMENT, CXX_COMMENT, STARTING_COMMENT, FINISHING_COMMENT, CHAR_LITERAL, STRING_LITERAL = range(7)
LS_START, LS_HASH, LS_DIRTY = range(3)

_SYMCHARS = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
# Runs of bytes that change no lexer state: skipped in one step (the rest goes byte by byte, as in C).
_RUN = {NO_COMMENT: re.compile(rb"[^\\/'\"\n]+"), CXX_COMMENT: re.compile(rb"[^\\\n]+"),
        C_COMMENT: re.compile(rb"[^*\\]+"), CHAR_LITERAL: re.compile(rb"[^\\'\"\n]+"),
        STRING_LITERAL: re.compile(rb"[^\\'\"\n]+")}
_SPACES = re.compile(rb"[ \r\t]+")


class UnifdefExit(Exception):
    def __init__(self, message: bytes = b""):
        self.message = message


def endsym(c: int) -> bool:
    return c not in _SYMCHARS


class Lexer:
    """The reading and lexing state of one run (set by ``pyunifdef._Unifdef``) and the functions that move it."""

    data: bytes
    pos: int
    symbols: dict[bytes, bytes | None]
    tline: bytes
    incomment: int
    linestate: int
    depth: int
    linenum: int
    stifline: list[int]

    # -- reading -------------------------------------------------------------------------------------------
    def fgets(self, size: int) -> bytes | None:
        if size <= 0:
            return None
        if size == 1:
            return b""
        if self.pos >= len(self.data):
            return None
        end = self.data.find(b"\n", self.pos, self.pos + size - 1)
        end = min(self.pos + size - 1, len(self.data)) if end < 0 else end + 1
        chunk, self.pos = self.data[self.pos:end], end
        return chunk.split(b"\0", 1)[0]  # the rest of a line after a NUL byte is lost, as in C

    def at(self, i: int) -> int:
        return self.tline[i] if i < len(self.tline) else 0

    def error(self, msg: str) -> None:
        where = f"[stdin]: {self.linenum}: {msg}"
        if self.depth:
            where += f" (#if line {self.stifline[self.depth]} depth {self.depth})"
        raise UnifdefExit(f"unifdef: {where}\nunifdef: output may be truncated\n".encode())

    # -- lexing --------------------------------------------------------------------------------------------
    def skipcomment(self, cp: int, stop: bool = True) -> int:
        """Skip spaces, comments and literals; stop at the next other byte (``stop``) or at the line's end."""
        t, n = self.tline, len(self.tline)
        while cp < n:
            if t.startswith(b"\\\r\n", cp):
                cp += 3
                continue
            if t.startswith(b"\\\n", cp):
                cp += 2
                continue
            state, c = self.incomment, t[cp]
            if state == NO_COMMENT:
                if t.startswith(b"/\\\r\n", cp):
                    self.incomment, cp = STARTING_COMMENT, cp + 4
                elif t.startswith(b"/\\\n", cp):
                    self.incomment, cp = STARTING_COMMENT, cp + 3
                elif t.startswith(b"/*", cp):
                    self.incomment, cp = C_COMMENT, cp + 2
                elif t.startswith(b"//", cp):
                    self.incomment, cp = CXX_COMMENT, cp + 2
                elif c == 0x27:  # '
                    self.incomment, self.linestate, cp = CHAR_LITERAL, LS_DIRTY, cp + 1
                elif c == 0x22:  # "
                    self.incomment, self.linestate, cp = STRING_LITERAL, LS_DIRTY, cp + 1
                elif c == 0x0A:
                    self.linestate, cp = LS_START, cp + 1
                elif c in b" \r\t":
                    spaces = _SPACES.match(t, cp)
                    assert spaces is not None  # c is one
                    cp = spaces.end()
                elif stop:
                    return cp
                else:  # skipline: every other byte is skipped
                    cp = m.end() if (m := _RUN[state].match(t, cp)) else cp + 1
            elif state == CXX_COMMENT:
                if c == 0x0A:
                    self.incomment, self.linestate = NO_COMMENT, LS_START
                    cp += 1
                else:
                    cp = m.end() if (m := _RUN[state].match(t, cp)) else cp + 1
            elif state in (CHAR_LITERAL, STRING_LITERAL):
                if (state == CHAR_LITERAL and c == 0x27) or (state == STRING_LITERAL and c == 0x22):
                    self.incomment, cp = NO_COMMENT, cp + 1
                elif c == 0x5C:  # backslash
                    cp += 1 if cp + 1 >= n else 2
                elif c == 0x0A:
                    self.error(f"unterminated {'char' if state == CHAR_LITERAL else 'string'} literal")
                else:
                    cp = m.end() if (m := _RUN[state].match(t, cp)) else cp + 1
            elif state == C_COMMENT:
                if t.startswith(b"*\\\r\n", cp):
                    self.incomment, cp = FINISHING_COMMENT, cp + 4
                elif t.startswith(b"*\\\n", cp):
                    self.incomment, cp = FINISHING_COMMENT, cp + 3
                elif t.startswith(b"*/", cp):
                    self.incomment, cp = NO_COMMENT, cp + 2
                else:
                    cp = m.end() if (m := _RUN[state].match(t, cp)) else cp + 1
            elif state == STARTING_COMMENT:
                if c == 0x2A:  # *
                    self.incomment, cp = C_COMMENT, cp + 1
                elif c == 0x2F:  # /
                    self.incomment, cp = CXX_COMMENT, cp + 1
                else:
                    self.incomment, self.linestate = NO_COMMENT, LS_DIRTY
            else:  # FINISHING_COMMENT
                if c == 0x2F:
                    self.incomment, cp = NO_COMMENT, cp + 1
                else:
                    self.incomment = C_COMMENT
        return cp

    def skipline(self, cp: int) -> int:
        if self.at(cp):
            self.linestate = LS_DIRTY
            cp = self.skipcomment(cp + 1, stop=False)
        return cp

    def skipsym(self, cp: int) -> int:
        while not endsym(self.at(cp)):
            cp += 1
        return cp

    def matchsym(self, word: bytes, cp: int) -> int | None:
        if self.tline.startswith(word, cp) and endsym(self.at(cp + len(word))):
            return cp + len(word)
        return None

    def findsym(self, cp: int) -> tuple[bytes | None, int]:
        """The symbol at ``cp`` if the table has it (else None), and the index after the identifier."""
        end = self.skipsym(cp)
        name = self.tline[cp:end]
        return (name if name in self.symbols else None), end

    def skipargs(self, cp: int) -> int:
        start, cp, level = cp, self.skipcomment(cp), 0
        if self.at(cp) != 0x28:
            return cp
        while True:
            c = self.at(cp)
            level += (c == 0x28) - (c == 0x29)
            cp = self.skipcomment(cp + 1)
            if level == 0 or self.at(cp) == 0:
                break
        return cp if level == 0 else start

    # -- expressions: each returns (linetype, value, index); the index is None on a parse error ------------
