"""Serialized data naming code (session 43, each broke with exit 0 in both ``[symbols]`` modes): marshalled code
in a package's ``boot.bin`` run by ``exec(marshal.loads(...))`` (a blob was read only when it held a pickle), a
pickle beside the packages (``data/state.pkl``, read through ``Path(__file__).parents[2]``: only text data files
were looked up by the names the code gives), and a pickle in the legacy ``.lzma`` format."""

from __future__ import annotations

import lzma
import marshal
import pickle
import sys
import types

import pytest

from tests.soundness.soundkit import shrink_and_run_main

PLUGINS = {"pkg/__init__.py": "", "pkg/plugins/__init__.py": "", "pkg/plugins/alpha.py": "VALUE = 'alpha'\n",
           "pkg/legacy.py": "import pkg.plugins.alpha\nALL = True\n",
           "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_legacy():\n    assert legacy.ALL\n"}
EXEC_BLOB = ("import marshal\nfrom importlib import resources\n\n\ndef main():\n"
             "    ns = {'__name__': __name__, '__package__': __package__}\n"
             "    exec(marshal.loads(resources.files(__package__).joinpath('boot.bin').read_bytes()), ns)\n"
             "    return ns['RESULT']\n")


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("code", ["from pkg.plugins import alpha", "from .plugins import alpha"])
def test_marshalled_code_keeps_what_it_imports(tmp_path, code, mode):
    blob = marshal.dumps(compile(code + "\nRESULT = alpha.VALUE\n", "<boot>", "exec"))
    (tmp_path / "proj" / "pkg").mkdir(parents=True)
    (tmp_path / "proj" / "pkg" / "boot.bin").write_bytes(blob)
    fork, done = shrink_and_run_main(tmp_path, {**PLUGINS, "pkg/app.py": EXEC_BLOB}, mode)
    assert done.stdout.strip() == "alpha", done.stderr[-2000:]


def _record_pickle(monkeypatch) -> bytes:
    module = types.ModuleType("pkg.records")
    cls = type("Rec", (), {"__module__": "pkg.records"})
    module.Rec = cls
    monkeypatch.setitem(sys.modules, "pkg", types.ModuleType("pkg"))
    monkeypatch.setitem(sys.modules, "pkg.records", module)
    obj = cls()
    obj.v = 7
    return pickle.dumps(obj, protocol=4)


READ = {
    "beside_the_packages": ("data/state.pkl", "import pickle\nfrom pathlib import Path\n\n\ndef main():\n"
                            "    path = Path(__file__).resolve().parents[1] / 'data' / 'state.pkl'\n"
                            "    return pickle.loads(path.read_bytes()).show()\n"),
    "legacy_lzma": ("pkg/state.pkl.lzma", "import lzma, os, pickle\n\n\ndef main():\n    with lzma.open(os.path.join("
                    "os.path.dirname(__file__), 'state.pkl.lzma')) as f:\n        return pickle.load(f).show()\n"),
}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("where", sorted(READ))
def test_a_pickle_keeps_the_class_it_loads(tmp_path, monkeypatch, where, mode):
    path, app = READ[where]
    data = _record_pickle(monkeypatch)
    if path.endswith(".lzma"):
        data = lzma.compress(data, format=lzma.FORMAT_ALONE)
    (tmp_path / "proj" / path).parent.mkdir(parents=True)
    (tmp_path / "proj" / path).write_bytes(data)
    files = {"pkg/__init__.py": "", "pkg/app.py": app,
             "pkg/records.py": "class Rec:\n    def show(self):\n        return self.v\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "7", done.stderr[-2000:]
