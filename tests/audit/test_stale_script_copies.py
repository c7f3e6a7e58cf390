"""torch-ngp (``4f12852^`` "delete unused"): ``colmap2nerf.py``, ``llff2nerf.py`` and ``tanks2nerf.py`` at the top
are the same text as ``scripts/colmap2nerf.py`` ..., and the readme runs only the latter (``python
scripts/llff2nerf.py data/...``): all six were scripts (30). An unreached script another file of its name copies,
where the documents run the other copy by its path and never this one, is a stale copy (60); a copy the
documents name too, or one whose text differs, stays a script (30)."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

SCRIPT = "import sys\n\n\ndef convert(path):\n    return path\n\n\nif __name__ == '__main__':\n" \
         "    print(convert(sys.argv[1]))\n"
FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='ngp', packages=['ngp'])\n",
    "ngp/__init__.py": "def run():\n    return 1\n",
    "tests/test_run.py": "from ngp import run\n\n\ndef test_run():\n    assert run()\n",
    "llff2nerf.py": SCRIPT,
    "scripts/llff2nerf.py": SCRIPT,
    "colmap2nerf.py": SCRIPT,
    "scripts/colmap2nerf.py": SCRIPT,
    "tanks2nerf.py": SCRIPT + "# differs\nprint(2)\n",
    "scripts/tanks2nerf.py": SCRIPT,
    "readme.md": "Convert:\n\n```\npython scripts/llff2nerf.py data/fern\npython scripts/tanks2nerf.py data/x\n"
                 "python scripts/colmap2nerf.py --images x\npython ./colmap2nerf.py --video v.mp4\n```\n",
}


def test_a_script_copy_only_the_other_path_of_which_the_docs_run_is_stale(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert found["llff2nerf.py"] == 60
    assert found["colmap2nerf.py"] == 30  # the readme runs this copy too
    assert found["tanks2nerf.py"] == 30  # not the same text
    assert found.get("scripts/llff2nerf.py", found.get("scripts/")) == 30
