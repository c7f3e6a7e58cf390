"""A test importing a module the build compiles from a Cython source (yarl 1.9.4's ``tests/test_quoting.py``:
``from yarl._quoting_c import _Quoter``, built from ``yarl/_quoting_c.pyx``) was an orphaned test at 85,
"imports what does not exist"; so would one importing an extension whose only trace is its ``.pyi`` stub."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.audit.tests import compiled_sources
from slimfork.source.layout import open_tree

FILES = {
    "pkg/__init__.py": "from pkg._speed import fast\n",
    "pkg/_speed.pyx": "def fast():\n    return 1\n",
    "pkg/_other.pyi": "def other() -> int: ...\n",
    "pkg/typed.py": "X = 1\n",
    "pkg/typed.pyi": "X: int\n",
    "tests/test_speed.py": "from pkg._speed import fast\nfrom pkg._other import other\n\n"
                           "def test_fast():\n    assert fast() == 1\n",
    "tests/test_gone.py": "from pkg._missing import nothing\n\ndef test_gone():\n    pass\n",
}


def test_compiled_modules_are_no_missing_imports(tmp_path):
    for rel, text in FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    findings = {f.subject: f for f in run_audit(open_tree(tmp_path))[0].findings if f.kind == "orphaned-test"}
    assert "tests/test_speed.py" not in findings
    assert findings["tests/test_gone.py"].confidence == 85  # what no source builds is still reported


def test_compiled_sources():
    paths = ["pkg/_speed.pyx", "pkg/_other.pyi", "pkg/typed.pyi", "pkg/__init__.pyi", "pkg/data.json"]
    assert compiled_sources(paths, {"pkg/typed.py", "pkg/__init__.py"}) == {"_speed", "_other"}
