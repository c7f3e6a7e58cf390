"""Golden cases in the unifdef style: tests/kernels/golden/<case>/ holds input.*, expected.* and
expected_report.json (and optionally facts.toml; else golden/facts.toml applies).

Regenerate after an intended change with `python tests/kernels/kernel_golden_cases.py --write`, then review the diff.
"""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

from slimfork.kernels.spec import PreprocessorFacts, parse_preprocessor
from slimfork.kernels.unifdef import Engine, FileFold, find_engine, fold_text

GOLDEN = Path(__file__).parent / "golden"


def cases() -> list[Path]:
    return sorted(p for p in GOLDEN.iterdir() if p.is_dir())


def facts_for(case: Path) -> PreprocessorFacts:
    path = case / "facts.toml" if (case / "facts.toml").is_file() else GOLDEN / "facts.toml"
    return parse_preprocessor(tomllib.loads(path.read_text()), "facts.preprocessor")


def input_of(case: Path) -> Path:
    return next(case.glob("input.*"))


def expected_of(case: Path) -> Path:
    return case / ("expected" + input_of(case).suffix)


def report_data(record: FileFold) -> dict:
    data = {"status": record.status, "directives_folded": record.directives_folded,
            "lines_removed": record.lines_removed, "expressions_reduced": record.expressions_reduced,
            "remaining": list(record.remaining)}
    if record.left_alone:
        data["message"] = record.message
    return data


def run(case: Path, engine: Engine | None = None) -> tuple[bytes, dict]:
    out, record = fold_text(input_of(case).read_bytes(), facts_for(case), engine or find_engine(),
                            input_of(case).name)
    return out, report_data(record)


if __name__ == "__main__" and "--write" in sys.argv:
    for case in cases():
        out, report = run(case)
        expected_of(case).write_bytes(out)
        (case / "expected_report.json").write_text(json.dumps(report, indent=2) + "\n")
        print(f"wrote {case.name}")
