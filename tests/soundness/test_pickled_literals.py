"""A pickle held in a bytes literal of kept code (``pickle.loads(b"\\x80\\x04...\\x8c\\x0bpkp.pickled...")``)
builds a class no import or string names: the module and the class stay (its opcodes are read, as a pickle
file's are). Before, the fork lost ``pkp.pickled`` and ``unpickle()`` raised ModuleNotFoundError, with nothing
listed (session 32)."""

from __future__ import annotations

import base64
import codecs
import subprocess
import sys

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project


def _pickled(root, module: str, name: str, protocol: int) -> bytes:
    code = (f"import pickle, sys; from {module} import {name}; "
            f"sys.stdout.buffer.write(pickle.dumps({name}(), {protocol}))")
    return subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, check=True).stdout


def test_a_pickle_in_a_bytes_literal_keeps_what_it_loads(tmp_path):
    files = {
        "pyproject.toml": '[project]\nname = "pkp"\nversion = "1.0"\n',
        "pkp/__init__.py": "",
        "pkp/pickled.py": "class _Thing:\n    v = 'new'\n",
        "pkp/legacy.py": "class _Old:\n    v = 'old'\n",
        "pkp/gone.py": "class _Gone:\n    pass\n",
    }
    spec = 'source = "."\nroots = ["pkp.api"]\n\n[symbols]\n'
    root = write_project(tmp_path, files, spec)
    new, old = _pickled(root, "pkp.pickled", "_Thing", 4), _pickled(root, "pkp.legacy", "_Old", 0)
    (root / "pkp/api.py").write_text(f"import pickle\n\nNEW = {new!r}\nOLD = {old!r}\n\n\ndef unpickle():\n"
                                     "    return pickle.loads(NEW).v + pickle.loads(OLD).v\n")
    assert b"\\x80" in (root / "pkp/api.py").read_bytes()
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pkp/gone.py").exists()
    assert "class _Thing" in (fork / "pkp/pickled.py").read_text()
    assert "class _Old" in (fork / "pkp/legacy.py").read_text()
    done = subprocess.run([sys.executable, "-c", "from pkp.api import unpickle; print(unpickle())"], cwd=fork,
                          capture_output=True, text=True)
    assert done.stdout.strip() == "newold", done.stderr[-2000:]


ENCODINGS = {  # session 47: each left pkp/pickled.py out of the fork with exit 0
    "base85": ("base64.b85decode({!r})", lambda b: base64.b85encode(b).decode()),
    "ascii85": ("base64.a85decode({!r})", lambda b: base64.a85encode(b).decode()),
    "hex_bytes": ("codecs.decode({!r}, 'hex')", lambda b: b.hex().encode()),
    "protocol0_text": ("{!r}.encode('latin1')", lambda b: b.decode("latin1")),
    "rot13_text": ("codecs.encode({!r}, 'rot13').encode('latin1')",
                   lambda b: codecs.encode(b.decode("latin1"), "rot13")),
}


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_a_pickle_encoded_in_the_source_keeps_what_it_loads(tmp_path, encoding):
    files = {"pyproject.toml": '[project]\nname = "pkp"\nversion = "1.0"\n', "pkp/__init__.py": "",
             "pkp/pickled.py": "class _Thing:\n    v = 'new'\n"}
    root = write_project(tmp_path, files, 'source = "."\nroots = ["pkp.api"]\n\n[symbols]\n')
    template, encode = ENCODINGS[encoding]
    data = _pickled(root, "pkp.pickled", "_Thing", 0 if "text" in encoding else 2)
    (root / "pkp/api.py").write_text("import base64, codecs, pickle\n\n\ndef unpickle():\n"
                                     f"    return pickle.loads({template.format(encode(data))}).v\n")
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    done = subprocess.run([sys.executable, "-c", "from pkp.api import unpickle; print(unpickle())"], cwd=fork,
                          capture_output=True, text=True)
    assert done.stdout.strip() == "new", done.stderr[-2000:]


def test_text_in_the_ascii85_alphabet_that_is_no_pickle_names_nothing():
    import ast
    from slimfork.index.pickled import pickled_literals
    assert pickled_literals(ast.parse("CODE = 'importlib.import_module(abc).run_all(kinds)'\n")) == []
