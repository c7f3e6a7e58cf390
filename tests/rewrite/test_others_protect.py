"""A name that only a deleted branch used is removed by the fold's clean-up, unless a module the fork deletes only
later (a dropped test, an unreachable module) still imports it: the folded batch is checked while that module is
still there, so removing the name would fail the imports check and cost the whole file's fold."""

from __future__ import annotations

from slimfork.facts import parse_facts
from slimfork.rewrite import fold_tree

MOD = '''from pkg.plat import is_npu


def _npu_helper():
    return "npu"


def run():
    if is_npu():
        return _npu_helper()
    return "cuda"
'''


def _tree(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "plat.py").write_text("def is_npu():\n    return False\n")
    (tmp_path / "pkg" / "mod.py").write_text(MOD)
    (tmp_path / "pkg" / "test_mod.py").write_text("from pkg.mod import _npu_helper\n\nassert _npu_helper()\n")
    return {"pkg/__init__.py": "pkg", "pkg/plat.py": "pkg.plat", "pkg/mod.py": "pkg.mod"}


def test_a_name_a_later_deleted_module_imports_stays(tmp_path):
    modules = _tree(tmp_path)
    facts = parse_facts({"functions": {"pkg.plat.is_npu": False}})
    report = fold_tree(tmp_path, modules, facts, jobs=1, others={"pkg/test_mod.py": "pkg.test_mod"})
    text = (tmp_path / "pkg" / "mod.py").read_text()
    assert "def _npu_helper" in text and "if is_npu()" not in text and 'return "cuda"' in text
    assert report.changed and not report.failures


def test_without_such_a_module_the_name_goes(tmp_path):
    modules = _tree(tmp_path)
    facts = parse_facts({"functions": {"pkg.plat.is_npu": False}})
    fold_tree(tmp_path, modules, facts, jobs=1)
    assert "_npu_helper" not in (tmp_path / "pkg" / "mod.py").read_text()


IMPORTERS = {
    "in a function": "def use():\n    from pkg.mod import _npu_helper\n    return _npu_helper()\n",
    "in a try of a method": "class T:\n    def use(self):\n        try:\n            from .mod import _npu_helper\n"
                            "        except ImportError:\n            return None\n        return _npu_helper()\n",
    "in a match arm": "def use(x):\n    match x:\n        case 1:\n            from pkg.mod import _npu_helper\n"
                      "            return _npu_helper()\n",
}


def test_an_import_in_any_scope_of_another_module_protects_the_name(tmp_path):
    """The other module's imports come from its summary: every import statement, whatever scope or block holds it."""
    for i, (where, text) in enumerate(IMPORTERS.items()):
        root = tmp_path / str(i)
        root.mkdir()
        modules = _tree(root)
        (root / "pkg" / "test_mod.py").write_text(text)
        facts = parse_facts({"functions": {"pkg.plat.is_npu": False}})
        fold_tree(root, modules, facts, jobs=1, others={"pkg/test_mod.py": "pkg.test_mod"})
        assert "def _npu_helper" in (root / "pkg" / "mod.py").read_text(), where
