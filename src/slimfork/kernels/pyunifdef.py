"""A pure-Python port of the part of unifdef 2.10 that slimfork runs: ``unifdef -Dsym[=val]... -Usym... -``.

Used when no ``unifdef`` binary is found, so ``[facts.preprocessor]`` needs nothing but Python. (The only PyPI
wheel that ships the binary, ``pup-unifdef`` 2.12.post1, is unusable: its static zig/UBSan build aborts on every
input with "panic: applying non-zero offset 1 to null pointer".)

This is a line-by-line translation of unifdef.c 2.10 (Tony Finch, BSD-2-Clause; https://dotat.at/prog/unifdef),
not a reimplementation: the same line reader (4096-byte ``fgets`` chunks, C-string truncation at a NUL byte),
the same comment/string lexer and its quirks, the same expression evaluator (``defined``, ``!``, ``<`` ...
``==``, ``&&``, ``||``, parentheses, ``strtol`` numbers; anything else makes the line unknown), the same state
table, the same edits (``#elif`` to ``#if``/``#else``/``#endif``), messages and exit status (0 unchanged,
1 lines removed, 2 error). tests/kernels/test_pyunifdef.py compares it with the binary byte for byte.
Options other than -D, -U and the input ``-`` (-i, -b, -B, -c, -k, -K, -e, -t, -n, -s, ...) are not supported.
``cexpr`` is not reused here: unifdef's evaluator drives its comment lexer as it reads, and its output depends on it.
"""

from __future__ import annotations

from slimfork.kernels.unifdef_lex import LS_DIRTY, LS_HASH, LS_START, NO_COMMENT, Lexer, UnifdefExit, endsym

MAXLINE = 4096  # unifdef's line buffer: fgets reads at most MAXLINE - 1 bytes
MAXDEPTH = 64

# Line types (unifdef's Linetype); a dodgy directive (spread over lines) is its type + DODGY.
TRUEI, FALSEI, IF, TRUE, FALSE, ELIF, ELTRUE, ELFALSE, ELSE, ENDIF = range(10)
DODGY, PLAIN, EOF = 10, 20, 21
# #if states (Ifstate).
(OUTSIDE, FALSE_PREFIX, TRUE_PREFIX, PASS_MIDDLE, FALSE_MIDDLE, TRUE_MIDDLE, PASS_ELSE, FALSE_ELSE, TRUE_ELSE,
 FALSE_TRAILER) = range(10)

_DIGITS = frozenset(b"0123456789")
_HEX = frozenset(b"0123456789abcdefABCDEF")
_OCT = frozenset(b"01234567")
_LONG_MIN, _LONG_MAX = -(2 ** 63), 2 ** 63 - 1
_OPS = ((b"||",), (b"&&",), (b"==", b"!="), (b"<=", b">=", b"<", b">"))
_USAGE = (b"usage:\tunifdef [-bBcdehKkmnsStV] [-x{012}] [-Mext] [-opath] \\\n"
          b"\t\t[-[i]Dsym[=val]] [-[i]Usym] [-fpath] ... [file] ...\n")
VERSION = "unifdef-2.10"


def strtol(s: bytes, i: int = 0) -> tuple[int, int]:
    """C's ``strtol(s + i, &end, 0)`` on a 64-bit long: (value, end index); end == i when nothing converts."""
    n, j = len(s), i
    while j < n and s[j] in b" \t\n\v\f\r":
        j += 1
    negative = j < n and s[j] == ord("-")
    if j < n and s[j] in b"+-":
        j += 1
    digits, base = _DIGITS, 10
    if s.startswith((b"0x", b"0X"), j) and j + 2 < n and s[j + 2] in _HEX:
        digits, base, j = _HEX, 16, j + 2
    elif j < n and s[j] == ord("0"):
        digits, base = _OCT, 8
    k = j
    while k < n and s[k] in digits:
        k += 1
    if k == j:
        return 0, i
    value = int(s[j:k], base) * (-1 if negative else 1)
    return max(_LONG_MIN, min(_LONG_MAX, value)), k


def parse_args(args: list[str]) -> dict[bytes, bytes | None]:
    """The symbol table from -Dsym[=val] and -Usym (later options replace earlier ones), with unifdef's
    indirect values resolved (-DA=B -DB=1 gives A the value 1)."""
    symbols: dict[bytes, bytes | None] = {}
    for arg in args:
        if arg == "-":
            continue
        if not arg.startswith(("-D", "-U")) or len(arg) == 2:
            raise ValueError(f"pyunifdef supports only -Dsym[=val], -Usym and '-', not {arg!r}")
        define, symval = arg[1] == "D", arg[2:].encode("latin-1")
        end = 0
        while end < len(symval) and not endsym(symval[end]):
            end += 1
        if define and symval[end:end + 1] == b"=":
            symbols[symval[:end]] = symval[end + 1:]
        elif end == len(symval):
            symbols[symval] = b"1" if define else None
        else:
            raise UnifdefExit(_USAGE)
    changed = True
    while changed:  # indirectsym()
        changed = False
        for name, value in symbols.items():
            if value is None or value not in symbols or value == name:
                continue
            target = symbols[value]
            if target is None or target == value:
                continue
            symbols[name], changed = target, True
    return symbols


