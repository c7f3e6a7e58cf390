"""A decorator applied twice to one definition with literal first arguments is an option list (mkdocs'
``@click.option("-a", ...)`` stacked on each command), not a registry: a registry registers each definition
once. The draft no longer suggests cutting it; a real decorator registry beside it is still found."""

from __future__ import annotations

import textwrap

from slimfork.cli import main

FILES = {
    "pkg/__init__.py": "",
    "pkg/opts.py": "def option(*names, **kw):\n    return lambda f: f\n\n\ndef register(key):\n    return lambda f: f\n",
    "pkg/cli.py": """
        from pkg.opts import option, register


        @option("-a")
        @option("-b")
        def serve():
            pass


        @option("-c")
        @option("-d")
        def build():
            pass


        @register("one")
        def one():
            pass


        @register("two")
        def two():
            pass


        @register("three")
        def three():
            pass
        """,
}


def test_stacked_decorators_are_no_registry(tmp_path, capsys):
    for rel, text in FILES.items():
        (tmp_path / "p" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "p" / rel).write_text(textwrap.dedent(text))
    assert main(["init", str(tmp_path / "p"), "--out", str(tmp_path / "d.toml")]) == 0
    capsys.readouterr()
    text = (tmp_path / "d.toml").read_text()
    assert '# package = "pkg.opts.register"' in text
    assert '# package = "pkg.opts.option"' not in text
