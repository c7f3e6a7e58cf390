"""[facts.expressions]: facts about expressions by their source text, matched by normalized syntax tree."""

from __future__ import annotations

import pytest

from slimfork.errors import SpecError
from slimfork.facts import parse_facts
from slimfork.facts.expressions import normalize
from slimfork.rewrite import fold_tree


def test_spacing_quotes_and_parentheses_do_not_matter():
    assert normalize('"a" in  sys.modules') == normalize("('a' in sys.modules)")
    assert normalize("not x and (y\n or z)") == normalize("not x and (y or z)")
    assert normalize('"a" in sys.modules') != normalize('"b" in sys.modules')


@pytest.mark.parametrize("raw, words", [
    ({"expressions": {"x in": False}}, "is not a Python expression"),
    ({"expressions": {"x = 1": False}}, "is not a Python expression"),
    ({"expressions": {"a in b": [1]}}, "expected a boolean"),
    ({"expressions": {"a  in b": True, "(a in b)": True}}, "declared twice"),
])
def test_spec_errors(raw, words):
    with pytest.raises(SpecError) as info:
        parse_facts(raw, "facts")
    assert info.value.key.startswith("facts.expressions.")
    assert words in info.value.message and info.value.hint


def test_unknown_never_folds_and_unmatched_is_reported(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    source = 'import sys\nif "b" in sys.modules:\n    X = 1\nif "a" in sys.modules:\n    Y = 1\n'
    (tmp_path / "pkg" / "mod.py").write_text(source)
    facts = parse_facts({"expressions": {"'a' in sys.modules": False, "'c' in sys.modules": True}}, "facts")
    report = fold_tree(tmp_path, {"pkg/__init__.py": "pkg", "pkg/mod.py": "pkg.mod"}, facts, jobs=1)
    assert (tmp_path / "pkg" / "mod.py").read_text() == 'import sys\nif "b" in sys.modules:\n    X = 1\n'
    assert [f.key for f in report.unmatched] == ["facts.expressions.'c' in sys.modules"]
    assert report.fact_matches()["facts.expressions.'a' in sys.modules"] == [("pkg/mod.py", 4)]
