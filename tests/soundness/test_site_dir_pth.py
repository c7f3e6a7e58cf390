"""``site.addsitedir(folder)`` puts the folder on ``sys.path`` and, for each ``.pth`` file in it, the folders its
path lines list: ``_hooks/extra.pth`` holding ``../_extra``, then ``import extramod`` (``pkg/_extra/extramod.py``).
Before (session 44) neither was read: ``extramod.py`` left the fork, exit 0, in both ``[symbols]`` modes. A module
imported by a bare name from a folder put on ``sys.path`` is read whole: its names are not bound to its module's
dotted name (``extramod.VALUE`` had been pruned once the module stayed)."""

from __future__ import annotations

import pytest

from tests.soundness.soundkit import shrink_and_run_main

SITE = ("import os, site\n\n\ndef main():\n    site.addsitedir(os.path.join(os.path.dirname(__file__), '_hooks'))\n"
        "    import extramod\n    return extramod.VALUE\n")
PATH = ("import os, sys\n\n\ndef main():\n    sys.path.insert(0, os.path.join(os.path.dirname(__file__), '_extra'))\n"
        "    import extramod\n    return extramod.VALUE\n")


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("app", ["site", "path"])
def test_a_module_on_a_folder_put_on_sys_path_stays_whole(tmp_path, app, mode):
    files = {"pkg/__init__.py": "", "pkg/app.py": SITE if app == "site" else PATH,
             "pkg/_hooks/extra.pth": "# extra code\n../_extra\n", "pkg/_extra/extramod.py": "VALUE = 'extra'\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "extra", done.stderr[-2000:]
