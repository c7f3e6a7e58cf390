"""The library packages are what the build installs, where its configuration says: typer 0.29.2's tests import
``docs_src`` (the docs' examples, which pdm-backend's ``source-includes`` puts in the sdist only), and the audit
called its modules "public modules of the library package docs_src" at 30-40, as users might import them."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

PYPROJECT = ('[project]\nname = "kit"\nversion = "1"\n[build-system]\nrequires = ["pdm-backend"]\n'
             'build-backend = "pdm.backend"\n[tool.pdm.build]\nsource-includes = ["tests/", "docs_src/"]\n')
FILES = {
    "kit/__init__.py": "from kit.core import run\n",
    "kit/core.py": "def run():\n    return 1\n",
    "kit/extra.py": "def more():\n    return 2\n",
    "docs_src/__init__.py": "",
    "docs_src/first/__init__.py": "",
    "docs_src/first/tutorial001.py": "from kit import run\n\ndef main():\n    return run()\n",
    "docs_src/first/tutorial002.py": "def unused():\n    return 3\n",
    "tests/test_docs.py": "import kit\nfrom docs_src.first import tutorial001\n\n"
                          "def test_main():\n    assert tutorial001.main() == 1\n",
}


def _public(tmp_path, pyproject: str) -> dict[str, str]:
    root = write_project(tmp_path, {"pyproject.toml": pyproject, **FILES}, "")
    return {f.path: f.reason for f in run_audit(open_tree(root))[0].findings
            if f.kind == "unused-file" and "public module of the library" in f.reason}


def test_a_package_the_build_leaves_out_is_no_library(tmp_path):
    public = _public(tmp_path, PYPROJECT)
    assert not [p for p in public if p.startswith("docs_src/")], public
    assert "kit/extra.py" in public, public  # the installed package's unused public module stays public


def test_without_a_build_list_the_tests_imports_decide(tmp_path):
    public = _public(tmp_path, '[project]\nname = "kit"\nversion = "1"\n')  # setuptools' defaults: unknown
    assert [p for p in public if p.startswith("docs_src/")], public


def test_a_test_only_module_of_a_package_the_build_leaves_out_is_no_public_api(tmp_path):
    """Its ``__init__`` imports none of its modules, which for an installed package says users import them one by
    one ("public API?", 30); typer's 97 ``docs_src`` examples, run only by its tests, were reported so."""
    root = write_project(tmp_path, {"pyproject.toml": PYPROJECT, **FILES}, "")
    found = {f.path: f for f in run_audit(open_tree(root))[0].findings if f.kind == "unused-file"}
    folder = found["docs_src/first/"]  # reached only from the tests, with the test that goes with it
    assert "public API?" not in folder.reason and folder.confidence == 50, (folder.confidence, folder.reason)
