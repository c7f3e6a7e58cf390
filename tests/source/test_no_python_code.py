"""A source with no Python package says why when its code is compiled: ciso8601's stubs and C files at the top
did, mmh3 5.3.1's below ``src/`` (``src/mmh3/__init__.pyi``, ``src/mmh3/mmh3module.c``) got "point source (or
python_root) at the folder that holds the packages", which no folder of it does."""

from __future__ import annotations

import pytest

from slimfork.errors import SpecError
from slimfork.source.layout import open_tree


def test_a_src_layout_c_extension_with_stubs_is_named(tmp_path):
    (tmp_path / "src" / "mmh3").mkdir(parents=True)
    (tmp_path / "src" / "mmh3" / "__init__.pyi").write_text("def hash(key: bytes) -> int: ...\n")
    (tmp_path / "src" / "mmh3" / "mmh3module.c").write_text("int x;\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_mmh3.py").write_text("import mmh3\n")
    with pytest.raises(SpecError) as err:
        open_tree(tmp_path)
    assert "its code is not Python: src/mmh3/__init__.pyi, src/mmh3/mmh3module.c" in err.value.hint
    assert "type stubs" in err.value.hint


def test_a_stub_only_package_is_named_as_one(tmp_path):
    """types-six 1.17's sdist holds ``six-stubs/__init__.pyi`` and no code: the hint called it "a compiled extension
    with type stubs"."""
    (tmp_path / "six-stubs" / "moves").mkdir(parents=True)
    (tmp_path / "six-stubs" / "__init__.pyi").write_text("def b(s: str) -> bytes: ...\n")
    (tmp_path / "six-stubs" / "moves" / "__init__.pyi").write_text("")
    with pytest.raises(SpecError) as err:
        open_tree(tmp_path)
    assert "it holds type stubs only: six-stubs/__init__.pyi (a stub-only package, PEP 561" in err.value.hint
    assert "compiled" not in err.value.hint
