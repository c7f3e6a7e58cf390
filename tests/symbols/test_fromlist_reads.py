"""``__import__("pkg.plugins", globals(), locals(), ["alpha"]).alpha.VALUE``: the submodule a literal ``fromlist``
names is imported by name and read whole. Before (session 43), the graph kept ``pkg/plugins/alpha.py`` but with
``public_api = "roots"`` the symbol stage saw no binding of ``alpha`` and pruned ``VALUE``: AttributeError, exit 0.
A ``fromlist`` entry that is a name of the module (``__version__``) is no missing import."""

from __future__ import annotations

import pytest

from tests.soundness.soundkit import shrink_and_run_main

FILES = {
    "pkg/__init__.py": "__version__ = '1.0'\n",
    "pkg/app.py": "def main():\n    v = __import__('pkg', fromlist=['__version__']).__version__\n"
                  "    return __import__('pkg.plugins', globals(), locals(), ['alpha']).alpha.VALUE + v\n",
    "pkg/plugins/__init__.py": "",
    "pkg/plugins/alpha.py": "VALUE = 'alpha'\n",
}


@pytest.mark.parametrize("mode", ["default", "roots"])
def test_a_submodule_a_literal_fromlist_names_keeps_its_names(tmp_path, mode):
    fork, done = shrink_and_run_main(tmp_path, FILES, mode)
    assert done.stdout.strip() == "alpha1.0", done.stderr[-2000:]
    report = (tmp_path / "fork.report" / "report.md").read_text()
    assert "Imports already missing in the original (0)" in report
