"""Session 47 (session 46's leftover, aphrodite ``4593a3b3^``): ``sampler.py`` imports ``ops/sample.py`` (under
``if HAS_TRITON:``) and reads it only in ``_sample_with_triton_kernel``, a private function nothing calls (an
unused symbol at 60); ``ops/sample.py`` imports ``ops/rand.py``. The clean-up deleted both; the audit reported
only the function. A module whose importers read it only in unused code, or are such modules, is reported at 50;
its own tests do not keep it, and one live read does."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='pk', packages=['pk'])\n",
    "pk/__init__.py": "from .sampler import sample\n",
    "pk/flags.py": "HAS_FAST = True\n",
    "pk/sampler.py": """
        from pk.flags import HAS_FAST

        if HAS_FAST:
            from pk.ops.fast import fast_sample


        def sample(x):
            return x


        def _sample_fast(x):
            return fast_sample(x)
    """,
    "pk/ops/__init__.py": "",
    "pk/ops/fast.py": "from pk.ops.rand import uniform\n\n\ndef fast_sample(x):\n    return uniform(x)\n",
    "pk/ops/rand.py": "def uniform(x):\n    return x\n",
    "tests/test_pk.py": "from pk import sample\n\n\ndef test_sample():\n    assert sample(1) == 1\n",
    "tests/test_fast.py": "from pk.ops.fast import fast_sample\n\n\ndef test_fast():\n    assert fast_sample(1)\n",
}


def _unused_files(files: dict[str, str], tmp_path) -> dict:
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    return {f.subject: f for f in result.findings if f.kind in ("unused-file", "unused-symbol", "orphaned-test")}


def test_a_module_only_dead_code_reads_is_unused_with_what_only_it_imports(tmp_path):
    found = _unused_files(FILES, tmp_path)
    assert found["pk/sampler.py::_sample_fast"].confidence == 60
    assert found["pk/ops/fast.py"].confidence == 50
    assert "read only in unused _sample_fast" in found["pk/ops/fast.py"].reason
    assert found["pk/ops/rand.py"].confidence == 50
    assert "pk/ops/fast.py (itself unused)" in found["pk/ops/rand.py"].reason
    assert "pk/flags.py" not in found and "pk/ops/__init__.py" not in found
    assert found["tests/test_fast.py"].confidence == 50  # it tests only what nothing else uses
    assert "tests/test_pk.py" not in found


def test_one_live_read_keeps_the_chain(tmp_path):
    live = FILES["pk/sampler.py"].replace("    return x\n", "    return fast_sample(x)\n", 1)
    files = {**FILES, "pk/sampler.py": live}
    found = _unused_files(files, tmp_path)
    assert "pk/sampler.py::_sample_fast" in found
    assert "pk/ops/fast.py" not in found and "pk/ops/rand.py" not in found and "tests/test_fast.py" not in found
