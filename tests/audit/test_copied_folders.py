"""A folder a setup script installs by copying it (tutel ``1ed068d^``: ``setup.py`` calls
``user_setup('../../tutel', 'tutel_moe')``, whose body runs ``shutil.copytree(dir_name, path)`` into the user's
site-packages; tests import ``tutel_moe``). The folder has no ``__init__.py`` and nothing imports it by its own
name: it was "unreached" (70), the library itself. Its files are roots; a folder nothing copies stays unreached."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "import os, shutil, site\nfrom setuptools import setup\n\nos.chdir('./lib/custom')\n"
                "setup(name='lib_custom_kernel')\n\n\n"
                "def user_setup(dir_name, site_name):\n"
                "    shutil.copytree(dir_name, os.path.join(site.USER_SITE, site_name))\n\n\n"
                "user_setup('../../lib', 'lib_moe')\n",
    "lib/moe_layer.py": "from .jit import compile_kernel\n\n\ndef layer():\n    return compile_kernel()\n",
    "lib/jit.py": "def compile_kernel():\n    return 1\n",
    "old/moe_layer.py": "def layer():\n    return 2\n",
    "run_test.py": "from lib_moe.moe_layer import layer\n\nif __name__ == '__main__':\n    layer()\n",
}


def test_a_folder_setup_copies_into_site_packages_is_installed(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.path: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert not [p for p in found if p.startswith("lib/")], found
    assert found.get("old/", found.get("old/moe_layer.py", 0)) >= 60
