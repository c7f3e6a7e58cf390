"""A dict of instances of one class is data, not a registry of implementations: cutting one of its entries frees
no line of the class the others still make. bitarray 3.0.0's draft suggested cutting each of 28 entries of
``alphabet_code = {" ": bitarray("001"), ...}`` at 7,639 lines each (the whole package, 213,892 "lines" in all),
and from a test module at that. An entry counts another module's lines only where no other entry names it, and
a test module's tables are never suggested."""

from __future__ import annotations

import json
import textwrap

from slimfork.cli import main

FILES = {
    "pkg/__init__.py": "from pkg.core import Bits\n",
    "pkg/core.py": "class Bits:\n    def __init__(self, text):\n        self.text = text\n" + "X = 1\n" * 40,
    "pkg/en.py": "class En:\n    pass\n" + "A = 1\n" * 10,
    "pkg/fr.py": "class Fr:\n    pass\n" + "B = 1\n" * 20,
    "pkg/tables.py": """
        from pkg.core import Bits
        from pkg.en import En
        from pkg.fr import Fr

        CODES = {"a": Bits("01"), "b": Bits("10"), "c": Bits("11")}
        LANGS = {"en": En(), "fr": Fr()}
        """,
    "pkg/test_tables.py": """
        from pkg.en import En
        from pkg.fr import Fr

        CASES = {"en": En(), "fr": Fr()}
        """,
}


def test_a_dict_of_one_class_counts_no_module_lines_and_test_tables_are_left_out(tmp_path, capsys):
    for rel, text in FILES.items():
        (tmp_path / "p" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "p" / rel).write_text(textwrap.dedent(text).lstrip())
    assert main(["init", str(tmp_path / "p"), "--json"]) == 0
    regs = {r["package"]: r["entries"] for r in json.loads(capsys.readouterr().out)["registries"]}
    assert regs["pkg.tables.CODES"] == {"a": 1, "b": 1, "c": 1}  # the call itself: Bits stays for the others
    assert regs["pkg.tables.LANGS"] == {"en": 1 + 12, "fr": 1 + 22}  # each its own module
    assert "pkg.test_tables.CASES" not in regs
