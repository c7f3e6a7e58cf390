"""Dynamic imports whose name starts with a value a loop gives: ``for package in self.packages:
import_module(package + name)`` (docutils' language modules, where a subclass in another module binds
``packages`` to its own prefix) and ``for p in ("pkg.a.", "pkg.b."): import_module(p + name)``. Every module
under each prefix stays; what no prefix names still goes."""

from __future__ import annotations

import subprocess
import sys

from tests.mapping.registrykit import write_project

from slimfork.api import analyse, shrink

FILES = {
    "pkg/__init__.py": "",
    "pkg/languages/__init__.py": """
        from importlib import import_module


        class LanguageImporter:
            packages = ("pkg.languages.", "")

            def __call__(self, name):
                for package in self.packages:
                    try:
                        return import_module(package + name)
                    except ImportError:
                        continue
                raise LookupError(name)


        get_language = LanguageImporter()
        """,
    "pkg/languages/de.py": "hello = 'hallo'\n",
    "pkg/languages/fr.py": "hello = 'bonjour'\n",
    "pkg/rst/__init__.py": "",
    "pkg/rst/languages/__init__.py": """
        from pkg.languages import LanguageImporter


        class RstLanguageImporter(LanguageImporter):
            packages = ("pkg.rst.languages.", "")


        get_language = RstLanguageImporter()
        """,
    "pkg/rst/languages/de.py": "note = 'Hinweis'\n",
    "pkg/codecs/__init__.py": """
        from importlib import import_module


        def load(name):
            for start in ("pkg.codecs.builtin.", "pkg.codecs.extra."):
                try:
                    return import_module(start + name)
                except ImportError:
                    pass
        """,
    "pkg/codecs/builtin/__init__.py": "",
    "pkg/codecs/builtin/utf.py": "NAME = 'utf'\n",
    "pkg/codecs/extra/__init__.py": "",
    "pkg/codecs/extra/rot.py": "NAME = 'rot'\n",
    "pkg/unused.py": "X = 1\n",
    "pkg/cli.py": """
        import sys

        from pkg.codecs import load
        from pkg.rst.languages import get_language

        print(get_language(sys.argv[1]).note, load(sys.argv[2]).NAME)
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]
"""


def test_modules_under_every_start_a_loop_gives_stay(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = shrink(root / "slimfork.toml", tmp_path / "fork", jobs=1, verify=False).out
    for rel in ("pkg/languages/de.py", "pkg/languages/fr.py", "pkg/rst/languages/de.py",
                "pkg/codecs/builtin/utf.py", "pkg/codecs/extra/rot.py"):
        assert (fork / rel).is_file(), rel
    assert not (fork / "pkg/unused.py").exists()
    for args in (["de", "utf"], ["de", "rot"]):
        done = subprocess.run([sys.executable, "-m", "pkg.cli", *args], cwd=fork, capture_output=True, text=True)
        assert done.returncode == 0 and done.stdout.startswith("Hinweis"), done.stderr


def test_the_places_are_uncertain_with_what_they_keep(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    analysis = analyse(root / "slimfork.toml", jobs=1)
    places = {u.path: u for u in analysis.plan.uncertain}
    codecs = {m for u in analysis.plan.uncertain if u.path == "pkg/codecs/__init__.py" for m in u.kept}
    languages = places["pkg/languages/__init__.py"]
    assert "self.packages" in languages.why and "'pkg.rst.languages.'" in languages.why
    assert {"pkg.languages.de", "pkg.rst.languages.de"} <= set(languages.kept)
    assert codecs >= {"pkg.codecs.builtin.utf", "pkg.codecs.extra.rot"}  # one place per start
