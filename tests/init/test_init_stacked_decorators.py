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


CLI = {
    "app/__init__.py": "",
    "app/group.py": """
        class Group:
            def command(self, name=None):
                def deco(f):
                    return f
                return deco


        def group(f):
            return Group()
        """,
    "app/server.py": "def run():\n    return 'serving'\n",
    "app/__main__.py": """
        from app.group import group


        @group
        def cli():
            pass


        @cli.command(name="serve")
        def serve_command():
            from app.server import run
            return run()


        @cli.command(name="build")
        def build_command():
            return "built"
        """,
}


def test_a_keyword_key_is_drafted_and_cut(tmp_path, capsys):
    """mkdocs' ``@cli.command(name="serve")``: the key is the ``name=`` keyword; accepting the draft with
    ``keep = ["build"]`` takes ``serve_command`` and the module only it imports."""
    from slimfork.api import shrink

    root = tmp_path / "p"
    for rel, text in CLI.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text))
    assert main(["init", str(root), "--out", str(tmp_path / "d.toml")]) == 0
    capsys.readouterr()
    draft = (tmp_path / "d.toml").read_text()
    assert '# key_keyword = "name"' in draft and '#   "serve",' in draft
    spec = draft.replace("# [[registries]]", "[[registries]]").replace('# package = "app.__main__.cli.command"',
                                                                          'package = "app.__main__.cli.command"')
    spec = spec.replace('# kind = "decorator"', 'kind = "decorator"').replace('# key_keyword', 'key_keyword')
    spec = spec.replace("# keep = [", 'keep = ["build"]\n# [').replace('# reason = ', 'reason = ')
    spec = spec.replace('source = "p"', f'source = "{root}"').replace('roots = ["app.**"]', 'roots = ["app.__main__"]')
    (tmp_path / "s.toml").write_text(spec)
    shrink(tmp_path / "s.toml", out=tmp_path / "fork", verify=False)
    main_py = (tmp_path / "fork/app/__main__.py").read_text()
    assert "def build_command" in main_py and "def serve_command" not in main_py
    assert not (tmp_path / "fork/app/server.py").exists()
