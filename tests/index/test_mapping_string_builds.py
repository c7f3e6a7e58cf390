"""Module names built over a dict literal or a filtered join are read as the f-strings they equal:
``"{pkg}.backends.{name}".format_map({"pkg": __package__, "name": "fast"})``, ``"%(pkg)s.backends.fast" % {"pkg":
__package__}``, ``"{pkg}.x".format(**{...})``, ``".".join(filter(None, [__package__, "", "backends", "fast"]))``,
``string.Template("$pkg.backends.fast").substitute({"pkg": __package__})``; and through names bound once:
``".".join([__package__, *PARTS])`` with ``PARTS = ("backends", "fast")``, ``package, name = __package__,
".backends.fast"`` then ``import_module(name, package)``. Session 45: ``"{}.{}.{}".format(__package__, *PARTS)``,
``import_module(*ARGS)``, ``import_module(**{"name": ..., "package": ...})``, ``reversed([...])``, ``tuple([...])``,
``Formatter().vformat``, ``**dict(pkg=...)`` and ``"{0[pkg]}"``. Session 46: ``.strip()``, ``.removeprefix(...)``,
``.removesuffix(...)`` of the literal ends, ``b"...".decode()``. Before (sessions 44, 45) they stayed computed (loose
modules only): ``backends/fast.py``, imported otherwise only by code no root reaches, left the fork, exit 0."""

from __future__ import annotations

import ast

import pytest

from slimfork.index.str_build import as_fstring
from tests.soundness.soundkit import shrink_and_run_main

BUILDS = {
    "format_map": '"{pkg}.backends.{name}".format_map({"pkg": __package__, "name": "fast"})',
    "percent_named": '"%(pkg)s.backends.fast" % {"pkg": __package__}',
    "format_spread": '"{pkg}.backends.fast".format(**{"pkg": __package__})',
    "join_filter": '".".join(filter(None, [__package__, "", "backends", "fast"]))',
    "template_dict": 'string.Template("$pkg.backends.fast").substitute({"pkg": __package__})',
    "join_reversed": '".".join(reversed(["fast", "backends", __package__]))',  # session 45
    "percent_tuple_call": '"%s.backends.%s" % tuple([__package__, "fast"])',
    "formatter_vformat": 'string.Formatter().vformat("{0}.backends.{1}", (__package__, "fast"), {})',
    "format_dict_call": '"{pkg}.backends.fast".format(**dict(pkg=__package__))',
    "format_item": '"{0[pkg]}.backends.fast".format({"pkg": __package__})',
    "strip": 'f" {__package__}.backends.fast\\n".strip()',  # session 46: trims of the literal ends
    "remove_prefix": 'f"mod:{__package__}.backends.fast".removeprefix("mod:")',
    "remove_suffix": 'f"{__package__}.backends.fast.py".removesuffix(".py")',
    "rstrip_chars": 'f"{__package__}.backends.fast..".rstrip(".")',
    "join_map_str": '".".join(map(str, [__package__, "backends", "fast"]))',
}
MAINS = {
    **{k: f"    return importlib.import_module({v}).NAME\n" for k, v in BUILDS.items()},
    "starred_constant": "    return importlib.import_module('.'.join([__package__, *PARTS])).NAME\n",
    "starred_format_args": "    return importlib.import_module('{}.{}.{}'.format(__package__, *PARTS)).NAME\n",
    "starred_call_args": "    return importlib.import_module(*ARGS).NAME\n",
    "spread_keywords": "    return importlib.import_module(**{'name': '.backends.fast', 'package': __package__})"
                       ".NAME\n",
    "bytes_decode": "    return importlib.import_module(b'.backends.fast'.decode(), __package__).NAME\n",
    "format_attributes": "    return importlib.import_module('{0.pkg}.backends.{0.leaf}'.format(NS)).NAME\n",
    "join_map_str": "    return importlib.import_module('.'.join(map(str, [__package__, 'backends', 'fast']))).NAME\n",
    "literal_strip": "    return importlib.import_module(' .backends.fast '.strip(), __package__).NAME\n",
    "tuple_assignment": "    package, name = __package__, '.backends.fast'\n"
                        "    return importlib.import_module(name, package).NAME\n",
}


@pytest.mark.parametrize("build", sorted(BUILDS))
def test_each_spelling_is_the_fstring_it_equals(build):
    assert ast.unparse(as_fstring(ast.parse(BUILDS[build]).body[0].value)) == "f'{__package__}.backends.fast'"


@pytest.mark.parametrize("build", ['"%(pkg)d.x" % {"pkg": 1}', '"%(pkg)s.x" % {"other": 1}', '"{pkg}.x".format_map(m)',
                                   '".".join(filter(str.strip, parts))', 'f"{p}.x".removeprefix("mod:")',
                                   '"pkg.x".strip(chars)'])
def test_other_forms_stay_as_written(build):
    """(Session 46: ``"{0.pkg}.x".format(ns)`` is ``f"{ns.pkg}.x"``, a computed piece, below.)"""
    node = ast.parse(build).body[0].value
    assert as_fstring(node) is node


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("build", sorted(MAINS))
def test_the_module_built_stays(tmp_path, build, mode):
    app = (f"import importlib, string, types\n\nNS = types.SimpleNamespace(pkg=__package__, leaf='fast')\n"
           f"PARTS = ('backends', 'fast')\nARGS = ('.backends.fast', __package__)\n\n\n"
           f"def main():\n{MAINS[build]}")
    files = {"pkg/__init__.py": "", "pkg/backends/__init__.py": "", "pkg/backends/fast.py": "NAME = 'fast'\n",
             "pkg/app.py": app,
             "pkg/legacy.py": "import pkg.backends.fast\nALL = True\n",
             "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_legacy():\n    assert legacy.ALL\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "fast", done.stderr[-2000:]


def test_a_format_fields_attribute_is_a_computed_piece():
    node = ast.parse('"{0.pkg}.backends.{0.leaf}".format(NS)').body[0].value
    assert ast.unparse(as_fstring(node)) == "f'{NS.pkg}.backends.{NS.leaf}'"
