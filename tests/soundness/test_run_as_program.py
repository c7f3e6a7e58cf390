"""Packages run as programs keep their ``__main__`` (session 28's adversarial round): ``python -m pkg`` when the
package's ``__main__`` only dispatches to the root, ``runpy.run_module("pkg.tool")`` and
``[sys.executable, "-m", "pkg.tool2"]`` of a package. A computed name with a literal suffix
(``import_module(f"{app}.models")`` over a settings list in another module, Django's ``INSTALLED_APPS``) keeps
every module so named."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "rp"\nversion = "1.0"\n',
    "src/rp/__init__.py": "",
    "src/rp/__main__.py": "from rp.cli import main\n\nmain()\n",
    "src/rp/cli.py": """
        import runpy
        import subprocess
        import sys


        def main():
            runpy.run_module("rp.tool", run_name="__main__")
            subprocess.run([sys.executable, "-m", "rp.tool2"], check=True)
    """,
    "src/rp/tool/__init__.py": "",
    "src/rp/tool/__main__.py": "print('tool')\n",
    "src/rp/tool2/__init__.py": "",
    "src/rp/tool2/__main__.py": "print('tool2')\n",
    "src/rp/other/__init__.py": "",
    "src/rp/other/__main__.py": "print('never run')\n",
}


def test_packages_run_as_programs_keep_their_main(tmp_path):
    project = write_project(tmp_path, FILES, 'source = "."\nroots = ["rp.cli"]\n')
    removed = {r.path for r in analyse(project / "slimfork.toml", jobs=1).plan.removals}
    assert not removed & {"src/rp/__main__.py", "src/rp/tool/__main__.py", "src/rp/tool2/__main__.py"}
    assert "src/rp/other/__main__.py" in removed


def test_a_computed_name_with_a_literal_suffix_keeps_every_module_so_named(tmp_path):
    files = {
        "pyproject.toml": '[project]\nname = "web"\nversion = "1.0"\n',
        "src/web/__init__.py": "",
        "src/web/settings.py": 'INSTALLED_APPS = ["web.apps.blog"]\n',
        "src/web/loader.py": """
            import importlib

            from web import settings


            def load():
                return [importlib.import_module(f"{app}.models") for app in settings.INSTALLED_APPS] + [
                    importlib.import_module(app + ".admin") for app in settings.INSTALLED_APPS]
        """,
        "src/web/apps/__init__.py": "",
        "src/web/apps/blog/__init__.py": "",
        "src/web/apps/blog/models.py": "X = 1\n",
        "src/web/apps/blog/admin.py": "Y = 1\n",
        "src/web/apps/blog/views.py": "Z = 1\n",
    }
    analysis = analyse(write_project(tmp_path, files, 'source = "."\nroots = ["web.loader"]\n') / "slimfork.toml",
                       jobs=1)
    removed = {r.path for r in analysis.plan.removals}
    assert "src/web/apps/blog/views.py" in removed
    assert not removed & {"src/web/apps/blog/models.py", "src/web/apps/blog/admin.py"}
    assert any("ending '.models'" in u.why for u in analysis.plan.uncertain)
