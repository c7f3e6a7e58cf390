"""Stale spec entries (issue #31): a profile written for v1 of a package, run on v2, names a root, a folder, a
scanned module, a dict key, a predicate and a class that v2 renamed. Each is reported with the closest new name;
by default they stop the run (exit 2, nothing written), and --allow-stale (or allow_stale = true) makes them
warnings listed in the reports."""

from __future__ import annotations

import json

import pytest

from slimfork.api import analyse, shrink
from slimfork.cli import main
from slimfork.errors import StaleError
from tests.pipeline.releases import PROFILE, V2, releases, write_release, write_spec

EXPECTED = {  # key -> the closest name v2 has
    "roots[1]": "pkg.toolbox",
    "drop[0]": "src/pkg/old_api",
    "registries[0].keep[1]": "deepseek_v32",
    "registries[1].keep[1]": "fa4",
    "facts.functions.pkg.plat.is_rocm": "pkg.plat.is_hip_rocm",
    "facts.never_instances[0]": "pkg.engine.CudaGraphRunnerV2",
    "symbols.keep[0]": "CudaGraphRunnerV2",
}


def test_the_profile_matches_everything_on_the_release_it_was_written_for(tmp_path):
    on_v1, _ = releases(tmp_path)
    analysis = analyse(on_v1, jobs=1)
    assert analysis.stale == [] and not any("stale" in w for w in analysis.plan.warnings)


def test_every_kind_of_stale_entry_is_reported_with_the_closest_new_name(tmp_path):
    _, on_v2 = releases(tmp_path)
    analysis = analyse(on_v2, jobs=1, allow_stale=True)
    assert {e.key: e.suggestion for e in analysis.stale} == EXPECTED
    assert {e.kind for e in analysis.stale} == {"root", "glob", "registry key", "fact", "symbol"}
    warnings = [w for w in analysis.plan.warnings if w.startswith("stale: ")]
    assert len(warnings) == len(EXPECTED)
    assert 'registries[0].keep[1]: key "deepseek_v3" matches no entry of the modules of pkg.models; hint: did ' \
           "you mean deepseek_v32?" in " ".join(warnings)
    # Allowed, a stale entry is ignored: the renamed modules are planned as if the entry were not there.
    kept = {k.path for k in analysis.plan.kept}
    assert "src/pkg/toolbox.py" not in kept and "src/pkg/models/llama.py" in kept


