"""Pitfalls 1-17 and 32-34 (docs/pitfalls.md) on one fixture library, libpit, through the whole pipeline: `shrink` with
[symbols] and three dict registries, every check of the batch engine, then the fork's own command run."""

from __future__ import annotations

import ast

PKG = "src/libpit/"


def _defs(shrunk, rel: str) -> set[str]:
    tree = ast.parse(shrunk.text(PKG + rel))
    out = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Assign):
            out.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] if isinstance(node, ast.Import) else (a.asname or a.name)
                       for a in node.names)
    return out


def test_the_fork_runs_and_no_check_needed_a_restoration(libpit):
    assert libpit.result.apply.restored == []
    done, original = libpit.run("libpit.cli"), libpit.run("libpit.cli", original=True)
    assert done.returncode == 0, done.stderr
    assert "'hello y'" in done.stdout and "'X'" in done.stdout  # the decorator and the patch registered
    assert done.stdout == original.stdout.replace("['alpha', 'beta']", "['alpha']")  # NAMES lost 'beta' only


def test_unused_definitions_and_imports_are_pruned_with_reasons(libpit):
    assert _defs(libpit, "core.py") == {"json", "Engine", "tokenize", "unused_helper", "kept_by_spec",
                                        "yaml_hook", "used_by_new_syntax"}  # detok: only facade's __all__ named it
    removal = libpit.removal("libpit.core", "unused_cached")
    assert removal is not None and removal.reason == "no kept code references it" and removal.line == 26
    assert libpit.removal("libpit.core", "os").reason == "no kept code uses the name it binds (import os)"
    assert "whisper" not in _defs(libpit, "util/text.py")


def test_imports_inside_functions_keep_what_they_name_and_the_rest_goes(libpit):
    assert _defs(libpit, "inner.py") == {"inner_fn"}
    assert _defs(libpit, "innermod.py") == {"value"}
    assert libpit.removal("libpit.inner", "inner_unused").reason == "no kept code references it"


def test_methods_of_kept_classes_stay_with_what_they_use(libpit):
    text = libpit.text(PKG + "core.py")
    assert "def unused_method" in text and "def unused_helper" in text


def test_an_import_only_unused_code_needed_goes_and_its_module_leaves(libpit):
    assert not libpit.has(PKG + "pure_unused.py")
    assert "pure_unused" not in libpit.text(PKG + "cli.py")


def test_pitfall_01_package_reexport_stays(libpit):
    assert "from libpit.core import Engine" in libpit.text(PKG + "__init__.py")


def test_pitfall_02_plain_module_reexports_stay(libpit):
    """The re-export kept code imports stays; under ``public_api = "roots"`` (libpit's spec) the literal
    ``__all__`` of a module that is no root promises nothing: it loses the name nothing kept uses, so
    ``from libpit.facade import *`` still works (under the default every kept public module's list stays whole:
    tests/symbols/test_star_consumers.py)."""
    assert libpit.text(PKG + "facade.py") == (libpit.source / PKG / "facade.py").read_text() \
        .replace("import detok, tokenize", "import tokenize").replace('["detok"]', "[]")


def test_pitfall_03_star_reexport_keeps_init_and_exported_names(libpit):
    assert libpit.text(PKG + "shapes/__init__.py") == "from .circle import *  # pitfall 3: a star re-export\n"
    assert _defs(libpit, "shapes/circle.py") == {"__all__", "Circle"}


def test_pitfall_04_side_effect_imports_stay(libpit):
    cli = libpit.text(PKG + "cli.py")
    assert "import libpit.patches" in cli and libpit.has(PKG + "patches.py")
    # kept where it runs: an import of a module with import-time effects stays (test_effectful_imports.py)
    assert "libpit.patches" not in libpit.result.analysis.stages.symbols.protected


def test_pitfall_05_fixture_imports_of_a_pytest_plugin_stay(libpit):
    assert "engine_fixture" in libpit.text(PKG + "testing/plugin.py")
    assert _defs(libpit, "testing/fixtures.py") == {"engine_fixture"}


def test_pitfall_06_submodule_used_as_attribute_keeps_the_import_that_loads_it(libpit):
    assert "import libpit.util.numbers" in libpit.text(PKG + "loader.py")
    assert "import libpit.util.text" in libpit.text(PKG + "cli.py")
    assert libpit.has(PKG + "util/numbers.py")


def test_pitfall_07_import_of_a_submodule_binds_its_package(libpit):
    assert "import json.encoder" in libpit.text(PKG + "core.py")


