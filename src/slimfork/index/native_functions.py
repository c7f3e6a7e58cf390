"""Host functions of a native source and the names each one uses, read with regular expressions, for a call graph
of C/C++/CUDA code: a kernel whose launches all sit in host functions nothing live calls is unused too.

Only what is clearly a function definition at file level (also inside ``namespace`` and ``extern "C"`` blocks)
becomes a function. A name used anywhere else (a class body, an initializer, a registration block such as
``PYBIND11_MODULE``, a statement that is not a declaration, a macro this file does not define) is a *loose* use:
live whatever calls what. A function-like macro invoked at file level is expanded when its arguments are plain,
so ``MAKE_FUNC8(adam, ADAM, float, 32)`` defines ``adam_static_8bit_grad_32``; a macro is itself a function whose
body's names it uses. Prototypes and explicit template instantiations are not uses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_IDENT = re.compile(r"[A-Za-z_]\w*")
_DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
_BRANCH = re.compile(r"^[ \t]*#[ \t]*(?:else|elif)\b", re.M)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)]*\))?((?:[^\n]*\\\n)*[^\n]*)", re.M)
_ATTRIBUTES = re.compile(r"\b(?:__launch_bounds__|__attribute__|__declspec|alignas|C10_LAUNCH_BOUNDS_\d)\s*\("
                         r"(?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)")
_TRANSPARENT = re.compile(r"(?:\bnamespace(?:\s+[\w:]+)?|\bextern(?:\s*\"[^\"]*\")?)\s*$")
_QUALIFIERS = re.compile(r"^(?:\s*(?:const|noexcept|override|final|volatile|mutable|&&?|throw\s*\(\s*\)|"
                         r"noexcept\s*\([^()]*\)|->\s*[\w:<>,\s*&]+))*\s*$")
_NOT_NAMES = {"if", "for", "while", "switch", "return", "sizeof", "decltype", "alignof", "catch", "defined"}
_MAX_DEPTH = 3


@dataclass(frozen=True, slots=True)
class HostFunction:
    name: str
    line: int
    uses: frozenset[str]  # every identifier of its body (calls, launches, names passed on)
    macro: bool = False
    namespaces: tuple[str, ...] = ()  # the namespaces it is defined in, outermost first
    # names of ``uses`` the body writes only qualified (``fp8::quantize<...>(``), with their qualifiers
    qualified: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(slots=True)
class HostCode:
    functions: list[HostFunction]
    loose: dict[str, list[int]]  # identifier -> lines where it is used outside any function we can name


def host_code(code: str, line_of) -> HostCode:
    """``code``: the source with comments and string literals blanked (same length, so positions hold)."""
    macros: dict[str, tuple[list[str] | None, str]] = {}
    out = HostCode([], {})
    for d in _DEFINE.finditer(code):
        params = None if d.group(2) is None else [p.strip() for p in d.group(2)[1:-1].split(",") if p.strip()]
        body = d.group(3).replace("\\\n", " ")
        macros[d.group(1)] = (params, body)
        names = frozenset(_IDENT.findall(body)) - set(params or ()) - {d.group(1)}
        out.functions.append(HostFunction(d.group(1), line_of(d.start()), names, macro=True))
    text = _DIRECTIVE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), code)
    reader = _Reader(text, macros, out, line_of, branches=tuple(m.start() for m in _BRANCH.finditer(code)))
    if text.count("{") != text.count("}"):  # the #if branches open or close braces: no structure to trust
        reader.loose(0, len(text))
    else:
        reader.read(0)
    return out


_NAMESPACE = re.compile(r"\bnamespace\s+([\w:]+)\s*$")
_QUALIFIED = re.compile(r"(?<![\w:])(\w+)\s*::\s*(?:template\s+)?(\w+)")


def _qualified_only(body: str, names: frozenset[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The names of ``body`` written only after a qualifier (``q::name``), each with its qualifiers."""
    quals: dict[str, set[str]] = {}
    counts: dict[str, int] = {}
    for m in _QUALIFIED.finditer(body):
        quals.setdefault(m.group(2), set()).add(m.group(1))
        counts[m.group(2)] = counts.get(m.group(2), 0) + 1
    out = []
    for name, qs in quals.items():
        if name in names and len(re.findall(r"\b%s\b" % re.escape(name), body)) == counts[name]:
            out.append((name, tuple(sorted(qs))))
    return tuple(sorted(out))


