"""Subclass registries (``kind = "subclasses"``): subclasses of a base registered by ``__init_subclass__`` are
kept by name or by the keys of a class attribute; the others leave with what only they used, ancestors of a
kept class stay, a class other code names stays, tests of removed keys leave, and a removed key fails exactly
like a key the registry never had."""

from __future__ import annotations

import pytest

from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import shrink
from slimfork.errors import SpecError

FILES = {
    "pkg/__init__.py": "",
    "pkg/locales.py": """
        from pkg.calendars import lunar_months

        _MAP = {}


        def get(name):
            if name not in _MAP:
                raise ValueError(f"unknown locale {name}")
            return _MAP[name]()


        class Locale:
            names = []

            def __init_subclass__(cls, **kwargs):
                for name in cls.names:
                    _MAP[name] = cls

            def hello(self):
                return "?"


        class EnglishLocale(Locale):
            names = ["en", "en-us"]

            def hello(self):
                return "hello"


        class RomanceBase(Locale):
            def greet(self):
                return self.hello() + "!"


        class FrenchLocale(RomanceBase):
            names = ["fr"]

            def hello(self):
                return "bonjour"


        class ItalianLocale(RomanceBase):
            names = ["it"]

            def hello(self):
                return "ciao " + lunar_months()[0]


        class SpanishLocale(RomanceBase):
            names = ["es"]
        """,
    "pkg/calendars.py": """
        def lunar_months():
            return ["gennaio"]
        """,
    "pkg/special.py": """
        from pkg.locales import SpanishLocale

        DEFAULT = SpanishLocale
        """,
    "pkg/cli.py": """
        import sys

        import pkg.special
        from pkg.locales import get

        try:
            print(get(sys.argv[1]).hello())
        except ValueError as exc:
            print(exc)
        """,
    "tests/test_locales.py": """
        from pkg import locales


        def test_english():
            assert locales.get("en").hello() == "hello"


        def test_french():
            assert locales.get("fr").hello() == "bonjour"


        class TestItalianLocale:
            def test_hello(self):
                assert locales.get("it").hello().startswith("ciao")
        """,
}

SPEC = """
source = "."
roots = ["pkg.cli"]
tests = ["tests"]

[[registries]]
kind = "subclasses"
package = "pkg.locales.Locale"
variable = "names"
keep = ["en*", "fr"]
reason = "English and French only"

[symbols]
prune = true
"""


def test_unkept_subclasses_leave_with_what_only_they_used(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    result = shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    fork = tmp_path / "fork"
    text = (fork / "pkg/locales.py").read_text()
    assert "class ItalianLocale" not in text
    assert "class EnglishLocale" in text and "class FrenchLocale" in text
    assert "class RomanceBase" in text  # the ancestor of a kept class stays
    assert "class SpanishLocale" in text  # pkg.special names it: unknown means keep
    assert not (fork / "pkg/calendars.py").exists()  # only ItalianLocale used it
    (entry,) = [e for e in result.data["subclass_registries"] if e["path"] == "pkg/locales.py"]
    assert [r["class"] for r in entry["removed"]] == ["ItalianLocale"]
    assert any(h["class"] == "SpanishLocale" and "named by" in h["why"] for h in entry["held"])
    for key, expected in (("en", "hello"), ("fr", "bonjour"), ("es", "?")):
        assert run_cli(fork, key).stdout.strip() == expected
    assert run_cli(fork, "it").stdout.strip() == "unknown locale it"  # as a key the registry never had
    assert run_cli(root, "it").stdout.strip() == "ciao gennaio"
    tests = (fork / "tests/test_locales.py").read_text()
    assert "test_english" in tests and "test_french" in tests and "TestItalianLocale" not in tests


def test_keep_by_class_name_without_variable(tmp_path):
    spec = SPEC.replace('variable = "names"\n', "").replace('keep = ["en*", "fr"]', 'keep = ["EnglishLocale"]')
    root = write_project(tmp_path, FILES, spec)
    shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    text = (tmp_path / "fork/pkg/locales.py").read_text()
    assert "class EnglishLocale" in text and "class SpanishLocale" in text
    assert "class FrenchLocale" not in text and "class ItalianLocale" not in text and "RomanceBase" in text


def test_a_base_class_that_does_not_exist_is_a_spec_error(tmp_path):
    root = write_project(tmp_path, FILES, SPEC.replace("pkg.locales.Locale", "pkg.locales.Locales"))
    with pytest.raises(SpecError) as err:
        shrink(root / "slimfork.toml", tmp_path / "fork", dry_run=True)
    assert err.value.key == "registries[0].package"