def test_pitfall_08_and_09_imports_in_try_blocks_stay(libpit):
    assert libpit.text(PKG + "compat.py") == (libpit.source / PKG / "compat.py").read_text()
    assert libpit.has(PKG + "_pure.py")


def test_pitfall_10_names_in_annotations_stay(libpit):
    assert "from libpit.types import Config" in libpit.text(PKG + "settings.py")
    assert _defs(libpit, "types.py") == {"Config"}


def test_pitfall_11_dynamic_all_keeps_the_module(libpit):
    assert {"alpha", "beta"} <= _defs(libpit, "dyn.py")
    done = libpit.run(code="from libpit.dyn import *; print(beta())")
    assert done.stdout.strip() == "beta", done.stderr


def test_pitfall_12_global_statements_keep_the_module_name(libpit):
    assert _defs(libpit, "state.py") == {"counter", "bump"}
    assert libpit.run(code="import libpit.state as s; s.bump(); print(s.counter)").stdout.strip() == "1"


def test_pitfall_13_names_found_by_globals_and_getattr_stay(libpit):
    assert {"handle_a", "handle_b"} <= _defs(libpit, "dispatch.py")
    assert {"op_add", "op_mul"} <= _defs(libpit, "ops.py")
    assert "def forward_slow" in libpit.text(PKG + "machine.py")
    uncertain = {u.path: u.why for u in libpit.result.analysis.plan.uncertain}
    assert "globals()" in uncertain[PKG + "dispatch.py"]


def test_pitfall_14_decorator_registration_keeps_the_function(libpit):
    assert _defs(libpit, "routes.py") == {"register", "hello"}


def test_pitfall_15_names_used_only_in_doctests_stay(libpit):
    assert "doctest_only" in _defs(libpit, "mathx.py")


def test_pitfall_16_lazy_getattr_and_fstring_imports_keep_their_modules(libpit):
    # a module __getattr__ that answers names it writes out keeps what it names, not every name (session 36)
    assert {"__getattr__", "_late_impl"} <= _defs(libpit, "lazymod.py")
    assert "_also_private" not in _defs(libpit, "lazymod.py")
    assert "fast_only_helper" in _defs(libpit, "backends/fast.py") and libpit.has(PKG + "backends/slow.py")


def test_pitfall_17_entry_points_and_config_files_keep_what_they_name(libpit):
    assert _defs(libpit, "plugins.py") == {"extra_plugin"}
    assert "yaml_hook" in _defs(libpit, "core.py")
    assert "kept_by_spec" in _defs(libpit, "core.py")  # [symbols] keep


def test_pitfall_32_imports_inside_an_import_cycle_stay(libpit):
    assert "import libpit.cyc_b" in libpit.text(PKG + "cyc_a.py")


def test_pitfall_33_modules_found_by_a_directory_scan_keep_their_names(libpit):
    assert "load" in _defs(libpit, "formats/csv_fmt.py") and "load" in _defs(libpit, "formats/json_fmt.py")


def test_pitfall_34_namespace_package_modules_are_pruned_and_still_import(libpit):
    assert _defs(libpit, "nsdemo/tool.py") == {"run"}
    assert libpit.run(code="from libpit.nsdemo.tool import run; print(run())").stdout.strip() == "ns"


def test_why_explains_a_pruned_and_a_kept_symbol(libpit):
    from slimfork.explain import explain

    analysis = libpit.result.analysis
    gone = explain(analysis, "libpit.core:unused_cached")
    assert not gone.kept and gone.reason == "removed: no kept code references it (src/libpit/core.py:26)"
    kept = explain(analysis, "libpit.core:tokenize")
    assert kept.kept and kept.reason.startswith("'tokenize' is kept: ")
    assert explain(analysis, "libpit.core").kept  # the module itself stays


def test_subclass_hooks_and_registering_metaclasses_keep_their_classes(libpit):
    assert _defs(libpit, "hooks.py") == {"Plugin", "FooPlugin", "Meta", "ByMeta"}
    assert "['FooPlugin'], ['ByMeta']" in libpit.run("libpit.cli").stdout


def test_names_a_file_that_does_not_parse_imports_stay(libpit):
    assert "used_by_new_syntax" in _defs(libpit, "core.py")
    assert libpit.text(PKG + "newsyntax.py") == (libpit.source / PKG / "newsyntax.py").read_text()


def test_every_import_of_a_block_keeps_its_source_name(libpit):
    assert {"double", "triple"} <= _defs(libpit, "util/numbers.py")
    assert libpit.run(code="import libpit.compat as c; print(c.triple(2))").stdout.strip() == "6"
