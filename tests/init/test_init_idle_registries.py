"""A registry whose cut frees no line is a note, not a suggestion: ijson 3.3.0's ``@ffi.callback("int(void
*ctx)")`` functions are listed again in a table of callbacks (each definition stays whatever ``keep`` says), yet
the draft offered "20 lines" for a cut of the first key; inflection 0.5.1's irregular-word calls name no module
(session 36). A decorator registry whose definitions nothing else names is suggested as before. (The keys here are
names: a C signature with spaces is no registry key at all since session 47.)"""

from __future__ import annotations

import json
import re
import textwrap

from slimfork.cli import main

FILES = {
    "pkg/__init__.py": "",
    "pkg/hooks.py": "def callback(sig):\n    return lambda f: f\n\n\ndef register(key):\n    return lambda f: f\n",
    "pkg/table.py": """
        from pkg.hooks import callback, register


        @callback("int_ctx")
        def null():
            return 1


        @callback("int_ctx_val")
        def boolean(val):
            return val


        TABLE = [null, boolean]


        @register("json")
        def as_json():
            return 1


        @register("yaml")
        def as_yaml():
            return 2
        """,
    "pkg/words.py": "from pkg.hooks import register\n\nregister('person')\nregister('child')\n",
    "tests/test_x.py": "import pkg.table\n",
}


def test_a_registry_whose_cut_frees_nothing_is_a_note(tmp_path, capsys):
    for rel, text in FILES.items():
        (tmp_path / "p" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "p" / rel).write_text(textwrap.dedent(text).lstrip())
    draft = tmp_path / "d.toml"
    assert main(["init", str(tmp_path / "p"), "--out", str(draft), "--json"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert "1 root, 2 commented-out suggestions" in err  # [verify] and the decorator registry: no note counts
    assert sorted((r["kind"], r["package"], r["lines"]) for r in data["registries"]) == [
        ("call", "pkg.hooks.register", 0), ("decorator", "pkg.hooks.callback", 0),
        ("decorator", "pkg.hooks.register", 6)]
    text = draft.read_text()
    assert '# package = "pkg.hooks.callback"' not in text
    assert "## decorator registry pkg.hooks.callback at pkg/table.py:5: 2 entries\n##   not suggested: its cut " \
           "frees no line (the module names each definition besides registering it)" in text
    assert "## call registry pkg.hooks.register at pkg/words.py:3: 2 entries\n##   not suggested" in text
    assert '# package = "pkg.hooks.register"' in text and '#   "json",    ## 3 lines' in text
    accepted = tmp_path / "accepted.toml"
    accepted.write_text(re.sub(r"^# ", "", text, flags=re.M))
    assert main(["plan", str(accepted), "--json"]) == 0