class _Unifdef(Lexer):
    def __init__(self, data: bytes, symbols: dict[bytes, bytes | None]):
        self.data, self.pos = data, 0
        self.symbols = symbols
        self.out: list[bytes] = []
        self.tline = b""
        self.keyword = 0
        self.newline: bytes | None = None
        self.incomment = NO_COMMENT
        self.linestate = LS_START
        self.ifstate = [OUTSIDE] * MAXDEPTH
        self.stifline = [0] * MAXDEPTH
        self.depth = self.linenum = self.exitstat = 0
        self.constexpr = False
        self.table = self._table()

    def eval_unary(self, cp: int) -> tuple[int, int, int | None]:
        cp = self.skipcomment(cp)
        c, value = self.at(cp), 0
        if c == 0x21:  # !
            lt, value, after = self.eval_unary(cp + 1)
            if after is None:
                return IF, 0, None
            cp = after
            if lt != IF:
                value = int(value == 0)
                lt = TRUE if value else FALSE
        elif c == 0x28:  # (
            lt, value, after = self.eval_table(0, cp + 1)
            if after is None:
                return IF, 0, None
            cp = after
            cp = self.skipcomment(cp)
            if self.at(cp) != 0x29:
                return IF, 0, None
            cp += 1
        elif c in _DIGITS:
            value, cp = strtol(self.tline, cp)
            lt = TRUE if value else FALSE
        elif self.matchsym(b"defined", cp) is not None:
            cp = self.skipcomment(cp + 7)
            paren = self.at(cp) == 0x28
            if paren:
                cp = self.skipcomment(cp + 1)
            name, cp = self.findsym(cp)
            cp = self.skipcomment(cp)
            if paren:
                if self.at(cp) != 0x29:
                    return IF, 0, None
                cp += 1
            if name is None:
                lt = IF
            else:
                value = int(self.symbols[name] is not None)
                lt = TRUE if value else FALSE
            self.constexpr = False
        elif not endsym(c):
            name, cp = self.findsym(cp)
            if name is None:
                lt, cp = IF, self.skipargs(cp)
            elif self.symbols[name] is None:
                lt = FALSE
            else:
                text = self.symbols[name]
                assert text is not None  # the branch above
                value, end = strtol(text)
                if end != len(text) or end == 0:
                    return IF, 0, None
                lt, cp = (TRUE if value else FALSE), self.skipargs(cp)
            self.constexpr = False
        else:
            return IF, 0, None
        return lt, value, cp

    def eval_table(self, level: int, cp: int) -> tuple[int, int, int | None]:
        inner = self.eval_unary if level == 3 else (lambda at: self.eval_table(level + 1, at))
        lt, value, after = inner(cp)
        if after is None:
            return lt, value, None
        cp = after
        while True:
            cp = self.skipcomment(cp)
            op = next((op for op in _OPS[level] if self.tline.startswith(op, cp)), None)
            if op is None:
                return lt, value, cp
            rt, right, after = inner(cp + len(op))
            if after is None:
                return rt, right, None
            cp = after
            lt, value = _apply(op, lt, value, rt, right)

    def ifeval(self, cp: int) -> tuple[int, int]:
        self.constexpr = True
        lt, _, end = self.eval_table(0, cp)
        if end is None:
            return IF, cp
        return (IF if self.constexpr else lt), end

    # -- lines -----------------------------------------------------------------------------------------------
    def skiphash(self) -> int | None:
        self.linenum += 1
        line = self.fgets(MAXLINE)
        if line is None:
            return None
        self.tline = line
        cp = self.skipcomment(0)
        if self.linestate == LS_START and self.at(cp) == 0x23:  # #
            self.linestate = LS_HASH
            return self.skipcomment(cp + 1)
        if self.at(cp) == 0:
            return cp
        return self.skipline(cp)

    def parseline(self) -> int:
        wascomment = self.incomment
        cp = self.skiphash()
        if cp is None:
            return EOF
        if self.newline is None:
            t = self.tline
            self.newline = b"\r\n" if t.rfind(b"\n") >= 0 and t.rfind(b"\n") == t.rfind(b"\r") + 1 \
                and t.rfind(b"\r") >= 0 else b"\n"
        if self.at(cp) == 0:
            return PLAIN
        self.keyword = cp
        if (after := self.matchsym(b"ifdef", cp)) is not None or (after := self.matchsym(b"ifndef", cp)) is not None:
            cp = self.skipcomment(after)
            name, cp = self.findsym(cp)
            if name is None:
                retval = IF
            else:
                retval = FALSE if self.tline[self.keyword + 2] == ord("n") else TRUE
                if self.symbols[name] is None:
                    retval = FALSE if retval == TRUE else TRUE
        elif (after := self.matchsym(b"if", cp)) is not None:
            retval, cp = self.ifeval(after)
        elif (after := self.matchsym(b"elif", cp)) is not None:
            retval, cp = self.ifeval(after)
            retval = retval - IF + ELIF
        elif (after := self.matchsym(b"else", cp)) is not None:
            retval, cp = ELSE, after
        elif (after := self.matchsym(b"endif", cp)) is not None:
            retval, cp = ENDIF, after
        else:
            cp = self.skipsym(cp)
            if self.tline.startswith((b"\\\r\n", b"\\\n"), cp):  # a continuation inside a keyword
                self.error("Obfuscated preprocessor control line")
            self.skipline(cp)
            return PLAIN
        cp = self.skipcomment(cp)
        if self.at(cp) != 0:
            cp = self.skipline(cp)
            if retval in (TRUE, FALSE, TRUEI, FALSEI):
                retval = IF
            if retval in (ELTRUE, ELFALSE):
                retval = ELIF
        if self.linestate == LS_HASH:  # the line has no newline yet: the last line, or a comment spans lines
            self.tline = self.tline[:cp]
            more = self.fgets(MAXLINE - cp)
            if more is None:
                self.tline += self.newline
                self.linestate = LS_START
            else:
                self.tline += more
                self.linestate = LS_DIRTY
        if retval != PLAIN and (wascomment or self.linestate != LS_START):
            retval += DODGY
            self.linestate = LS_DIRTY
        return retval

    # -- the state machine -----------------------------------------------------------------------------------
    def flushline(self, keep: bool) -> None:
        if keep:
            self.out.append(self.tline)
        else:
            self.exitstat = 1

    def nest(self) -> None:
        if self.depth == MAXDEPTH - 1:
            self.error("Too many levels of nesting")
        self.depth += 1
        self.stifline[self.depth] = self.linenum

    def state(self, new: int) -> None:
        self.ifstate[self.depth] = new

    def keywordedit(self, replacement: bytes) -> None:
        self.tline = self.tline[:self.keyword] + replacement + (self.newline or b"\n")
        self.flushline(True)

    def _table(self):
        def err(msg):
            return lambda: self.error(msg)

        def seq(*steps):
            def run():
                for step in steps:
                    step()
            return run

        keep, drop = (lambda: self.flushline(True)), (lambda: self.flushline(False))
        nest, unnest = self.nest, (lambda: setattr(self, "depth", self.depth - 1))

        def to(state):
            return lambda: self.state(state)

        def mpass():
            self.tline = self.tline[:self.keyword] + b"if  " + self.tline[self.keyword + 4:]

        def done():
            if self.incomment:
                self.error("EOF in comment")

        Eelif, Eelse, Eendif = err("Inappropriate #elif"), err("Inappropriate #else"), err("Inappropriate #endif")
        Eeof, Eioccc = err("Premature EOF"), err("Obfuscated preprocessor control line")
        Strue, Sfalse, Selse = seq(drop, to(TRUE_PREFIX)), seq(drop, to(FALSE_PREFIX)), seq(drop, to(TRUE_ELSE))
        Pelif, Pelse, Pendif = seq(keep, to(PASS_MIDDLE)), seq(keep, to(PASS_ELSE)), seq(keep, unnest)
        Dfalse, Delif = seq(drop, to(FALSE_TRAILER)), seq(drop, to(FALSE_MIDDLE))
        Delse, Dendif = seq(drop, to(FALSE_ELSE)), seq(drop, unnest)
        Fdrop, Fpass, Ftrue, Ffalse = seq(nest, Dfalse), seq(nest, Pelif), seq(nest, Strue), seq(nest, Sfalse)
        Oiffy = Oif = Oelif = Eioccc  # without -e, an obfuscated (dodgy) line that changes state is an error
        Idrop, Itrue, Ifalse = Fdrop, Ftrue, Ffalse  # -i is not supported: these never occur
        Mpass = seq(mpass, Pelif)
        Mtrue = seq(lambda: self.keywordedit(b"else"), to(TRUE_MIDDLE))
        Melif = seq(lambda: self.keywordedit(b"endif"), to(FALSE_TRAILER))
        Melse = seq(lambda: self.keywordedit(b"endif"), to(FALSE_ELSE))
        print_ = keep
        return [
            # OUTSIDE
            [Itrue, Ifalse, Fpass, Ftrue, Ffalse, Eelif, Eelif, Eelif, Eelse, Eendif,
             Oiffy, Oiffy, Fpass, Oif, Oif, Eelif, Eelif, Eelif, Eelse, Eendif, print_, done],
            # FALSE_PREFIX
            [Idrop, Idrop, Fdrop, Fdrop, Fdrop, Mpass, Strue, Sfalse, Selse, Dendif,
             Idrop, Idrop, Fdrop, Fdrop, Fdrop, Mpass, Eioccc, Eioccc, Eioccc, Eioccc, drop, Eeof],
            # TRUE_PREFIX
            [Itrue, Ifalse, Fpass, Ftrue, Ffalse, Dfalse, Dfalse, Dfalse, Delse, Dendif,
             Oiffy, Oiffy, Fpass, Oif, Oif, Eioccc, Eioccc, Eioccc, Eioccc, Eioccc, print_, Eeof],
            # PASS_MIDDLE
            [Itrue, Ifalse, Fpass, Ftrue, Ffalse, Pelif, Mtrue, Delif, Pelse, Pendif,
             Oiffy, Oiffy, Fpass, Oif, Oif, Pelif, Oelif, Oelif, Pelse, Pendif, print_, Eeof],
            # FALSE_MIDDLE
            [Idrop, Idrop, Fdrop, Fdrop, Fdrop, Pelif, Mtrue, Delif, Pelse, Pendif,
             Idrop, Idrop, Fdrop, Fdrop, Fdrop, Eioccc, Eioccc, Eioccc, Eioccc, Eioccc, drop, Eeof],
            # TRUE_MIDDLE
            [Itrue, Ifalse, Fpass, Ftrue, Ffalse, Melif, Melif, Melif, Melse, Pendif,
             Oiffy, Oiffy, Fpass, Oif, Oif, Eioccc, Eioccc, Eioccc, Eioccc, Pendif, print_, Eeof],
            # PASS_ELSE
            [Itrue, Ifalse, Fpass, Ftrue, Ffalse, Eelif, Eelif, Eelif, Eelse, Pendif,
             Oiffy, Oiffy, Fpass, Oif, Oif, Eelif, Eelif, Eelif, Eelse, Pendif, print_, Eeof],
            # FALSE_ELSE
            [Idrop, Idrop, Fdrop, Fdrop, Fdrop, Eelif, Eelif, Eelif, Eelse, Dendif,
             Idrop, Idrop, Fdrop, Fdrop, Fdrop, Eelif, Eelif, Eelif, Eelse, Eioccc, drop, Eeof],
            # TRUE_ELSE
            [Itrue, Ifalse, Fpass, Ftrue, Ffalse, Eelif, Eelif, Eelif, Eelse, Dendif,
             Oiffy, Oiffy, Fpass, Oif, Oif, Eelif, Eelif, Eelif, Eelse, Eioccc, print_, Eeof],
            # FALSE_TRAILER
            [Idrop, Idrop, Fdrop, Fdrop, Fdrop, Dfalse, Dfalse, Dfalse, Delse, Dendif,
             Idrop, Idrop, Fdrop, Fdrop, Fdrop, Dfalse, Dfalse, Dfalse, Delse, Eioccc, drop, Eeof],
        ]

    def process(self) -> None:
        lineval = PLAIN
        while lineval != EOF:
            lineval = self.parseline()
            self.table[self.ifstate[self.depth]][lineval]()


