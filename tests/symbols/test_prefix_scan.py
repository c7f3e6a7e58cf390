"""``for name, value in globals().items(): if name.startswith("Spec_"): register(value)`` (mido's
``midifiles/meta.py``) reads only the module's names with that prefix: those stay, the others may go; any other
shape of a ``globals()`` scan keeps every name as before (session 36's depth round)."""

from __future__ import annotations

import ast

import pytest

from slimfork.api import analyse
from slimfork.index.symbols import symbol_summary
from tests.mapping.registrykit import write_project

SCAN = '''
REGISTRY = []


class Spec_a:
    pass


class Spec_b:
    pass


class Other:
    pass


def _unused():
    return 1


def _add_specs():
    for name, spec in globals().items():
        if name.startswith("Spec_"):
            REGISTRY.append(spec)


_add_specs()
'''

FILES = {
    "pyproject.toml": '[project]\nname = "ms"\nversion = "1.0"\n',
    "src/ms/__init__.py": "",
    "src/ms/meta.py": SCAN,
    "src/ms/app.py": "from ms import meta\n\n\ndef main():\n    return meta.REGISTRY\n",
}


def test_a_prefix_scan_keeps_the_names_with_the_prefix(tmp_path):
    spec = 'source = "."\npackages = ["ms"]\nroots = ["ms.app"]\n\n[symbols]\npublic_api = "roots"\n'
    stage = analyse(write_project(tmp_path, FILES, spec) / "slimfork.toml").stages.symbols
    gone = {n for p in stage.pruned if p.module == "ms.meta" for n in p.names}
    assert {"Other", "_unused"} <= gone
    assert not gone & {"Spec_a", "Spec_b", "REGISTRY", "_add_specs"}


def test_the_scan_is_an_own_lookup_by_prefix():
    summary = symbol_summary(ast.parse(SCAN))
    assert not summary.keep_all
    assert any(("Spec_", line) in st.own_lookups for st in summary.statements for line in range(30))


@pytest.mark.parametrize("loop", [
    "    for name, spec in globals().items():\n        REGISTRY.append(spec)\n",
    "    for name, spec in globals().items():\n        if name.startswith('Spec_'):\n            REGISTRY.append(spec)"
    "\n        else:\n            pass\n",
    "    for name, spec in globals().items():\n        if name.startswith('Spec_'):\n            pass\n"
    "    return spec\n",
    "    for name, spec in globals().items():\n        if name.endswith('_x'):\n            REGISTRY.append(spec)\n",
    "    for name, spec in globals().items():\n        if 'x' in name or name.startswith('S'):\n"
    "            REGISTRY.append(spec)\n",
    "    g = globals()\n    for name in list(g):\n        if name.startswith('Spec_'):\n            REGISTRY.append(g[name])\n",
])
def test_other_scans_keep_every_name(loop):
    summary = symbol_summary(ast.parse("REGISTRY = []\n\n\ndef scan():\n" + loop))
    assert summary.keep_all
