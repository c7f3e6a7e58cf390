"""Found on pint 0.25.3: a third-party decorator with literal keys (`@pytest.mark.parametrize("x", ...)` in the
package's own `testsuite`) was drafted as a registry of the test module (`pint.testsuite.t.pytest.mark...`), and
the tests inside the package (`pkg/testsuite`) were not found. A plain `import X` now qualifies X as X, and
`testsuite` is a tests folder name."""

from __future__ import annotations

from tests.mapping.registrykit import write_project

from slimfork.cli import main

FILES = {
    "pkg/__init__.py": "",
    "pkg/units.py": "def register(key):\n    return lambda f: f\n",
    "pkg/defs.py": """
        import pytest
        from pkg.units import register


        @register("meter")
        def meter():
            pass


        @register("second")
        def second():
            pass


        @pytest.mark.parametrize("a", [1])
        def check_a(a):
            pass


        @pytest.mark.parametrize("b", [2])
        def check_b(b):
            pass
        """,
    "pkg/testsuite/__init__.py": "",
    "pkg/testsuite/test_units.py": "import pkg.units\n\n\ndef test_units():\n    assert pkg.units.register\n",
}


def test_a_third_party_decorator_is_no_registry_and_testsuite_is_the_tests(tmp_path, capsys):
    project = write_project(tmp_path, FILES, "")
    assert main(["init", str(project), "--out", str(tmp_path / "d.toml")]) == 0
    capsys.readouterr()
    text = (tmp_path / "d.toml").read_text()
    assert '# package = "pkg.units.register"' in text
    assert "parametrize" not in text
    assert 'tests = ["pkg/testsuite"]' in text
    assert '"pkg.testsuite' not in text.split("tests =")[0]  # no root inside the tests
