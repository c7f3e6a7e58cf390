"""A dynamic import whose name is built in a local variable first (pyserial: ``module_name =
'.protocol_{}'.format(protocol)``, then ``import_module(module_name, package_name)``) keeps its constant prefix, as
an f-string or a concatenation in the call does."""

from __future__ import annotations

import textwrap

import pytest

from slimfork.index.parse import summarize


def _dynamic(code: str):
    return [(d.target, d.prefix) for d in summarize(textwrap.dedent(code).encode()).dynamic_imports]


@pytest.mark.parametrize("build", ["'.protocol_{}'.format(protocol)", "'.protocol_%s' % protocol",
                                   "'.protocol_' + protocol", "f'.protocol_{protocol}'"])
def test_a_name_built_once_in_the_function_keeps_its_prefix(build):
    code = f"""
        import importlib
        def load(protocol, package_name):
            module_name = {build}
            return importlib.import_module(module_name, package_name)
        """
    assert _dynamic(code) == [(".protocol_", True)]


def test_a_literal_assigned_once_is_the_name():
    assert _dynamic("""
        import importlib
        def load():
            name = "pkg.plugin"
            return importlib.import_module(name)
        """) == [("pkg.plugin", False)]


@pytest.mark.parametrize("body", [
    "module_name = '.a_{}'.format(p)\n    if p == 'x':\n        module_name = other\n",  # bound twice
    "for module_name in names():\n        pass\n",  # a loop over something computed
])
def test_a_name_bound_more_than_once_is_computed(body):
    code = f"import importlib\ndef load(p, other):\n    {body}    return importlib.import_module(module_name)\n"
    assert _dynamic(code) == [(None, True)]


def test_a_parameter_is_computed():
    assert _dynamic("""
        import importlib
        def load(module_name):
            return importlib.import_module(module_name)
        """) == [(None, True)]


@pytest.mark.parametrize("first", ["_module_prefix", "'dns.rdtypes'"])
def test_a_dotted_join_keeps_its_first_part_as_the_prefix(first):
    # dnspython: import_module(".".join([_module_prefix, rdclass_text, rdtype_text])) loads its rdata types
    assert _dynamic(f"""
        import importlib
        _module_prefix = "dns.rdtypes"
        def load(rdclass_text, rdtype_text):
            return importlib.import_module(".".join([{first}, rdclass_text, rdtype_text]))
        """) == [("dns.rdtypes.", True)]