def test_stale_entries_stop_the_run_before_anything_is_written(tmp_path, capsys):
    _, on_v2 = releases(tmp_path)
    out = tmp_path / "fork"
    assert main(["shrink", str(on_v2), "--out", str(out), "--no-verify", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    # The entries found before the graph come together, each as error: KEY: message and its hint.
    assert "error: roots[1]: no module 'pkg.tools' in the source\n  hint: did you mean pkg.toolbox?" in err
    assert "error: drop[0]: 'src/pkg/legacy' matches no file of the source\n  hint: did you mean src/pkg/old_api?" \
        in err
    assert "error: registries[0].keep[1]: key \"deepseek_v3\"" in err and "--allow-stale" in err
    assert "Traceback" not in err and not out.exists()


def test_stale_keys_and_facts_found_by_the_stages_stop_the_run_too(tmp_path, capsys):
    """Roots, globs, the scanned registry and [symbols] fixed for v2: the dict key and the facts are still v1's."""
    write_release(tmp_path / "v2", V2)
    profile = PROFILE.replace('"pkg.tools"', '"pkg.toolbox"').replace("src/pkg/legacy", "src/pkg/old_api") \
        .replace('"deepseek_v3"', '"deepseek_v32"').replace('"pkg.engine:CudaGraphRunner"', '"pkg.engine:CudaGraphRunnerV2"')
    spec = write_spec(tmp_path, "half", "v2", profile)
    with pytest.raises(StaleError) as info:
        analyse(spec, jobs=1)
    assert [e.key for e in info.value.entries] == ["registries[1].keep[1]", "facts.functions.pkg.plat.is_rocm",
                                                   "facts.never_instances[0]"]
    out = tmp_path / "fork"
    assert main(["shrink", str(spec), "--out", str(out), "--no-verify", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert "error: facts.functions.pkg.plat.is_rocm: the fact pkg.plat.is_rocm() = False matched nothing" in err
    assert "hint: did you mean pkg.plat.is_hip_rocm?" in err and not out.exists()


def test_allow_stale_from_the_command_line_or_the_spec(tmp_path, capsys):
    _, on_v2 = releases(tmp_path)
    assert main(["plan", str(on_v2), "--allow-stale", "--json", "--jobs", "1"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert sum(w.startswith("stale: ") for w in data["warnings"]) == len(EXPECTED)
    assert "warning: roots[1]: no module 'pkg.tools' in the source\n  hint: did you mean pkg.toolbox?" in captured.err
    assert captured.err.count("warning: ") == len(EXPECTED)
    allowed = write_spec(tmp_path, "allowed", "v2", extra="allow_stale = true")
    assert main(["plan", str(allowed), "--jobs", "1"]) == 0
    assert "stale: roots[1]" in capsys.readouterr().out
    assert main(["plan", str(allowed), "--strict", "--jobs", "1"]) == 2  # --strict overrides the spec


def test_the_report_lists_the_allowed_stale_entries(tmp_path):
    _, on_v2 = releases(tmp_path)
    result = shrink(on_v2, tmp_path / "fork", dry_run=True, jobs=1, allow_stale=True)
    assert {e["key"]: e["suggestion"] for e in result.data["stale"]} == EXPECTED
    from slimfork.report.markdown import summary_markdown

    text = summary_markdown(result.data)
    assert f"## Stale spec entries ({len(EXPECTED)})" in text and "(did you mean `fa4`?)" in text


def test_a_key_written_as_it_is_matches_itself_though_it_holds_brackets(tmp_path):
    """`slimfork init` drafts keys verbatim: a deprecation message naming `[Class][pkg.Class]` is no glob of itself
    (markdown's profile kept such a key that matched nothing, and the cut removed its registration)."""
    key = "use [`Unescape`][pkg.Unescape] instead"
    write_release(tmp_path / "src", {"pkg/__init__.py": "", "pkg/cli.py": f"TABLE = {{{key!r}: 1, 'b': 2}}\n"})
    spec = tmp_path / "slimfork.toml"
    spec.write_text(f'source = "src"\nroots = ["pkg.cli"]\n\n[[registries]]\nkind = "dict"\npackage = "pkg.cli.TABLE"\n'
                    f'keep = [{key!r}]\n'.replace("'", '"'))
    analysis = analyse(spec, jobs=1)
    (cut,) = analysis.stages.symbols.registries
    assert cut["kept"] == [key] and cut["removed"] == ["b"] and analysis.stale == []


def test_a_key_only_removed_code_registers_is_a_warning_not_stale(tmp_path):
    """The cuts read the code the fork keeps: a key registered in a module nothing imports is no error (the
    source still has it), but a warning naming where; a key that exists nowhere is stale."""
    write_release(tmp_path / "src", {
        "pkg/__init__.py": "",
        "pkg/registry.py": "TABLE = {}\n\n\ndef register(key):\n    return lambda f: TABLE.setdefault(key, f)\n",
        "pkg/fast.py": "from pkg.registry import register\n\n\n@register('triton')\ndef triton():\n    pass\n",
        "pkg/unused.py": "from pkg.registry import register\n\n\n@register('fa3')\ndef fa3():\n    pass\n",
        "pkg/cli.py": "import pkg.fast\n",
    })
    spec = tmp_path / "slimfork.toml"
    spec.write_text('source = "src"\nroots = ["pkg.cli"]\n\n[[registries]]\nkind = "decorator"\n'
                    'package = "pkg.registry.register"\nkeep = ["triton", "fa3", "fa9"]\n')
    with pytest.raises(StaleError) as info:
        analyse(spec, jobs=1)
    (entry,) = info.value.entries
    assert entry.key == "registries[0].keep[2]" and entry.suggestion is None and "keys: triton" in entry.hint
    warnings = analyse(spec, jobs=1, allow_stale=True).plan.warnings
    assert any(w.startswith('registries[0].keep[1]: key "fa3" matches no entry of the registrations through '
                            "pkg.registry.register in the code the fork keeps; pkg/unused.py:4 names it") for w in warnings)


def test_a_registration_whose_key_the_cut_cannot_read_makes_no_key_stale(tmp_path):
    """markdown's @deprecated("..." "...") key is two strings: the cut leaves it, and claims no pattern stale."""
    write_release(tmp_path / "src", {
        "pkg/__init__.py": "",
        "pkg/registry.py": "def register(key):\n    return lambda f: f\n",
        "pkg/cli.py": "from pkg.registry import register\n\n\n@register('use it' ' instead')\ndef old():\n    pass\n"
                      "\n\n@register('b')\ndef b():\n    pass\n",
    })
    spec = tmp_path / "slimfork.toml"
    spec.write_text('source = "src"\nroots = ["pkg.cli"]\n\n[[registries]]\nkind = "decorator"\n'
                    'package = "pkg.registry.register"\nkeep = ["b", "use it instead"]\n')
    assert analyse(spec, jobs=1).stale == []
