"""The dict registries of a DeepSeek deployment on the real sglang 0.5.23 wheel (downloaded by the test, cached):
``ReasoningParser.DetectorMap`` and ``FunctionCallParser.ToolCallParserEnum`` keep the DeepSeek keys, the other
detectors leave, and no kept module imports a name that is gone. Symbol pruning of the whole tree is measured by
hand (the report of issue 5 has its numbers); here only the registry modules are pruned, to stay within minutes."""

from __future__ import annotations

import shutil
import tomllib

import pytest

from slimfork.index import summarize
from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # not in the profile test's group: it runs beside it, not after it (CI's critical path)
PROFILE = ROOT / "profiles" / "sglang-deepseek.toml"
REGISTRIES = [
    {"kind": "dict", "package": "sglang.srt.parser.reasoning_parser.ReasoningParser.DetectorMap",
     "keep": ["deepseek-r1", "deepseek-v3"]},
    {"kind": "dict", "package": "sglang.srt.function_call.function_call_parser.FunctionCallParser.ToolCallParserEnum",
     "keep": ["deepseekv3", "deepseekv31", "deepseekv32"]},
]


@pytest.fixture(scope="module")
def stage(tmp_path_factory):
    import os

    from slimfork.api import analyse
    from slimfork.plan.stages import Stages
    from slimfork.prune.stage import run_symbol_stage
    from slimfork.spec import parse_spec
    from tests.conftest import SHARED_CACHE

    os.environ["SLIMFORK_CACHE"] = str(SHARED_CACHE)
    raw = tomllib.loads(PROFILE.read_text())
    # the profile's own dict registries are replaced by these two (the profile cuts the same dicts, and more)
    raw["registries"] = [r for r in raw.get("registries", []) if r.get("kind") != "dict"] + REGISTRIES
    for key in ("facts", "kernels", "checks", "verify", "symbols"):
        raw.pop(key, None)
    analysis = analyse(parse_spec(raw, PROFILE), fold=False, jobs=2)
    scratch = tmp_path_factory.mktemp("scratch")
    for rel in analysis.index.files:
        (scratch / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(analysis.tree.root / rel, scratch / rel)
    stages = Stages(analysis.plan, analysis.graph)
    result = run_symbol_stage(analysis, stages, scratch, jobs=2)
    return analysis, stages, result, scratch


def test_registries_keep_the_deepseek_keys_and_cut_the_rest(stage):
    _, _, result, scratch = stage
    regs = {r["variable"]: r for r in result.registries}
    assert regs["ReasoningParser.DetectorMap"]["kept"] == ["deepseek-r1", "deepseek-v3"]
    assert regs["FunctionCallParser.ToolCallParserEnum"]["kept"] == ["deepseekv3", "deepseekv31", "deepseekv32"]
    assert len(regs["ReasoningParser.DetectorMap"]["removed"]) > 20
    parser = (scratch / "sglang/srt/function_call/function_call_parser.py").read_text()
    assert "from sglang.srt.function_call.deepseekv3_detector import DeepSeekV3Detector" in parser
    assert "Qwen25Detector" not in parser and "from sglang.srt.function_call.qwen25_detector" not in parser
    reasoning = (scratch / "sglang/srt/parser/reasoning_parser.py").read_text()
    assert "class DeepSeekR1Detector" in reasoning and "class KimiK2Detector" not in reasoning


def test_detectors_only_the_removed_keys_used_leave_the_fork(stage):
    _, stages, result, _ = stage
    gone = {r.path for r in result.modules_removed}
    assert "sglang/srt/function_call/qwen25_detector.py" in gone
    assert "sglang/srt/function_call/deepseekv3_detector.py" not in stages.plan.removed_paths()
    assert all(r.group == "symbols" for r in result.modules_removed)


def test_no_kept_module_imports_a_name_that_is_gone(stage):
    """Every ``from m import name`` of a kept module, where m is a file the stage rewrote, still finds ``name``
    (only rewritten files can lose names)."""
    analysis, stages, result, scratch = stage
    mm, removed = stages.graph.mm, stages.plan.removed_paths()
    changed = {mm.module_of(rel): rel for rel in result.contents}
    broken = []
    for base, rel in changed.items():
        before = summarize((analysis.tree.root / rel).read_bytes()).symbols.binders()
        after = summarize((scratch / rel).read_bytes()).symbols.binders()
        lost = set(before) - set(after)
        importers = {src for graph in (stages.graph, analysis.graph) for src, _ in graph.importers(base)}
        for src in sorted(importers):
            info = mm.modules.get(src)
            if info is None or info.path is None or info.path in removed or not (scratch / info.path).is_file():
                continue
            summary = summarize((scratch / info.path).read_bytes()).symbols
            for st in summary.statements:
                for alias in st.aliases:
                    if alias.name in lost and _absolute(mm, src, alias) == base:
                        broken.append(f"{src}: from {base} import {alias.name}")
    assert changed and broken == []


def _absolute(mm, module, alias):
    if not alias.level:
        return alias.module
    info = mm.modules.get(module)
    parts = module.split(".") if info is not None and info.is_package else module.split(".")[:-1]
    anchor = parts[: len(parts) - (alias.level - 1)]
    return ".".join(anchor + ([alias.module] if alias.module else []))
