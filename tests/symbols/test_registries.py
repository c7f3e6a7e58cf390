"""Dict registries (``kind = "dict"``) through the whole pipeline: the spec's keys stay, the others are cut, what
only they used leaves the fork, and a removed key fails exactly like a key the registry never had."""

from __future__ import annotations

import shutil

import pytest

from slimfork.errors import SpecError
from tests.symbols.conftest import FIXTURES

PKG = "src/libpit/"


def test_class_attribute_registry_keeps_listed_keys_and_its_other_modules_leave(libpit):
    text = libpit.text(PKG + "parsers/parser.py")
    assert '"alpha": AlphaParser,  # the default\n    }' in text and "BetaParser" not in text
    assert not libpit.has(PKG + "parsers/beta.py")
    kept = libpit.run("libpit.cli", "parser", "alpha")
    assert kept.returncode == 0 and "('alpha', 'x')" in kept.stdout
    removed, unknown = libpit.run("libpit.cli", "parser", "beta"), libpit.run("libpit.cli", "parser", "gamma")
    assert removed.returncode == unknown.returncode == 1
    assert removed.stderr.splitlines()[-1] == "ValueError: Unsupported parser: beta"
    assert unknown.stderr.splitlines()[-1] == "ValueError: Unsupported parser: gamma"


def test_module_dict_of_classes_defined_beside_it_prunes_the_removed_classes(libpit):
    text = libpit.text(PKG + "detect.py")
    assert 'DETECTORS = {"a": ADetector}' in text and "class BDetector" not in text
    assert libpit.run("libpit.cli", "detector", "b").stderr.splitlines()[-1] == "ValueError: unknown detector b"


def test_dict_a_function_builds_is_cut_and_what_only_removed_entries_reached_leaves(libpit):
    text = libpit.text(PKG + "serving.py")
    assert '"text": _run_text,\n        }' in text and "_run_image" not in text and "not deployed" not in text
    assert not libpit.has(PKG + "imaging.py")
    assert libpit.run("libpit.cli", "serve", "text").stdout == "text x\n"
    removed, unknown = libpit.run("libpit.cli", "serve", "image"), libpit.run("libpit.cli", "serve", "video")
    assert removed.stderr.splitlines()[-1] == "ValueError: unknown serving backend image"
    assert unknown.stderr.splitlines()[-1] == "ValueError: unknown serving backend video"


def test_list_of_key_names_is_cut_and_keeps_its_comments_in_place(libpit):
    assert libpit.text(PKG + "parsers/names.py") == 'NAMES = [\n    "alpha",\n]\n'


def test_registry_report_lists_kept_and_removed_keys(libpit):
    data = libpit.result.data
    regs = {r["variable"]: r for r in data["symbols"]["registries"]}
    assert regs["Parser.REGISTRY"]["kept"] == ["alpha"] and regs["Parser.REGISTRY"]["removed"] == ["beta"]
    assert regs["Parser.REGISTRY"]["reason"] == "only the alpha format is deployed"


def _spec_with(tmp_path, registry: str):
    from slimfork.api import analyse

    source = tmp_path / "libpit"
    shutil.copytree(FIXTURES / "libpit", source)
    spec = (source / "slimfork.toml").read_text().split("[[registries]]")[0] + registry
    (source / "slimfork.toml").write_text(spec)
    return lambda: analyse(source / "slimfork.toml")


@pytest.mark.parametrize("registry, key, message", [
    ('[[registries]]\nkind = "dict"\npackage = "nowhere.at_all.X"\nkeep = ["a"]\n',
     "registries[0].package", "no module in the source"),
    ('[[registries]]\nkind = "dict"\npackage = "libpit.parsers.parser.Parser.MISSING"\nkeep = ["a"]\n',
     "registries[0].package", "no assignment"),
    ('[[registries]]\nkind = "dict"\npackage = "libpit.serving._run_text"\nkeep = ["a"]\n',
     "registries[0].package", "builds 0 dict literals with string keys"),
    ('[[registries]]\nkind = "dict"\npackage = "libpit.parsers.parser.Parser.REGISTRY"\nkeep = ["zeta"]\n',
     "registries[0].keep", "keep matches no key"),
    ('[[registries]]\nkind = "dict"\npackage = "libpit.parsers.parser"\nkeep = ["a"]\n',
     "registries[0].package", "names a module"),
])
def test_a_wrong_dict_registry_stops_with_the_key_path(tmp_path, registry, key, message):
    run = _spec_with(tmp_path, registry)
    with pytest.raises(SpecError) as info:
        run()
    assert info.value.key == key and message in info.value.message


