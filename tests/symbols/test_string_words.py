"""A package's name as a word of a longer string (``"pip install pkg[extra]"``, a URL, ``"<pkg routing>"``) is no
lookup of the package by name: its unused names are pruned. A string that is the name alone
(``NAME = "pkg"``, ``import_module("pkg")``) still keeps every name of it, but not one written as a logger's name
(``getLogger("pkg")``, session 37) (werkzeug, bleach, validators). ``globals()`` handed to ``__import__`` (werkzeug's
``import_string``) is no read of the module's names."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

SPEC = 'source = "."\nroots = ["wapp.main"]\n\n[symbols]\npublic_api = "roots"\npackage_api = false\n'
FILES = {
    "pyproject.toml": '[project]\nname = "wordpkg"\nversion = "1"\n',
    "src/wapp/__init__.py": "",
    "src/wpkg/__init__.py": "def used():\n    return 1\n\n\ndef helper():\n    return 2\n",
    "src/wapp/hints.py": 'HINT = "pip install wpkg[fast] or see https://example.org/wpkg"\n',
    "src/wapp/main.py": "import wpkg\nfrom wapp.hints import HINT\n\n\ndef main():\n    return wpkg.used(), HINT\n",
}


def _pruned(tmp_path, files):
    analysis = analyse(write_project(tmp_path, files, SPEC) / "slimfork.toml", jobs=1)
    return {n for p in analysis.stages.symbols.pruned for n in p.names}


def test_a_word_of_a_longer_string_keeps_nothing_whole(tmp_path):
    assert "helper" in _pruned(tmp_path, FILES)


def test_the_name_alone_still_keeps_every_name(tmp_path):
    main = FILES["src/wapp/main.py"].replace("import wpkg\n", "import wpkg\nfrom wapp.logs import LOG\n")
    files = {**FILES, "src/wapp/main.py": main.replace("HINT\n", "HINT, LOG\n"),
             "src/wapp/logs.py": 'import logging\n\nNAME = "wpkg"\nLOG = logging.getLogger(NAME)\n'}
    assert "helper" not in _pruned(tmp_path / "a", files)
    # a logger's name written in the call is a label (session 37: httpx's getLogger("httpx")), no lookup
    files["src/wapp/logs.py"] = 'import logging\n\nLOG = logging.getLogger("wpkg")\n'
    assert "helper" in _pruned(tmp_path / "b", files)


def test_globals_handed_to_import_reads_no_name(tmp_path):
    files = {**FILES, "src/wpkg/__init__.py": FILES["src/wpkg/__init__.py"]
             + "\n\ndef import_string(name):\n    return __import__(name, globals(), None, ['x'])\n"}
    pruned = _pruned(tmp_path, files)
    assert {"helper", "import_string"} <= pruned
