"""A file that spells a platform fact but keeps it is never silent: every such mention has a reason."""

from __future__ import annotations

from slimfork.facts import parse_facts
from slimfork.rewrite import fold_tree
from slimfork.rewrite.safety import does_not_compile


def _fold(tmp_path, source: str):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "mod.py").write_text(source)
    modules = {"pkg/__init__.py": "pkg", "pkg/mod.py": "pkg.mod"}
    return fold_tree(tmp_path, modules, parse_facts({"sys_platform": "linux"}), jobs=1)


def test_rebound_and_shadowed_names_are_reported(tmp_path):
    report = _fold(tmp_path, 'import sys\nif sys.platform == "win32":\n    X = 1\nsys = None\n\n\n'
                             'def f(sys):\n    return sys.platform == "win32"\n')
    mod = next(f for f in report.files if f.path == "pkg/mod.py")
    assert not mod.changed
    assert [line for line, _ in mod.unresolved] == [2, 8]
    assert "bound more than once" in mod.unresolved[0][1] and "local name" in mod.unresolved[1][1]
    text = report.to_markdown()
    assert "2 mentions not folded" in text and "pkg/mod.py:8" in text


def test_folded_mentions_are_not_reported(tmp_path):
    report = _fold(tmp_path, 'import sys\n\n\n@decorate(\n    sys.platform == "win32",\n)\ndef f():\n    pass\n')
    mod = next(f for f in report.files if f.path == "pkg/mod.py")
    assert mod.changed and not mod.unresolved and not report.unmatched


def test_a_rewrite_that_does_not_compile_names_the_source_line():
    old = "import platform\n\nx = 1\nA = platform.system() +\\\n    'x'\n"
    new = "x = 1\nA = 'Linux' +\n"
    try:
        compile(new, "m.py", "exec")
    except SyntaxError as exc:
        why = does_not_compile(old, new, exc)
    assert "line 4" in why and "`A = 'Linux' +`" in why