def test_a_pruned_name_some_kept_module_imports_is_put_back(tmp_path, monkeypatch):
    """The safety net behind the analysis: were reachability wrong, a file losing an imported name stays as it was."""
    import slimfork.prune.stage as stage
    from slimfork.graph.symbols import PrunedSymbol

    original = stage.reach_symbols

    def wrong(inputs):
        reach = original(inputs)
        if not any(p.module == "libpit.core" and "detok" in p.names for p in reach.pruned):
            reach.pruned.append(PrunedSymbol("libpit.core", "src/libpit/core.py", ("detok",), "def", 18, 19, 5))
        return reach

    monkeypatch.setattr(stage, "reach_symbols", wrong)
    analyse = _spec_with(tmp_path, "")
    spec = tmp_path / "libpit" / "slimfork.toml"  # facade's __all__ keeps detok only while facade is API
    spec.write_text(spec.read_text().replace('public_api = "roots"', 'public_api = "kept"'))
    analysis = analyse()
    symbols = analysis.stages.symbols
    assert any(f.startswith("src/libpit/core.py: not pruned: libpit.facade imports detok") for f in symbols.failures)
    assert "src/libpit/core.py" not in symbols.contents


COMPREHENSION = b'''from pkg.configs import AfmoeConfig, DbrxConfig, KimiConfig

REGISTRY = {
    cls.model_type: cls
    for cls in [
        AfmoeConfig,  # Afmoe
        DbrxConfig,
        KimiConfig,
    ]
}
'''


@pytest.mark.parametrize("keep, expected", [
    (["Dbrx*"], "    for cls in [\n        DbrxConfig,\n    ]\n"),
    ([], "    for cls in []\n"),
])
def test_a_comprehension_over_a_list_of_classes_is_cut_by_their_names(keep, expected):
    """sglang's _CONFIG_REGISTRY: `{cls.model_type: cls for cls in [AfmoeConfig, ...]}`; `keep = []` on purpose
    empties the list (the comprehension then registers nothing)."""
    import fnmatch

    from slimfork.rewrite.registry_cut import cut_registry

    cut = cut_registry(COMPREHENSION, "REGISTRY", lambda k: any(fnmatch.fnmatch(k, p) for p in keep), "m.py",
                       may_empty=not keep)
    assert cut.failure is None and cut.removed == [k for k in ("AfmoeConfig", "DbrxConfig", "KimiConfig")
                                                   if not any(fnmatch.fnmatch(k, p) for p in keep)]
    assert expected in cut.new.decode()
    assert cut.new.decode().startswith("from pkg.configs import AfmoeConfig, DbrxConfig, KimiConfig\n")


def test_a_list_of_classes_is_cut_by_their_names():
    """sglang's model modules export `EntryClass = [DeepseekV2ForCausalLM, ..., DeepseekV32ForCausalLM]`: a list of
    classes is keyed by the names as written; the removed class is no longer registered."""
    from slimfork.rewrite.registry_cut import cut_registry

    source = (b"class V2:\n    pass\n\n\nclass V32(V2):\n    pass\n\n\n"
              b"EntryClass = [V2, models.V3, V32]  # what the registry loads\n")
    cut = cut_registry(source, "EntryClass", lambda k: k in ("V2", "models.V3"), "m.py")
    assert cut.failure is None and cut.kept == ["V2", "models.V3"] and cut.removed == ["V32"]
    assert cut.new.decode().endswith("EntryClass = [V2, models.V3]  # what the registry loads\n")
