"""``__import__("pkg.plugins", fromlist=NAMES)`` with ``NAMES = ["alpha"]`` a module constant loads
``pkg.plugins.alpha`` as the literal list does; a fromlist computed at run time (a parameter) may name any submodule,
so every module under the name stays. Before (session 45) neither was read: ``plugins/alpha.py``, imported otherwise
only by code no root reaches, left the fork and ``getattr(pkg, "alpha")`` raised AttributeError, exit 0."""

from __future__ import annotations

import pytest

from tests.soundness.soundkit import shrink_and_run_main

MAINS = {
    "constant": "NAMES = ['alpha']\n\n\ndef main():\n    pkg = __import__('pkg.plugins', fromlist=NAMES)\n"
                "    return [getattr(pkg, n).VALUE for n in NAMES]\n",
    "parameter": "def load(names):\n    pkg = __import__('pkg.plugins', None, None, names)\n"
                 "    return [getattr(pkg, n).VALUE for n in names]\n\n\ndef main():\n    return load(['alpha'])\n",
}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("shape", sorted(MAINS))
def test_the_submodules_a_fromlist_names_stay(tmp_path, shape, mode):
    files = {"pkg/__init__.py": "", "pkg/plugins/__init__.py": "", "pkg/plugins/alpha.py": "VALUE = 'alpha'\n",
             "pkg/app.py": MAINS[shape], "pkg/legacy.py": "import pkg.plugins.alpha\nALL = True\n",
             "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_legacy():\n    assert legacy.ALL\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "['alpha']", done.stderr[-2000:]
