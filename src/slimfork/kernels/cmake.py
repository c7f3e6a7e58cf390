"""The native sources a ``CMakeLists.txt`` names outside the ``if(WIN32)``/``if(APPLE)`` blocks the facts rule out.

Commands are read with a small tokenizer (comments, quoted and bracket arguments); ``if``/``elseif``/``else``/
``endif`` conditions are three-valued over the platform variables CMake sets (``WIN32``, ``APPLE``, ``UNIX``,
``MSVC``, ``LINUX``, ``CMAKE_SYSTEM_NAME STREQUAL "Linux"``, with ``NOT``/``AND``/``OR``); anything else is
unknown and both branches stay. Every argument of a live command that looks like a source path or a
``file(GLOB ...)`` pattern is a live pattern (``${CMAKE_CURRENT_SOURCE_DIR}/`` is the folder, another
``${VAR}`` is ``*``); the same in a dead block is a dead pattern.
"""

from __future__ import annotations

import re
from pathlib import Path

from slimfork.facts.model import Truth
from slimfork.kernels.setup_py import BuilderRefs

_COMMAND = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)[ \t]*\(")
_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|\[\[(.*?)\]\]|([^\s()"]+)|([()])', re.S)  # parens: tokens
_HERE_VARS = re.compile(r"\$\{(?:CMAKE_CURRENT_SOURCE_DIR|CMAKE_CURRENT_LIST_DIR|PROJECT_SOURCE_DIR|"
                        r"CMAKE_SOURCE_DIR)\}/?")
_VAR = re.compile(r"\$\{[^}]*\}|\$<[^>]*>")
_COMMENT = re.compile(r'#\[\[.*?\]\]|#[^\n]*', re.S)


def platform_values(sys_platform: str | None, platform_system: str | None,
                    os_name: str | None) -> dict[str, bool | str | None]:
    """The platform variables CMake sets, as far as the facts tell them (missing: unknown)."""
    system = platform_system or {"win32": "Windows", "darwin": "Darwin", "cygwin": "CYGWIN"}.get(
        sys_platform or "", "Linux" if (sys_platform or "").startswith("linux") else None)
    if system is None:
        return {"WIN32": True} if os_name == "nt" else {"WIN32": False} if os_name == "posix" else {}
    win, apple, linux = system == "Windows", system == "Darwin", system == "Linux"
    return {"WIN32": win, "MSVC": False if not win else None, "MINGW": False if not win else None,
            "CYGWIN": system == "CYGWIN", "APPLE": apple, "IOS": False if not apple else None, "UNIX": not win,
            "LINUX": linux, "BSD": system.endswith("BSD"), "ANDROID": False if not linux else None,
            "CMAKE_SYSTEM_NAME": system}


def _commands(text: str):
    """(name, arguments, line) for every command of a CMake file."""
    text = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    pos = 0
    while (m := _COMMAND.search(text, pos)) is not None:
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        args = [next(g for g in t.groups() if g is not None) for t in _TOKEN.finditer(text[m.end():i - 1])]
        yield m.group(1).lower(), args, text.count("\n", 0, m.start()) + 1
        pos = i


def _condition(args: list[str], values: dict) -> Truth:
    """Three-valued: OR of ANDs of (NOT)* atoms; parentheses or anything unrecognised is unknown."""
    if any(a in ("(", ")") for a in args):
        return Truth.UNKNOWN
    result = Truth.FALSE
    for conj in _split(args, "OR"):
        part = Truth.TRUE
        for atom in _split(conj, "AND"):
            negate = 0
            while atom and atom[0] == "NOT":
                negate, atom = negate + 1, atom[1:]
            value = _atom(atom, values)
            if negate % 2 and value is not Truth.UNKNOWN:
                value = Truth.FALSE if value is Truth.TRUE else Truth.TRUE
            part = Truth.FALSE if Truth.FALSE in (part, value) else \
                Truth.UNKNOWN if Truth.UNKNOWN in (part, value) else Truth.TRUE
        result = Truth.TRUE if Truth.TRUE in (result, part) else \
            Truth.UNKNOWN if Truth.UNKNOWN in (result, part) else Truth.FALSE
    return result


def _split(args: list[str], word: str) -> list[list[str]]:
    out: list[list[str]] = [[]]
    for a in args:
        out.append([]) if a == word else out[-1].append(a)
    return out


def _atom(atom: list[str], values: dict) -> Truth:
    if len(atom) == 1:
        value = values.get(atom[0].removeprefix("${").removesuffix("}"))
        return Truth.UNKNOWN if not isinstance(value, bool) else Truth.TRUE if value else Truth.FALSE
    if len(atom) == 3 and atom[1] in ("STREQUAL", "MATCHES") and values.get("CMAKE_SYSTEM_NAME"):
        left = atom[0].removeprefix("${").removesuffix("}")
        if left == "CMAKE_SYSTEM_NAME":
            system = values["CMAKE_SYSTEM_NAME"]
            same = system == atom[2] if atom[1] == "STREQUAL" else re.search(atom[2], system) is not None
            return Truth.TRUE if same else Truth.FALSE
    return Truth.UNKNOWN


def read_cmake(root: Path, rel: str, values: dict) -> BuilderRefs:
    refs = BuilderRefs(rel)
    text = (Path(root) / rel).read_bytes().decode("utf-8", "replace")
    stack: list[list] = []  # per if: [truth of this branch, some earlier branch true, dead reason]
    for name, args, line in _commands(text):
        outer = next((f[2] for f in reversed(stack) if f[2]), None)
        if name == "if":
            stack.append(_branch(_condition(args, values), False, rel, line, args, refs, outer))
        elif name == "elseif" and stack:
            taken = stack[-1][1] or stack[-1][0] is Truth.TRUE
            outer = next((f[2] for f in reversed(stack[:-1]) if f[2]), None)
            truth = Truth.FALSE if taken else _condition(args, values)
            seen = stack[-1][3]
            stack[-1] = _branch(truth, taken, rel, line, args, refs, outer, "elseif")
            stack[-1][3] = seen + [truth]
        elif name == "else" and stack:
            taken = stack[-1][1] or stack[-1][0] is Truth.TRUE
            never = all(t is Truth.FALSE for t in stack[-1][3])
            outer = next((f[2] for f in reversed(stack[:-1]) if f[2]), None)
            truth = Truth.FALSE if taken else Truth.TRUE if never else Truth.UNKNOWN
            frame = _branch(truth, taken, rel, line, [], refs, outer, "else")
            frame[3] = stack[-1][3]
            stack[-1] = frame
        elif name == "endif" and stack:
            stack.pop()
        elif name not in ("message", "option", "project", "cmake_minimum_required"):
            for arg in args:
                pattern = _HERE_VARS.sub("", arg)
                if pattern.startswith("$") and not _HERE_VARS.match(arg) or "/" not in pattern and "." not in pattern:
                    continue
                pattern = _VAR.sub("*", pattern)
                if pattern.strip("*/."):
                    (refs.dead if outer else refs.live).append((pattern, outer or f"{rel}:{line}"))
            if name == "aux_source_directory" and args and not outer:
                refs.live.append((_VAR.sub("*", _HERE_VARS.sub("", args[0])).rstrip("/") + "/*", f"{rel}:{line}"))
    return refs


def _branch(truth: Truth, taken: bool, rel: str, line: int, args: list[str], refs: BuilderRefs, outer,
            word: str = "if") -> list:
    if outer is None:
        if truth is Truth.UNKNOWN:
            refs.conditions_left += 1
        else:
            refs.conditions_folded += 1
    reason = outer or (f"`{word}({' '.join(args)})` block of {rel}:{line}" if truth is Truth.FALSE else None)
    return [truth, taken or truth is Truth.TRUE, reason, [truth]]
