"""Megatron-LM ``1d82259e`` (session 31's open false positive): the root-level ``mamba_builders.py`` only warns
``DeprecationWarning`` on import and re-exports ``hybrid_builders``: a compatibility shim users import until the
deprecation ends, 30 (unknown means keep), not unreached at 60. A module that also defines code is judged as
before."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='meg', packages=['meg'])\n",
    "meg/__init__.py": "def run():\n    return 1\n",
    "tests/test_run.py": "from meg import run\n\n\ndef test_run():\n    assert run() == 1\n",
    "pretrain.py": "from hybrid_builders import hybrid_builder\n\nif __name__ == '__main__':\n    hybrid_builder()\n",
    "hybrid_builders.py": "def hybrid_builder():\n    return 1\n",
    "mamba_builders.py": """
        \"\"\"Backward-compatible re-export of hybrid_builders. Deprecated.\"\"\"
        import warnings

        warnings.warn("mamba_builders has been deprecated. Use hybrid_builders instead.", DeprecationWarning)

        from hybrid_builders import *  # noqa: F401,F403
        from hybrid_builders import hybrid_builder as mamba_builder  # noqa: F401
    """,
    "old_builders.py": """
        import warnings

        from hybrid_builders import hybrid_builder

        warnings.warn("old_builders is deprecated", DeprecationWarning)


        def old_builder():
            return hybrid_builder()
    """,
}


def test_a_deprecated_reexport_shim_is_kept_for_its_users(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert found["mamba_builders.py"] == 30
    assert found["old_builders.py"] >= 60  # it defines code of its own
