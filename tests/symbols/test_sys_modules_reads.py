"""A module object taken from ``sys.modules`` by a computed key (``pkg = sys.modules[__name__.rpartition(".")[0]]``)
is a module not known: what is read off it (``pkg.helpers``) may be any module's binding of that name, and a
computed lookup on it (``getattr(pkg.helpers, name)``) reads every name of what it binds. Before, under
``public_api = "roots"`` + ``package_api = false`` the package's ``from . import helpers`` was pruned and
``helpers.py`` left the fork with exit 0: AttributeError (session 41)."""

from __future__ import annotations

import pytest

from tests.soundness.soundkit import shrink_and_run_main

APPS = {
    "subscript": "sys.modules[__name__.rpartition('.')[0]]",
    "get": "sys.modules.get(__name__.rpartition('.')[0])",
}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("app", sorted(APPS))
def test_names_read_off_a_module_from_sys_modules_stay(tmp_path, app, mode):
    files = {"pkg/__init__.py": "from . import helpers  # noqa: F401\n",
             "pkg/helpers.py": "def double(x):\n    return x * 2\n\n\ndef triple(x):\n    return x * 3\n",
             "pkg/app.py": f"import os\nimport sys\n\n\ndef main():\n    pkg = {APPS[app]}\n"
                           "    return getattr(pkg.helpers, os.environ.get('F', 'triple'))(2)\n"}
    _fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "6", done.stderr[-2000:]
