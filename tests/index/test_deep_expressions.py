"""A file that parses but nests deeper than the index's recursive visitors go (asttokens' test data
``joined_strings.py``: one string of 1,400 ``+`` terms) is kept as unparsable, with a warning; before, the
RecursionError stopped the whole run (session 31)."""

from __future__ import annotations

from slimfork.api import analyse
from slimfork.index.parse import summarize
from tests.mapping.registrykit import write_project

DEEP = "x = ('a'\n" + "".join("     + 'b'\n" for _ in range(1400)) + ")\n"


def test_a_deep_expression_is_an_error_of_its_file_not_of_the_run():
    summary = summarize(DEEP.encode())
    assert summary.error and "RecursionError" in summary.error


def test_the_file_is_kept_and_the_rest_analysed(tmp_path):
    files = {"pkg/__init__.py": "", "pkg/core.py": "X = 1\n", "pkg/gone.py": "Y = 2\n", "pkg/data/deep.py": DEEP}
    spec = 'source = "."\npackages = ["pkg"]\nroots = ["pkg.core"]\n'
    analysis = analyse(write_project(tmp_path, files, spec) / "slimfork.toml", jobs=1)
    kept = {k.path: k for k in analysis.plan.kept}
    assert "pkg/data/deep.py" in kept and "pkg/gone.py" not in kept
    assert any(w.startswith("pkg/data/deep.py: cannot analyse") for w in analysis.plan.warnings)
