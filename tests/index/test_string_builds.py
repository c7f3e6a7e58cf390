"""A module name built with ``%``, ``str.format``, ``".".join`` or ``+`` is read as the f-string it equals: over a
loop of literals it names each module, after the module's own name it is a submodule or a prefix of it
(``f"{__package__}.backends.{name}"`` keeps every backend), where before each was "computed entirely at run time"
and kept nothing (session 30's adversarial round, C1). A code template run by ``exec`` after filling in a module
name (``"from pkg.tasks.{name} import run"``) keeps every module under its literal start (L1)."""

from __future__ import annotations

import textwrap

import pytest

from slimfork.api import analyse
from slimfork.index.parse import summarize
from tests.mapping.registrykit import write_project


def _dynamic(code: str):
    return [(d.target, d.prefix) for d in summarize(textwrap.dedent(code).encode()).dynamic_imports]


@pytest.mark.parametrize("build", ['"%s.drivers.%s" % (__package__, d)', '"{}.drivers.{}".format(__package__, d)',
                                   '"{p}.drivers.{0}".format(d, p=__package__)',
                                   '".".join((__package__, "drivers", d))', '__package__ + ".drivers." + d'])
def test_every_spelling_over_a_loop_of_literals_names_each_module(build):
    code = f"import importlib\nfor d in ('pg', 'lite'):\n    importlib.import_module({build})\n"
    assert _dynamic(code) == [("{__package__}.drivers.pg", False), ("{__package__}.drivers.lite", False)]


@pytest.mark.parametrize("build", ['".".join((__package__, "backends", name))', '"%s.backends.%s" % (__name__, name)',
                                   'f"{__package__}.backends.{name}"'])
def test_a_computed_end_after_the_own_name_is_a_prefix(build):
    code = f"import importlib\ndef load(name):\n    return importlib.import_module({build})\n"
    target = "{__name__}" if "__name__" in build else "{__package__}"
    assert _dynamic(code) == [(target + ".backends.", True)]


@pytest.mark.parametrize("build", ['"%d.x" % n', '"%(a)s.x" % m', '"{!r}.x".format(n)', '"-".join(parts)'])
def test_other_formats_stay_computed(build):
    assert _dynamic(f"import importlib\nimportlib.import_module({build})\n") == [(None, True)]


def test_a_format_fields_attribute_is_a_computed_start():
    """Session 46: ``"{0.name}.x".format(obj)`` is ``f"{obj.name}.x"``: every module ending so."""
    assert _dynamic('import importlib\nimportlib.import_module("{0.name}.x".format(obj))\n') == [("*.x", False)]


@pytest.mark.parametrize("build", ['string.Template("$p.tplmod").substitute(p=__package__)',
                                   'Template("${p}.tplmod").safe_substitute(p=__package__)'])
def test_a_string_template_over_the_own_name_names_the_submodule(build):
    code = f"import importlib, string\nfrom string import Template\nimportlib.import_module({build})\n"
    assert _dynamic(code) == [("{__package__}.tplmod", False)]


def test_the_own_name_with_a_part_replaced_keeps_each_module_so_named():
    code = 'import importlib\nimportlib.import_module(__name__.replace(".core", "._core_impl"))\n'
    assert _dynamic(code) == [("*._core_impl", False)]


FILES = {
    "pyproject.toml": '[project]\nname = "cpkg"\nversion = "1.0"\n',
    "src/cpkg/__init__.py": "",
    "src/cpkg/drivers/__init__.py": "",
    "src/cpkg/drivers/pg.py": "",
    "src/cpkg/drivers/lite.py": "",
    "src/cpkg/backends/__init__.py": "",
    "src/cpkg/backends/mem.py": "",
    "src/cpkg/core.py": "import importlib\n\nN = importlib.import_module(__name__ + '_native')\n",
    "src/cpkg/core_native.py": "",
    "src/cpkg/unused.py": "",
    "src/cpkg/api.py": """
        import importlib

        DRIVERS = ("pg", "lite")


        def load(name):
            mods = [importlib.import_module("%s.drivers.%s" % (__package__, d)) for d in DRIVERS]
            mods.append(importlib.import_module(".".join((__package__, "backends", name))))
            return mods
    """,
    "src/cpkg/app.py": "from cpkg import api, core\n",
}


def test_the_modules_so_named_stay(tmp_path):
    spec = 'source = "."\npackages = ["cpkg"]\nroots = ["cpkg.app"]\n'
    analysis = analyse(write_project(tmp_path, FILES, spec) / "slimfork.toml")
    reached = analysis.graph.reached
    assert {"cpkg.drivers.pg", "cpkg.drivers.lite", "cpkg.backends.mem", "cpkg.core_native"} <= set(reached)
    assert "cpkg.unused" not in reached


@pytest.mark.parametrize("template", ['"from pkg.tasks.{name} import run"', '"import pkg.tasks.%s as t"',
                                      '"x = 1; from pkg.tasks.{} import run"', '"python -m pkg.tasks.%(job)s"'])
def test_a_code_template_naming_a_module_keeps_what_it_may_name(template):
    assert _dynamic(f"_TEMPLATE = {template}\n") == [("pkg.tasks.", True)]


def test_a_template_with_a_computed_start_names_nothing():
    assert _dynamic('_TEMPLATE = "from {pkg}.tasks import run"\n') == []


def test_a_local_taken_from_a_module_table_names_each_value():
    """PEP 562 lazy exports: ``module, _, attr = _EXPORTS[name].partition(":")`` then
    ``import_module(f"{__name__}.{module}")`` names each table value's module, not every submodule; a local bound
    twice is computed again."""
    code = textwrap.dedent('''
        import importlib
        _EXPORTS = {"fast": "impl.fast:fast", "slow": "impl.slow:slow"}
        def __getattr__(name):
            module, _, attr = _EXPORTS[name].partition(":")
            return getattr(importlib.import_module(f"{__name__}.{module}"), attr)
        ''')
    assert _dynamic(code) == [("{__name__}.impl.fast", False), ("{__name__}.impl.slow", False)]
    twice = code.replace("    return getattr", "    module = name.lower()\n    return getattr")
    assert _dynamic(twice) == [("{__name__}.", True)]
