"""The globals a pickle loads, read from its opcodes (nothing run): in a pickle file of the package, and in a bytes
literal of the code (``pickle.loads(b"\\x80\\x04...\\x8c\\x0bpkg.mod\\x94\\x8c\\x05Thing...")``: the class it
builds must stay, though no string names it)."""

from __future__ import annotations

import ast
import io
import pickletools
from slimfork.index.walk import walk


def pickle_globals(data: bytes) -> list[str]:
    """``pkg.mod:Name`` for each global a pickle file loads (its opcodes read, nothing run); several pickles
    dumped one after the other are read in turn; what does not parse ends the reading."""
    out: list[str] = []
    stream = io.BytesIO(data)
    try:
        while stream.tell() < len(data):
            strings: list[str] = []
            for op, arg, _ in pickletools.genops(stream):
                if op.name in ("GLOBAL", "INST") and isinstance(arg, str) and " " in arg:
                    out.append(arg.replace(" ", ":", 1))
                elif op.name == "STACK_GLOBAL" and len(strings) >= 2:
                    out.append(f"{strings[-2]}:{strings[-1]}")
                elif isinstance(arg, str):
                    strings.append(arg)
    except Exception:  # a truncated or foreign file (a torch zip): what was read stands
        pass
    return out


def pickled_literals(tree: ast.AST) -> list[tuple[str, int]]:
    """``pkg.mod:Name`` for each global a bytes literal that reads as a pickle loads, with the literal's line."""
    return [(found, node.lineno) for node in walk(tree) if isinstance(node, ast.Constant)
            and isinstance(node.value, bytes) and _pickle_like(node.value) for found in pickle_globals(node.value)]


def _pickle_like(data: bytes) -> bool:
    """A PROTO opcode (protocol 2 and above) or a GLOBAL one (protocols 0 and 1) first, and a STOP last."""
    return len(data) > 4 and data.rstrip()[-1:] == b"." and (data[:1] == b"\x80" or b"c" in data[:8])
