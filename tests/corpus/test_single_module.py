"""A real single-module project (slow, downloads its sdist from PyPI): jsonpointer is one file, ``jsonpointer.py``,
with its tests in a top-level ``tests.py``. Before session 33 slimfork refused it ("no Python package found"); now
the verified fork keeps the module, and every test that passed on the original passes on the fork."""

from __future__ import annotations

import pytest

from slimfork.corpus.run import render_table, run_profile


@pytest.mark.slow
def test_jsonpointer_fork_passes_its_suite(tmp_path):
    spec = tmp_path / "jsonpointer.toml"
    spec.write_text('source = "pypi:jsonpointer==3.0.0"\ndist = "sdist"\nroots = ["jsonpointer"]\n\n'
                    '[symbols]\n\n[checks.pytest]\ntests = ["tests.py"]\n')
    row = run_profile(spec, tmp_path, jobs=1)
    print(render_table([row]))
    assert row.new_failures == [] and row.tests_before >= 20
    assert row.tests_after >= row.tests_before - row.tests_removed
    fork = tmp_path / "jsonpointer-fork"
    assert (fork / "jsonpointer.py").is_file() and (fork / "tests.py").is_file()
