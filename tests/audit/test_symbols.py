"""Finding kind "unused-symbol": private top-level names no file of the tree names (torchao's clean-ups
"Remove unused multi-input helper", "Delete unused NVFP4 filter": ``_MultiInput``, ``_auto_filter_for_nfp4``)."""

from __future__ import annotations

from pathlib import Path

from slimfork.audit.run import AuditOptions, run_audit
from slimfork.source.layout import open_tree

FIXTURE = Path(__file__).parent / "fixtures" / "symbol_lib"


def _findings():
    result, _table = run_audit(open_tree(FIXTURE), options=AuditOptions(kinds={"unused-symbol"}))
    return result, {f.subject.split("::")[1]: f for f in result.findings}


def test_private_names_nothing_reads_are_unused_with_what_only_they_read():
    _result, found = _findings()
    assert {name: f.confidence for name, f in found.items()} == {
        "_dead": 60, "_only_dead_code_calls": 60, "_TABLE_ONLY_DEAD_CODE_READS": 60, "_listed": 40}
    assert found["_dead"].reason == "a private name no file of the tree reads, imports, or names in a string"
    assert found["_only_dead_code_calls"].reason.endswith("but unused code of its own file: _dead")
    assert "__all__" in found["_listed"].reason


def test_what_may_be_used_is_not_judged():
    # imported by another file, named in a string, matched by an f-string pattern, used in its module,
    # decorated by a registering decorator, a class with a base, a public name
    _result, found = _findings()
    for kept in ("_imported_elsewhere", "_looked_up_by_string", "_pattern_target_x", "_used_here", "_registered",
                 "_Box", "_Sub", "public_unused", "run"):
        assert kept not in found


def test_the_projection_counts_the_lines_of_unused_symbols():
    result, found = _findings()
    projection = result.stats["projection"]
    gone = sum(f.details["lines"] for f in found.values() if f.confidence >= 50)
    assert gone == 6
    assert projection["before"]["lines"] - projection["after"]["lines"] == gone
