"""nunchaku (``873a35b^``): ``app/`` holds 33 gradio and evaluation scripts (``__main__`` blocks) and the helpers
they import, beside two dataset loading scripts nothing imports; the folder was one finding, "unreached" at 70,
calling the scripts dead. A folder finding never mixes scripts and what they import (30) with other files: each
part is reported on its own."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='nk', packages=['nk'])\n",
    "nk/__init__.py": "def f():\n    return 1\n",
    "tests/test_f.py": "from nk import f\n\n\ndef test_f():\n    assert f()\n",
    "app/flux/run_gradio.py": "from utils import pipeline\n\nif __name__ == '__main__':\n    pipeline()\n",
    "app/flux/utils.py": "def pipeline():\n    return 1\n",
    "app/flux/datasets/loader.py": "class Loader:\n    pass\n",
}


def test_a_folder_of_scripts_and_other_files_is_not_one_dead_folder(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert found.get("app/flux/run_gradio.py") == 30 and found.get("app/flux/utils.py") == 30
    assert not any(s in found for s in ("app/", "app/flux/"))
    assert found.get("app/flux/datasets/", found.get("app/flux/datasets/loader.py", 0)) >= 60


def test_a_folder_a_script_outside_it_imports_stays_whole(tmp_path):
    files = dict(FILES)
    files["ci/run_bench.py"] = "from app.flux import utils\n\nif __name__ == '__main__':\n    utils.pipeline()\n"
    files["app/__init__.py"] = files["app/flux/__init__.py"] = ""
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert found.get("app/flux/") == 30 and not [s for s, c in found.items() if c >= 60]