class _Reader:
    def __init__(self, text: str, macros, out: HostCode, line_of, depth: int = 0, branches: tuple[int, ...] = (),
                 namespaces: tuple[str, ...] = ()):
        self.text, self.macros, self.out, self.line_of, self.depth = text, macros, out, line_of, depth
        self.branches = branches  # positions of #else/#elif: a function spanning one may be two half-functions
        self.namespaces = list(namespaces)  # the namespace blocks open where the reader is

    def loose(self, start: int, end: int, own: str = "") -> None:
        for m in _IDENT.finditer(self.text, start, end):
            if m.group(0) == own:
                continue
            lines = self.out.loose.setdefault(m.group(0), [])
            line = self.line_of(m.start())
            if len(lines) < 8 and line not in lines:
                lines.append(line)

    def read(self, start: int) -> None:
        text, i, stmt, parens, opened = self.text, start, start, 0, 0
        pushed: list[int] = []  # how many namespace names each transparent block opened
        while i < len(text):
            ch = text[i]
            if ch == "(":
                parens += 1
            elif ch == ")":
                parens = max(0, parens - 1)
            elif parens == 0 and ch == ";":
                self.statement(stmt, i)
                stmt = i + 1
            elif parens == 0 and ch == "{":
                stmt = self.peel(stmt, i)
                if _TRANSPARENT.search(text, stmt, i):
                    opened += 1
                    named = _NAMESPACE.search(text, stmt, i)
                    parts = [p for p in named.group(1).split("::") if p] if named else []
                    self.namespaces += parts
                    pushed.append(len(parts))
                    stmt = i + 1
                else:
                    end = _closing(text, i)
                    self.block(stmt, i, end)
                    i = stmt = end + 1
                    continue
            elif parens == 0 and ch == "}" and opened:
                self.statement(stmt, i)
                opened -= 1
                for _ in range(pushed.pop() if pushed else 0):
                    self.namespaces.pop()
                stmt = i + 1
            i += 1
        self.statement(stmt, len(text))

    def peel(self, start: int, end: int) -> int:
        """Handle the file-level macro invocations (no ';' after them) at the start of text[start:end]."""
        while True:
            m = _IDENT.search(self.text, start, end)
            if not m or self.text[start:m.start()].strip():
                return start
            after = m.end()
            while after < end and self.text[after] in " \t\n":
                after += 1
            spec = self.macros.get(m.group(0))
            if after >= end or self.text[after] != "(" or not (spec or m.group(0).isupper()):
                return start
            close = _closing(self.text, after, "(", ")")
            if close >= end:
                return start
            rest = self.text[close + 1:end]
            if not spec and not rest.strip():  # `TORCH_LIBRARY(ns, m) {`: a block, not an invocation
                return start
            self.invocation(m.start(), after, close)
            start = close + 1

    def invocation(self, start: int, open_: int, close: int) -> None:
        name = self.text[start:open_].strip()
        params, body = self.macros.get(name, (None, ""))
        args = [a.strip() for a in self.text[open_ + 1:close].split(",")]
        if params is None or len(args) != len(params) or self.depth >= _MAX_DEPTH or "..." in params \
                or not all(re.fullmatch(r"[\w\s:*&<>]*", a) for a in args):
            self.loose(start, close + 1)
            return
        values = dict(zip(params, args))
        expanded = _IDENT.sub(lambda m: values.get(m.group(0), m.group(0)), body)
        expanded = re.sub(r"\s*##\s*", "", expanded)
        line = self.line_of(start)
        _Reader(expanded, self.macros, self.out, lambda _pos: line, self.depth + 1,
                namespaces=tuple(self.namespaces)).read(0)

    def statement(self, start: int, end: int) -> None:
        start = self.peel(start, end)
        head = self.text[start:end]
        if not head.strip() or _is_declaration(head):
            return
        self.loose(start, end)

    def block(self, start: int, brace: int, end: int) -> None:
        name = _function_name(self.text[start:brace])
        if name is None or any(start <= pos < brace for pos in self.branches):
            self.loose(start, end + 1, own=name or "")  # an #else in its head: two half-functions, names live
            return
        # an #if/#else inside the body (`#if __CUDA_ARCH__ >= 1000 ... #else ... #endif`): one function that uses
        # the names of every branch
        uses = frozenset(_IDENT.findall(self.text, brace, end + 1)) - {name}
        self.out.functions.append(HostFunction(name, self.line_of(brace), uses, namespaces=tuple(self.namespaces),
                                               qualified=_qualified_only(self.text[brace:end + 1], uses)))


def _closing(text: str, pos: int, open_: str = "{", close: str = "}") -> int:
    depth = 0
    for i in range(pos, len(text)):
        if text[i] == open_:
            depth += 1
        elif text[i] == close:
            depth -= 1
            if depth == 0:
                return i
    return len(text) - 1


def _signature(head: str) -> tuple[str, str, str] | None:
    """(what precedes the name, the name, what follows the parameter list) of ``... name(params) quals``."""
    head = _ATTRIBUTES.sub(" ", head)
    head = re.sub(r"<<<|>>>", " ", head)
    head = _without_template_parameters(head)
    for m in re.finditer(r"((?:[A-Za-z_]\w*\s*::\s*)*~?[A-Za-z_]\w*)\s*(?:<[^;{}()]*>)?\s*\(", head):
        close = _closing(head, m.end() - 1, "(", ")")
        if close >= len(head) or head[close] != ")":
            return None
        return head[:m.start()], m.group(1).replace(" ", ""), head[close + 1:]
    return None


def _without_template_parameters(head: str) -> str:
    """``template <typename T, float (*OP)(float)> __global__ void k(...)`` -> ``__global__ void k(...)``: a
    function pointer among the template parameters is no function name."""
    m = re.match(r"\s*template\s*<", head)
    if not m:
        return head
    depth = 0
    for i in range(m.end() - 1, len(head)):
        depth += {"<": 1, ">": -1}.get(head[i], 0)
        if depth == 0:
            return " " * (i + 1) + head[i + 1:]
    return head


def _function_name(head: str) -> str | None:
    """The name a ``{`` after ``head`` defines a function of, or None when it is something else."""
    sig = _signature(head)
    if sig is None:
        return None
    before, qualified, after = sig
    name = qualified.rsplit("::", 1)[-1]
    if name in _NOT_NAMES or not (before.strip() or "::" in qualified):
        return None
    if _QUALIFIERS.match(after) or re.match(r"\s*:", after):  # a constructor's initializer list
        return name
    return None


def _is_declaration(head: str) -> bool:
    """A prototype or an explicit instantiation: ``void f(int);``, ``template void f<float>(float*);``."""
    sig = _signature(head)
    if sig is None:
        return False
    before, qualified, after = sig
    return bool(before.strip()) and "=" not in before and qualified.rsplit("::", 1)[-1] not in _NOT_NAMES \
        and bool(_QUALIFIERS.match(after))