def _apply(op: bytes, lt: int, a: int, rt: int, b: int) -> tuple[int, int]:
    """unifdef's binary operators on (linetype, value) pairs: && and || short-circuit on a known side."""
    if op == b"||" and TRUE in (lt, rt):
        return TRUE, 1
    if op == b"&&" and FALSE in (lt, rt):
        return FALSE, 0
    if IF in (lt, rt):
        return IF, a
    value = int({b"||": lambda: bool(a or b), b"&&": lambda: bool(a and b), b"==": lambda: a == b,
                 b"!=": lambda: a != b, b"<=": lambda: a <= b, b">=": lambda: a >= b,
                 b"<": lambda: a < b, b">": lambda: a > b}[op]())
    return (TRUE if value else FALSE), value


def run(args: list[str], data: bytes) -> tuple[int, bytes, bytes]:
    """``unifdef ARGS -`` with ``data`` on stdin: (exit status, stdout, stderr), as the binary gives them."""
    try:
        symbols = parse_args(args)
    except UnifdefExit as stop:
        return 2, b"", stop.message
    engine = _Unifdef(data, symbols)
    try:
        engine.process()
    except UnifdefExit as stop:
        return 2, b"".join(engine.out), stop.message
    return engine.exitstat, b"".join(engine.out), b""
