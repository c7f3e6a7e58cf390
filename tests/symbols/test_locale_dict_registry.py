"""A locale table in a package ``__init__`` (num2words: ``from . import (lang_EN, lang_FR, ...)`` and
``CONVERTER_CLASSES = {"en": lang_EN.Num2Word_EN(), "fr": lang_FR.Num2Word_FR()}``): cutting the dict to the kept
keys takes the imports only the removed entries named, and with them the language modules, although the
``__init__`` is the package's API, the package and its submodules import each other, and the modules fill their
own tables at import (``T[108] = {...}``, ``T[110] = T[10].copy()``)."""

from __future__ import annotations

import subprocess
import sys

from tests.mapping.registrykit import write_project

from slimfork.api import shrink
from slimfork.cli import main

FILES = {
    "pkg/__init__.py": """
        from . import (lang_en, lang_fr, lang_fi)

        CONVERTERS = {
            "en": lang_en.Words(),
            "fr": lang_fr.Words(),
            "fi": lang_fi.Words(),
        }


        def words(n, lang="en"):
            if lang not in CONVERTERS:
                raise NotImplementedError(lang)
            return CONVERTERS[lang].say(n)
        """,
    "pkg/base.py": "class Base:\n    def say(self, n):\n        return self.NAMES[n]\n",
    "pkg/lang_eu.py": "from pkg.base import Base\n\n\nclass EU(Base):\n    pass\n",
    "pkg/lang_en.py": "from . import lang_eu\n\n\nclass Words(lang_eu.EU):\n    NAMES = {1: 'one'}\n",
    "pkg/lang_fr.py": "from .lang_eu import EU\n\n\nclass Words(EU):\n    NAMES = {1: 'un'}\n",
    "pkg/lang_fi.py": """
        from pkg.base import Base

        TABLE = {10: {"nom": "a"}, 32: {"nom": "b"}}
        TABLE[108] = {c: TABLE[10][c] for c in TABLE[10]}
        TABLE[110] = TABLE[10].copy()
        TABLE[110]["nom"] = "c"


        class Words(Base):
            NAMES = {1: TABLE[110]["nom"]}
        """,
    "tests/test_words.py": """
        from pkg import words


        def test_en():
            assert words(1) == "one"
        """,
}
SPEC = """
source = "."
roots = ["pkg"]
tests = ["tests"]

[[registries]]
package = "pkg.CONVERTERS"
kind = "dict"
keep = ["en"]
"""


def test_the_cut_takes_the_removed_languages_modules(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    out = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=out, verify=False)
    assert sorted(p.name for p in (out / "pkg").glob("*.py")) == ["__init__.py", "base.py", "lang_en.py", "lang_eu.py"]
    assert "from . import (lang_en)" in (out / "pkg/__init__.py").read_text()
    run = subprocess.run([sys.executable, "-c", "import pkg; print(pkg.words(1))"], cwd=out, capture_output=True,
                         text=True)
    assert run.stdout.strip() == "one", run.stderr


def test_a_module_filling_a_table_it_does_not_own_keeps_its_import(tmp_path):
    files = dict(FILES)
    files["pkg/lang_fi.py"] = "import pkg.base\n\npkg.base.Base.NAMES = {}\nWords = pkg.base.Base\n"
    root = write_project(tmp_path, files, SPEC)
    shrink(root / "slimfork.toml", out=tmp_path / "fork", verify=False)
    assert (tmp_path / "fork/pkg/lang_fi.py").is_file()  # loading it changes pkg.base.Base: unknown means keep
    assert "lang_fi" in (tmp_path / "fork/pkg/__init__.py").read_text()


def test_init_drafts_a_dict_of_instances(tmp_path, capsys):
    root = write_project(tmp_path, FILES, SPEC)
    assert main(["init", str(root), "--out", str(tmp_path / "d.toml"), "--json"]) == 0
    capsys.readouterr()
    text = (tmp_path / "d.toml").read_text()
    assert '# package = "pkg.CONVERTERS"' in text and '#   "fr",' in text


def test_module_level_global_and_reimport_of_a_table(tmp_path):
    """``global`` at module level (legal, names as strings) and a table rebound by an import are no own table."""
    from slimfork.index import summarize

    source = b"global T\nT = {}\nT[1] = 2\nfrom x import T\nT[2] = 3\n"
    summary = summarize(source).symbols
    fills = [st for st in summary.statements if st.line in (3, 5)]
    assert fills[0].kind == "assign" and fills[0].binds == ("T",)  # fills its own dict
    assert fills[1].effect  # T is the imported one now: may change another object
