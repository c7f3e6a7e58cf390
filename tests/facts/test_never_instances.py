"""`[facts] never_instances`: classes no object of which exists in the deployment (what would create one is left
out). `isinstance(x, C)` folds to False, C leaves a tuple of classes, the function-local imports only those checks
read go, and the modules only they loaded leave the fork (sglang's `DeepSeekV4TokenToKVPool` checks in the
disaggregation code once the V4 model is gone)."""

from __future__ import annotations

from tests.mapping.registrykit import run_cli, write_project

import libcst as cst

from slimfork.api import analyse, shrink
from slimfork.rewrite.class_lists import class_list_names

FILES = {
    "pkg/__init__.py": "",
    "pkg/pools.py": "class MlaPool:\n    pass\n",
    "pkg/v4pool.py": "import pkg.v4kernels\n\n\nclass V4Pool:\n    pass\n",
    "pkg/v4kernels.py": "TABLE = [1]\n",
    "pkg/disagg.py": """
        from pkg.pools import MlaPool


        def is_mla(pool):
            from pkg.v4pool import V4Pool

            return isinstance(pool, (MlaPool, V4Pool))


        def describe(pool):
            from pkg.v4pool import V4Pool

            if isinstance(pool, V4Pool):
                return "v4"
            return "mla" if is_mla(pool) else "other"


        def graph_ready(pool, cuda=True):
            ready = [MlaPool]
            if cuda:
                # V4 pools are CUDA-only
                from pkg.v4pool import V4Pool

                ready.append(V4Pool)
            return isinstance(pool, tuple(ready))


        def listed(pool):
            from pkg.v4pool import V4Pool

            kinds = [V4Pool, MlaPool]
            return isinstance(pool, tuple(kinds))
        """,
    "pkg/cli.py": """
        import sys

        from pkg.disagg import describe, graph_ready, listed
        from pkg.pools import MlaPool

        if __name__ == "__main__":
            pool = MlaPool() if sys.argv[1] == "mla" else object()
            print(describe(pool), graph_ready(pool), listed(pool))
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]

[facts]
never_instances = ["pkg.v4pool.V4Pool"]   # the V4 model, which alone makes one, is left out
"""


def test_isinstance_of_a_class_without_objects_folds_and_its_module_leaves(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    analysis = analyse(root / "slimfork.toml")
    assert {"pkg/v4pool.py", "pkg/v4kernels.py"} <= {r.path for r in analysis.plan.removals}
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    disagg = (result.out / "pkg/disagg.py").read_text()
    assert "V4Pool" not in disagg and "return isinstance(pool, MlaPool)" in disagg
    assert "kinds = [MlaPool]" in disagg and "ready.append" not in disagg
    for key in ("mla", "none"):
        assert run_cli(result.out, key).stdout == run_cli(root, key).stdout
    assert all(b.checks and all(c.ok for c in b.checks) and not b.restored for b in result.apply.batches)
    disagg_fold = next(f for f in analysis.stages.fold_report.files if f.path == "pkg/disagg.py")
    assert {key for key, _ in disagg_fold.matches} == {"facts.never_instances[0]"}
    assert any(f.kind == "isinstance" and "V4Pool" in f.detail for f in disagg_fold.folds)


def test_without_the_fact_nothing_changes(tmp_path):
    root = write_project(tmp_path, FILES, SPEC.split("[facts]")[0])
    analysis = analyse(root / "slimfork.toml")
    assert "pkg/v4pool.py" not in {r.path for r in analysis.plan.removals}


def test_kept_code_that_creates_a_declared_class_is_reported(tmp_path):
    files = {**FILES, "pkg/maker.py": "from pkg.v4pool import V4Pool\n\n\ndef make():\n    return V4Pool()\n"}
    files["pkg/cli.py"] = FILES["pkg/cli.py"].replace("from pkg.pools import MlaPool",
                                                      "from pkg.maker import make\n        from pkg.pools import MlaPool")
    files["pkg/cli.py"] = files["pkg/cli.py"].replace("object()", "make()")
    root = write_project(tmp_path, files, SPEC)
    analysis = analyse(root / "slimfork.toml")
    assert "facts.never_instances[0]: pkg.v4pool.V4Pool is declared to have no objects, but pkg/maker.py:5 " \
           "creates one" in analysis.plan.warnings


def test_a_declared_class_creating_another_in_its_methods_is_not_reported():
    from slimfork.facts import parse_facts
    from slimfork.facts.instances import creation_warnings

    code = b"""
class Step:
    pass


class MultiStep:
    def __init__(self, n):
        self.steps = [Step() for _ in range(n)]  # runs only for a MultiStep, which never exists

    @classmethod
    def build(cls):
        return Step()  # a class method runs without an object


def make():
    return MultiStep(2)
"""
    facts = parse_facts({"never_instances": ["pkg.m.Step", "pkg.m.MultiStep"]})
    assert creation_warnings(facts, [("pkg/m.py", code)]) == [
        "facts.never_instances[0]: pkg.m.Step is declared to have no objects, but pkg/m.py:12 creates one",
        "facts.never_instances[1]: pkg.m.MultiStep is declared to have no objects, but pkg/m.py:16 creates one"]


def test_a_list_of_classes_qualifies_only_when_isinstance_alone_reads_it():
    code = """
def f(x, extra):
    only = [A]
    only.append(B)
    walked = [A]
    walked.append(B)
    passed = [A]
    rebound = [A]
    rebound = rebound + [B]
    return isinstance(x, tuple(only)) or isinstance(x, tuple(walked)) or [k() for k in walked] or extra(passed) \\
        or isinstance(x, tuple(rebound))
"""
    function = cst.parse_module(code).body[0]
    assert class_list_names(function) == {"only"}
