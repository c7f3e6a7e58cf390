"""SeerAttention ``8a9d5ec^``: ``eval/reasoning_tasks/eval.py`` (a script) runs the prompt file
``os.path.join(".", "prompts", prompt_type, f"{data_name}.py")`` names: ``prompts/`` (Python files nothing imports)
was "unreached" at 70, and so was ``eval/ruler/eval/synthetic/``, which ``evaluate.py``'s
``importlib.import_module(f"{args.benchmark}.constants")`` imports. A path template naming ``.py`` files through a constant folder loads what it matches: roots
when the loading file is reached, reported with the script (30) when only a script loads them."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

LOADER = """\
import os
import runpy


def load(kind, name):
    return runpy.run_path(os.path.join(HERE, "plugins", kind, f"{name}.py"))


HERE = os.path.dirname(__file__)
"""

SCRIPT = """\
import os
import runpy

if __name__ == "__main__":
    file_path = os.path.join(".", "prompts", "qwen", f"{os.environ['DATA']}.py")
    runpy.run_path(file_path)
"""

FILES = {
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n',
    "pkg/__init__.py": "from pkg.loader import load\n",
    "pkg/loader.py": LOADER,
    "pkg/plugins/fast/one.py": "PROMPT = 1\n",
    "pkg/stale.py": "OLD = 1\n",
    "tests/test_pkg.py": "import pkg\n\n\ndef test_load():\n    assert pkg.load\n",
    "eval/run_eval.py": SCRIPT,
    "eval/prompts/qwen/math.py": "PROMPT = 'x'\n",
    "eval/prompts/qwen/aime.py": "PROMPT = 'y'\n",
    "eval/unused/old.py": "OLD = 2\n",
    "bench/evaluate.py": "import importlib\nimport sys\n\nif __name__ == '__main__':\n"
                         "    module = importlib.import_module(f'{sys.argv[1]}.constants')\n",
    "bench/synthetic/constants.py": "TASKS = {}\n",
}


def test_python_files_a_path_template_names_are_loaded(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f for f in result.findings if f.kind == "unused-file"}
    assert not any(s.startswith("pkg/plugins") for s in found)
    for subject, finding in found.items():
        if subject.startswith("eval/prompts"):
            assert finding.confidence == 30 and "loads it by path" in finding.reason, finding
    assert any(s.startswith("eval/prompts") for s in found)
    assert "bench/evaluate.py:5 loads it by path (**/constants.py)" in found["bench/"].reason
    assert found["eval/unused/"].confidence >= 60
