"""Symbol pruning on the real sglang wheel: the module-level plan of profiles/sglang-deepseek.toml (without fact
folding, which has its own benchmark), then the symbol stage with the DeepSeek dict registries. Prints the Python
files and lines kept before and after, what was pruned, and the seconds per step.

    python benchmarks/symbols_bench.py [MAX_ROUNDS]
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

from slimfork.api import analyse
from slimfork.plan.stages import Stages
from slimfork.prune.spec import SymbolsSpec
from slimfork.prune.stage import run_symbol_stage
from slimfork.spec import load_spec

ROOT = Path(__file__).resolve().parents[1]
REGISTRIES = [
    {"kind": "dict", "package": "sglang.srt.parser.reasoning_parser.ReasoningParser.DetectorMap",
     "keep": ["deepseek-r1", "deepseek-v3"]},
    {"kind": "dict", "package": "sglang.srt.function_call.function_call_parser.FunctionCallParser.ToolCallParserEnum",
     "keep": ["deepseekv3", "deepseekv31", "deepseekv32"]},
]


def main(rounds: int) -> None:
    spec = load_spec(ROOT / "profiles" / "sglang-deepseek.toml")
    spec.sections["symbols"] = SymbolsSpec(max_rounds=rounds)
    spec.raw = {**spec.raw, "registries": list(spec.raw.get("registries", [])) + REGISTRIES}
    analysis = analyse(spec, fold=False)
    scratch = Path(tempfile.mkdtemp(prefix="slimfork-symbols-bench-"))
    try:
        for rel in analysis.index.files:
            (scratch / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(analysis.tree.root / rel, scratch / rel)
        stages = Stages(analysis.plan, analysis.graph)
        before = _kept_lines(stages.plan, scratch)
        start = time.perf_counter()
        stage = run_symbol_stage(analysis, stages, scratch)
        seconds = time.perf_counter() - start
        after = _kept_lines(stages.plan, scratch)
        total = sum(s.lines for s in analysis.index.files.values())
        defs = [p for p in stage.pruned if p.kind != "import"]
        print(f"sglang Python: {len(analysis.index.files)} files, {total:,} lines")
        for label, (files, lines) in (("kept by module reachability", before), ("after symbol pruning", after)):
            print(f"{label}: {files} files, {lines:,} lines ({1 - lines / total:.1%} fewer)")
        print(f"pruned: {len(defs)} definitions ({sum(p.end - p.line + 1 for p in defs):,} lines), "
              f"{sum(len(p.names) for p in stage.pruned if p.kind == 'import')} imported names; "
              f"{len(stage.modules_removed)} modules left; {len(stage.protected)} imports kept for their effects")
        print(f"{stage.rounds} rounds, {seconds:.1f} s: {stage.timings}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _kept_lines(plan, scratch: Path) -> tuple[int, int]:
    removed = plan.removed_paths()
    files = [k.path for k in plan.kept
             if k.path.endswith(".py") and k.path not in removed and (scratch / k.path).exists()]
    return len(files), sum((scratch / p).read_bytes().count(b"\n") for p in files)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 6)
