"""``from . import patches  # noqa: F401`` loads a module whose top level changes another module's table; a kept
function imports it again lazily. Pruning the unused top-level import kept the module reachable (so no effect
was lost by the graph's measure) but moved its effect into a function that never runs: the fork printed "slow"
(exit 0). An import that loads a module with import-time effects stays; one of a module without effects still
goes when its name is unused (``tests/symbols/test_local_effects.py``)."""

from __future__ import annotations

from tests.symbols.forkrun import shrink_and_run_main

FILES = {
    "pkg/__init__.py": "",
    "pkg/app.py": """
        from . import config
        from . import patches, handlers_int, plain  # noqa: F401
        from .core import process


        def main():
            print(config.VALUES["mode"], process(3))


        def reload():
            from . import handlers_int as h, patches as p, plain as q
            return p, h, q
        """,
    "pkg/config.py": "VALUES = {'mode': 'slow'}\n",
    "pkg/patches.py": "from . import config\n\nconfig.VALUES['mode'] = 'fast'\n",
    "pkg/core.py": "import functools\n\n\n@functools.singledispatch\ndef process(obj):\n    return 'generic'\n",
    "pkg/handlers_int.py": "from .core import process\n\n\n@process.register(int)\ndef _p(obj):\n    return 'int'\n",
    "pkg/plain.py": "def helper():\n    return 1\n",
}


def test_an_import_of_a_module_with_effects_stays_where_it_runs(tmp_path):
    result, fork, run = shrink_and_run_main(tmp_path, FILES, roots='"pkg.app:main", "pkg.app:reload"')
    assert (run.returncode, run.stdout) == (0, "fast int\n"), run.stderr
    assert "from . import patches, handlers_int" in (fork / "pkg/app.py").read_text()
    kept_by = result.analysis.stages.symbols.reach.first_use
    assert kept_by[("pkg.app", "patches")] == "loads pkg.patches, whose loading has effects (line 3: assigns to " \
                                             "an attribute or item (may change another object))"
