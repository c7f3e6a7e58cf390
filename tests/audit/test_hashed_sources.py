"""Session 34 (quack ``05e680a^``, ``8288fc6^``): a function of the module handed the package's own folder
(``_hash_source_dir(h, Path(__file__).resolve().parent)``) that only reads the ``.py`` files below it, to hash
them into a cache key, loads none of them: it kept every module of ``quack`` reached, so the deleted
``gemm_wrapper_utils.py`` (and four vestigial ``gemm_*.py`` only tests used) were not reported at all. A helper
that imports what it lists, returns the listing, or hands the folder to another function still keeps them."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

BASE = {
    "pyproject.toml": '[project]\nname = "fastk"\nversion = "1"\n',
    "fastk/__init__.py": "from fastk.cache_utils import fingerprint\nfrom fastk.gemm import gemm\n",
    "fastk/gemm.py": "def gemm(a, b):\n    return a\n",
    "fastk/old_wrapper.py": "def wrap(a):\n    return a\n",
    "tests/test_gemm.py": """
        from fastk import gemm
        from fastk.cache_utils import fingerprint


        def test_gemm():
            assert gemm(1, 2) == 1 and fingerprint()
    """,
}

HASHING = """
    import hashlib
    from pathlib import Path


    def _hash_source_dir(h, root: Path) -> None:
        for src in sorted(root.rglob("*.py")):
            if not src.is_file():
                continue
            h.update(src.relative_to(root).as_posix().encode())
            content = src.read_bytes()
            h.update(len(content).to_bytes(8, "little"))
            h.update(content)


    def fingerprint() -> str:
        h = hashlib.sha256()
        _hash_source_dir(h, Path(__file__).resolve().parent)
        return h.hexdigest()
"""

LOADING = """
    import importlib
    from pathlib import Path


    def _load_all(root: Path) -> None:
        for src in sorted(root.rglob("*.py")):
            importlib.import_module("fastk." + src.stem)


    def fingerprint() -> str:
        _load_all(Path(__file__).resolve().parent)
        return "x"
"""

RETURNING = """
    from pathlib import Path


    def _sources(root: Path):
        return sorted(root.rglob("*.py"))


    def fingerprint() -> str:
        return str(_sources(Path(__file__).resolve().parent))
"""


COLLECTING = """
    import importlib
    from pathlib import Path

    FOUND = []


    def _collect(root: Path, out) -> None:
        for src in sorted(root.rglob("*.py")):
            out.append(src.stem)


    def fingerprint() -> str:
        _collect(Path(__file__).resolve().parent, FOUND)
        for name in FOUND:
            importlib.import_module("fastk." + name)
        return "x"
"""


def _unused(tmp_path, helper):
    files = {**BASE, "fastk/cache_utils.py": helper}
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    return {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}


def test_a_folder_hashed_as_data_keeps_nothing(tmp_path):
    assert "fastk/old_wrapper.py" in _unused(tmp_path, HASHING)


def test_a_folder_whose_modules_are_imported_keeps_them(tmp_path):
    assert "fastk/old_wrapper.py" not in _unused(tmp_path, LOADING)


def test_a_listing_handed_back_keeps_them(tmp_path):
    assert "fastk/old_wrapper.py" not in _unused(tmp_path, RETURNING)


def test_a_listing_collected_for_the_caller_keeps_them(tmp_path):
    assert "fastk/old_wrapper.py" not in _unused(tmp_path, COLLECTING)


def test_reads_only_tells_hashing_from_collecting():
    import ast
    import textwrap

    from slimfork.index.scans import _reads_only

    def first_function(text):
        return next(n for n in ast.parse(textwrap.dedent(text)).body if isinstance(n, ast.FunctionDef))

    assert _reads_only(first_function(HASHING))
    assert not _reads_only(first_function(COLLECTING))
    assert not _reads_only(first_function(LOADING))
    assert not _reads_only(first_function(RETURNING))
