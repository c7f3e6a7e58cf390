"""The globals a pickle loads, read from its opcodes (nothing run): in a pickle file of the package, and in a bytes
literal of the code (``pickle.loads(b"\\x80\\x04...\\x8c\\x0bpkg.mod\\x94\\x8c\\x05Thing...")``: the class it
builds must stay, though no string names it), also one written as base64, base85, ascii85 or hex text (or hex
bytes), zlib-compressed (``pickle.loads(base64.b64decode("gASV..."))``), or as protocol 0 text in a string (or its
rot13: session 47), and in a compressed data file (``state.pkl.gz``). The imports of
marshalled code (``exec(marshal.loads(blob))``), read from its instructions (nothing run)."""

from __future__ import annotations

import ast
import base64
import binascii
import bz2
import codecs
import dis
import gzip
import io
import lzma
import marshal
import pickletools
import types
import re
import zipfile
import zlib
from slimfork.index.walk import walk


def pickle_globals(data: bytes, start: int = 0) -> list[str]:
    """``pkg.mod:Name`` for each global a pickle file loads (its opcodes read, nothing run); several pickles
    dumped one after the other are read in turn; what does not parse ends the reading. ``start``: where the first
    pickle starts."""
    out: list[str] = []
    stream = io.BytesIO(data)
    stream.seek(start)
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


_PROTO = re.compile(rb"\x80[\x02-\x05]")


def embedded_pickle_globals(data: bytes, limit: int = 2_000) -> list[str]:
    """The globals of the pickles a database file holds as values (an SQLite table of pickled objects: session 44,
    ``pickle.loads(row[0])``): each PROTO opcode (protocols 2 to 5) starts one, the first ``limit`` read."""
    out: list[str] = []
    for k, m in enumerate(_PROTO.finditer(data)):
        if k >= limit:
            break
        out += pickle_globals(data, m.start())
    return list(dict.fromkeys(out))


def pickled_literals(tree: ast.AST) -> list[tuple[str, int]]:
    """``pkg.mod:Name`` for each global a bytes literal that reads as a pickle loads, with the literal's line."""
    return list(dict.fromkeys((found, node.lineno) for node in walk(tree) if isinstance(node, ast.Constant)
                              and isinstance(node.value, (bytes, str)) for data in _encoded(node.value)
                              if _pickle_like(data) for found in pickle_globals(data)))


_BASE64 = re.compile(r"[A-Za-z0-9+/_\-\n]{16,}={0,2}")
_HEX = re.compile(r"(?:[0-9a-fA-F]{2}\s?){8,}")
_MAX = 4_000_000


def _encoded(value: bytes | str) -> list[bytes]:
    """The bytes a literal may hold a pickle as: itself, zlib-decompressed; a string's base64 or hex decoding."""
    if isinstance(value, bytes):  # codecs.decode(b"8002...", "hex"): the bytes as text too
        return [value, *_unpacked(value)] + (_encoded(value.decode("ascii")) if value.isascii() else [])
    text = value.strip()
    if len(text) > _MAX:
        return []
    out = _as_text(value)
    for pattern, decoder in ((_B85, base64.b85decode), (_A85, _a85decode)):  # session 47
        if len(text) >= 20 and pattern.fullmatch(text):
            try:
                out.append(decoder(text))
            except Exception:  # not that encoding after all
                pass
    if _BASE64.fullmatch(text):
        for decode in (base64.b64decode, base64.urlsafe_b64decode):
            try:
                out.append(decode("".join(text.split())))
            except (binascii.Error, ValueError):
                pass
    if _HEX.fullmatch(text):
        out.append(bytes.fromhex(text))
    return [d for data in out for d in (data, *_unpacked(data))]


_B85 = re.compile(r"[0-9A-Za-z!#$%&()*+\-;<=>?@^_`{|}~]+")
_A85 = re.compile(r"(?:<~)?[!-uz]+(?:~>)?")


def _a85decode(text: str) -> bytes:
    return base64.a85decode(text, adobe=text.startswith("<~"), ignorechars=b" \t\n\r\v")


def _as_text(value: str) -> list[bytes]:
    """A protocol 0 pickle written as a string (``pickle.loads(TEXT.encode("latin1"))``), or its rot13."""
    if "\n" not in value or not value.rstrip().endswith("."):
        return []
    try:
        return [value.encode("latin1"), codecs.encode(value, "rot13").encode("latin1")]
    except UnicodeEncodeError:
        return []


def _unpacked(data: bytes) -> list[bytes]:
    """zlib, gzip, bz2 and xz data decompressed (at most ``_MAX`` bytes); a zip archive's members, concatenated."""
    try:
        if data[:2] == b"\x1f\x8b":
            return [gzip.GzipFile(fileobj=io.BytesIO(data)).read(_MAX)]
        if data[:3] == b"BZh":
            return [bz2.BZ2Decompressor().decompress(data, _MAX)]
        if data[:6] == b"\xfd7zXZ\x00":
            return [lzma.LZMADecompressor().decompress(data, _MAX)]
        if data[:1] == b"\x5d" and data[1:5] != b"\x00" * 4:  # the legacy .lzma format (lzma.FORMAT_ALONE)
            return [lzma.LZMADecompressor(lzma.FORMAT_ALONE).decompress(data, _MAX)]
        if data[:1] == b"\x78" and data[1:2] in (b"\x01", b"\x5e", b"\x9c", b"\xda"):
            return [zlib.decompressobj().decompress(data, _MAX)]
        if data[:4] == b"PK\x03\x04":
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                members = [i for i in archive.infolist() if not i.is_dir() and i.file_size <= _MAX]
                return [archive.read(i) for i in members[:200]]
    except Exception:  # damaged or not what its first bytes say: it names nothing
        return []
    return []


unpacked = _unpacked


def _pickle_like(data: bytes) -> bool:
    """A PROTO opcode (protocol 2 and above) or a GLOBAL one (protocols 0 and 1) first, and a STOP last."""
    return len(data) > 4 and data.rstrip()[-1:] == b"." and (data[:1] == b"\x80" or b"c" in data[:8])


def marshalled_code(data: bytes) -> bool:
    """Data that starts as a marshalled code object does (``marshal.dumps(compile(...))``)."""
    return data[:1] in (b"\xe3", b"c") and len(data) > 16


def marshalled_imports(data: bytes) -> list[str]:
    """The imports of marshalled code as code text (``from .plugins import alpha``, ``import pkg.mod``), read from
    its instructions and those of the functions and classes it defines; none where it is no code object of this
    Python's version."""
    try:
        code = marshal.loads(data)
    except Exception:  # another version's format, or no marshalled code at all
        return []
    if not isinstance(code, types.CodeType):
        return []
    out, todo = [], [code]
    while todo:
        current = todo.pop()
        todo += [c for c in current.co_consts if isinstance(c, types.CodeType)]
        consts: list = []
        for ins in dis.get_instructions(current):
            if ins.opname == "LOAD_CONST":
                consts = (consts + [ins.argval])[-2:]
            elif ins.opname == "IMPORT_NAME" and len(consts) == 2 and isinstance(consts[0], int):
                level, names = consts
                dots = "." * level
                out.append(f"from {dots}{ins.argval} import {', '.join(names)}" if names and names != ("*",)
                           else f"import {dots}{ins.argval}")
                out += [f"{ins.argval}.{n}" for n in names or () if not level and n != "*"]  # a submodule, maybe
    return out
