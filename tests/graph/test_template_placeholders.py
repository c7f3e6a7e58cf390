"""A template the package fills in at run time names a module through a placeholder (``module = $pkg.plugins.alpha``
read by ``Template(text).substitute(pkg=__package__)``; ``{pkg}``, ``%(pkg)s``, ``{{ pkg }}`` alike): the placeholder
may stand for the package or one above it, so a name that reaches a module below it keeps that module. Before
(session 45) the text named no module by itself: ``plugins/alpha.py``, imported otherwise only by code no root
reaches, left the fork and the import failed, exit 0."""

from __future__ import annotations

import pytest

from tests.soundness.soundkit import shrink_and_run_main

TEMPLATES = {
    "dollar": ("module = $pkg.plugins.alpha\n", "Template(text).substitute(pkg=__package__)"),
    "braces": ("module = {pkg}.plugins.alpha\n", "text.format(pkg=__package__)"),
    "percent": ("module = %(pkg)s.plugins.alpha\n", "text % {'pkg': __package__}"),
}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("kind", sorted(TEMPLATES))
def test_a_module_a_template_names_through_a_placeholder_stays(tmp_path, kind, mode):
    template, fill = TEMPLATES[kind]
    app = ("import importlib\nfrom pathlib import Path\nfrom string import Template\n\n\ndef main():\n"
           "    text = (Path(__file__).parent / 'cmd.tmpl').read_text()\n"
           f"    line = {fill}\n"
           "    return importlib.import_module(line.split('=', 1)[1].strip()).VALUE\n")
    files = {"pkg/__init__.py": "", "pkg/plugins/__init__.py": "", "pkg/plugins/alpha.py": "VALUE = 'alpha'\n",
             "pkg/plugins/beta.py": "VALUE = 'beta'\n", "pkg/app.py": app, "pkg/cmd.tmpl": template,
             "pkg/legacy.py": "import pkg.plugins.alpha\nimport pkg.plugins.beta\nALL = True\n",
             "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_legacy():\n    assert legacy.ALL\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "alpha", done.stderr[-2000:]
    assert not (fork / "pkg/plugins/beta.py").exists()
