"""A subclass registry spread over modules (sqlglot's dialects: a metaclass registers each class, a name table
lists them, a loader imports ``f"pkg.dialects.{key}"``): a module the cut leaves with nothing but imports leaves
the fork though the loader's computed name could reach it, the name table loses the removed entries, and a
removed key fails as a key the registry never had. A module other code imports stays."""

from __future__ import annotations

from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import shrink

FILES = {
    "pkg/__init__.py": "",
    "pkg/dialects/__init__.py": """
        import importlib

        NAMES = ["Alpha", "Beta", "Gamma"]
        MODULES = {name: name.lower() for name in NAMES}


        def __getattr__(name):
            module = MODULES.get(name)
            if module:
                return getattr(importlib.import_module(f"pkg.dialects.{module}"), name)
            raise AttributeError(name)
        """,
    "pkg/dialects/base.py": """
        import importlib

        from pkg.dialects import MODULES


        class _Meta(type):
            classes = {}

            def __new__(cls, name, bases, attrs):
                klass = super().__new__(cls, name, bases, attrs)
                cls.classes[name.lower()] = klass
                return klass


        class Dialect(metaclass=_Meta):
            greeting = "?"


        class Known:  # binds the names, uses no class
            Alpha = "alpha"
            Beta = "beta"


        def get(key):
            if key in MODULES.values():
                importlib.import_module(f"pkg.dialects.{key}")
            if key not in _Meta.classes:
                raise ValueError(f"unknown dialect {key}")
            return _Meta.classes[key]


        def every():
            for key in MODULES.values():
                get(key)
            return " ".join(sorted(_Meta.classes))
        """,
    "pkg/dialects/alpha.py": """
        from pkg.dialects.base import Dialect


        class Alpha(Dialect):
            greeting = "hello"
        """,
    "pkg/dialects/beta.py": """
        \"\"\"The beta dialect.\"\"\"
        from pkg.dialects.base import Dialect
        from pkg.words.beta import WORD


        class Beta(Dialect):
            greeting = WORD
        """,
    "pkg/dialects/gamma.py": """
        from pkg.dialects.base import Dialect


        class Gamma(Dialect):
            greeting = "hi"
        """,
    "pkg/words/__init__.py": "",
    "pkg/words/beta.py": """
        WORD = "salut"


        def shout():  # names Beta, but only Beta's own module imports this one
            from pkg.dialects.beta import Beta

            return Beta.greeting.upper()
        """,
    "pkg/optimizer.py": """
        from pkg.dialects.gamma import Gamma


        def is_gamma(dialect):
            return isinstance(dialect, Gamma)
        """,
    "pkg/cli.py": """
        import sys

        import pkg.optimizer
        from pkg.dialects.base import every, get

        try:
            print(every() if sys.argv[1] == "all" else get(sys.argv[1]).greeting)
        except ValueError as exc:
            print(exc)
        """,
}

SPEC = """
source = "."
roots = ["pkg.cli"]

[[registries]]
kind = "subclasses"
package = "pkg.dialects.base.Dialect"
keep = ["Alpha"]
"""


def test_a_module_emptied_by_the_cut_leaves_and_the_name_table_loses_its_entries(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    result = shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    fork = tmp_path / "fork"
    assert not (fork / "pkg/dialects/beta.py").exists()  # only the loader's computed name reached it
    assert not (fork / "pkg/words/beta.py").exists()  # only Beta used it
    assert (fork / "pkg/dialects/gamma.py").exists()  # pkg.optimizer imports Gamma: it stays
    assert 'NAMES = ["Alpha", "Gamma"]' in (fork / "pkg/dialects/__init__.py").read_text()
    assert run_cli(fork, "alpha").stdout.strip() == "hello"
    assert run_cli(fork, "gamma").stdout.strip() == "hi"
    assert run_cli(root, "delta").stdout.strip() == "unknown dialect delta"
    assert run_cli(fork, "beta").stdout.strip() == "unknown dialect beta"  # as a key the registry never had
    assert run_cli(root, "all").stdout.strip() == "alpha beta dialect gamma"
    assert run_cli(fork, "all").stdout.strip() == "alpha dialect gamma"
    (table,) = [e for e in result.data["subclass_registries"] if e["path"] == "pkg/dialects/__init__.py"]
    assert table["tables"] == [{"variable": "NAMES", "removed": ["Beta"]}]
    (enum,) = [e for e in result.data["subclass_registries"] if e["path"] == "pkg/dialects/base.py"]
    assert enum["tables"] == [{"variable": "Known", "removed": ["Beta"]}]  # members named after the subclasses
    assert 'Alpha = "alpha"' in (fork / "pkg/dialects/base.py").read_text()


def test_a_module_other_code_imports_stays_though_its_class_goes(tmp_path):
    files = dict(FILES, **{"pkg/optimizer.py": "import pkg.dialects.beta\n", "pkg/words/beta.py": 'WORD = "x"\n'})
    root = write_project(tmp_path, files, SPEC)
    shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    fork = tmp_path / "fork"
    assert (fork / "pkg/dialects/beta.py").exists()  # imported by kept code: unknown means keep
    assert "class Beta" not in (fork / "pkg/dialects/beta.py").read_text()
    assert run_cli(fork, "beta").stdout.strip() == "unknown dialect beta"


def test_a_class_named_by_a_module_other_kept_code_imports_stays(tmp_path):
    files = dict(FILES, **{"pkg/optimizer.py": "from pkg.words.beta import shout\n"})
    root = write_project(tmp_path, files, SPEC)
    shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    assert "class Beta" in (tmp_path / "fork/pkg/dialects/beta.py").read_text()
    assert run_cli(tmp_path / "fork", "beta").stdout.strip() == "salut"


def test_a_class_named_by_what_a_kept_import_of_its_module_keeps_stays(tmp_path):
    files = dict(FILES, **{"pkg/optimizer.py": "import pkg.dialects.beta\n"})
    root = write_project(tmp_path, files, SPEC)
    shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    assert "class Beta" in (tmp_path / "fork/pkg/dialects/beta.py").read_text()  # pkg.words.beta.shout names it


def test_a_class_named_by_kept_code_stays_though_removed_subclasses_name_it_too(tmp_path):
    files = dict(FILES, **{
        "pkg/dialects/delta.py": "from pkg.dialects.gamma import Gamma\n\n\nclass Delta(Gamma):\n    pass\n",
        "pkg/dialects/epsilon.py": "from pkg.dialects.gamma import Gamma\n\n\nclass Epsilon(Gamma):\n    pass\n",
        "pkg/optimizer.py": "def is_gamma(dialect):\n    from pkg.dialects.gamma import Gamma\n\n    return isinstance(dialect, Gamma)\n",
    })
    files["pkg/dialects/__init__.py"] = files["pkg/dialects/__init__.py"].replace('"Gamma"]', '"Gamma", "Delta", "Epsilon"]')
    root = write_project(tmp_path, files, SPEC)
    shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    assert "class Gamma" in (tmp_path / "fork/pkg/dialects/gamma.py").read_text()  # pkg.optimizer names it once
    assert not (tmp_path / "fork/pkg/dialects/delta.py").exists()
