"""A pickle or a module list the code holds encoded or compressed: ``pickle.loads(base64.b64decode("gASV..."))``
(a base64 or hex string literal), ``pickle.load(gzip.open("state.pkl.gz"))`` and a plugin list inside a zip of the
package folder. The classes and modules they name stay. Before, none was read (``.gz`` and ``.zip`` files were
never scanned, a string literal was no pickle): the module left the fork with exit 0 and the load raised
ModuleNotFoundError (session 41, both `[symbols]` modes)."""

from __future__ import annotations

import base64
import gzip
import io
import pickle
import subprocess
import sys
import types
import zipfile

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

LEGACY = {"pkg/__init__.py": "", "pkg/records.py": "class Rec:\n    pass\n",
          "pkg/plugins/__init__.py": "", "pkg/plugins/alpha.py": "def run():\n    return 'alpha'\n",
          "pkg/legacy.py": "import pkg.records\nimport pkg.plugins.alpha\nALL = True\n",
          "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_legacy():\n    assert legacy.ALL\n"}


def _pickled_rec() -> bytes:
    """A pickle of ``pkg.records.Rec()``, made without the package."""
    package, module = types.ModuleType("pkg"), types.ModuleType("pkg.records")
    rec = type("Rec", (), {"__module__": "pkg.records", "__qualname__": "Rec"})
    module.Rec = rec  # type: ignore[attr-defined]
    saved = {k: sys.modules.get(k) for k in ("pkg", "pkg.records")}
    sys.modules.update({"pkg": package, "pkg.records": module})
    try:
        return pickle.dumps(rec(), protocol=4)
    finally:
        for key, value in saved.items():
            sys.modules.pop(key) if value is None else sys.modules.__setitem__(key, value)


def _zipped(name: str, text: str) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        archive.writestr(name, text)
    return buf.getvalue()


APPS = {
    "base64": ("import base64\nimport pickle\n\nBLOB = {blob!r}\n\n\ndef main():\n"
               "    return type(pickle.loads(base64.b64decode(BLOB))).__name__\n", "Rec"),
    "hex": ("import pickle\n\nBLOB = {hexed!r}\n\n\ndef main():\n"
            "    return type(pickle.loads(bytes.fromhex(BLOB))).__name__\n", "Rec"),
    "gzip_file": ("import gzip\nimport pickle\nfrom pathlib import Path\n\n\ndef main():\n"
                  "    with gzip.open(Path(__file__).with_name('state.pkl.gz')) as f:\n"
                  "        return type(pickle.load(f)).__name__\n", "Rec"),
    "zip_file": ("import importlib\nimport zipfile\nfrom pathlib import Path\n\n\ndef main():\n"
                 "    with zipfile.ZipFile(Path(__file__).with_name('bundle.zip')) as z:\n"
                 "        name = z.read('plugin.txt').decode().strip()\n"
                 "    return importlib.import_module(name).run()\n", "alpha"),
}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("app", sorted(APPS))
def test_an_encoded_or_compressed_pickle_keeps_what_it_loads(tmp_path, app, mode):
    data = _pickled_rec()
    text, expected = APPS[app]
    files = {**LEGACY, "pkg/app.py": text.format(blob=base64.b64encode(data).decode(), hexed=data.hex())}
    symbols = '[symbols]\npublic_api = "roots"\npackage_api = false\n' if mode == "roots" else "[symbols]\n"
    root = write_project(tmp_path, files, f'source = "."\nroots = ["pkg.app:main"]\ntests = ["tests"]\n\n{symbols}')
    (root / "pkg/state.pkl.gz").write_bytes(gzip.compress(data))
    (root / "pkg/bundle.zip").write_bytes(_zipped("plugin.txt", "pkg.plugins.alpha\n"))
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    done = subprocess.run([sys.executable, "-c", "from pkg.app import main; print(main())"], cwd=fork,
                          capture_output=True, text=True)
    assert done.stdout.strip() == expected, done.stderr[-2000:]
    assert not (fork / "pkg/legacy.py").exists()
