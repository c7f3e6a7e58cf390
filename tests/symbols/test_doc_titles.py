"""A package's name as Sphinx's ``project = "pkg"`` in ``docs/conf.py``, or passed to
``importlib.metadata.version("pkg")``, names a title or a distribution, not a module to look names up in: it kept
every name of ``pkg/__init__.py`` and so every module it imports (jsonpickle and icalendar kept their whole
package for a narrow root). The name alone elsewhere (``import_module("pkg")``) still keeps the module whole."""

from __future__ import annotations

from tests.mapping.registrykit import write_project

from slimfork.api import analyse

FILES = {
    "pkg/__init__.py": "from pkg.heavy import big\nfrom pkg.light import small\n",
    "pkg/heavy.py": "def big():\n    return 1\n",
    "pkg/light.py": "def small():\n    return 2\n",
    "docs/conf.py": "import importlib.metadata\n\nproject = 'pkg'\nmaster_doc = 'index'\n"
                    "version = importlib.metadata.version('pkg')\n",
}
SPEC = ('source = "."\npackages = ["pkg"]\nroots = ["pkg.light"]\n\n[symbols]\npublic_api = "roots"\n'
        'package_api = false\n')


def test_a_docs_title_and_a_distribution_name_name_no_module(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    analysis = analyse(root / "slimfork.toml")
    assert "pkg/heavy.py" in {r.path for r in analysis.plan.removals}
    assert "pkg" not in analysis.stages.symbols.reach.keep_all


def test_the_name_looked_up_still_keeps_the_module(tmp_path):
    files = dict(FILES)
    files["docs/conf.py"] += "import importlib\n\nimportlib.import_module('pkg')\n"
    root = write_project(tmp_path, files, SPEC)
    analysis = analyse(root / "slimfork.toml")
    assert "pkg/heavy.py" not in {r.path for r in analysis.plan.removals}


def test_the_reader_stays_bound_where_kept_code_calls_it(tmp_path):
    """sglang's expert_pack_runtime.py: ``importlib.metadata.version("transformers")`` in a kept function reads the
    name ``importlib``; symbol pruning took ``import importlib.metadata`` and the fold's safety check refused it."""
    files = {"pkg/__init__.py": "", "pkg/meta.py": "import importlib.metadata\n\n\ndef info():\n"
             "    return importlib.metadata.version('transformers')\n\n\ndef _unused():\n    return 1\n"}
    spec = 'source = "."\npackages = ["pkg"]\nroots = ["pkg.meta:info"]\n\n[symbols]\npublic_api = "roots"\n'
    root = write_project(tmp_path, files, spec)
    analysis = analyse(root / "slimfork.toml")
    assert not [w for w in analysis.plan.warnings if "meta.py" in w]
    assert "import importlib.metadata" in analysis.stages.rewritten.get("pkg/meta.py",
                                                                        (root / "pkg/meta.py").read_bytes()).decode()
