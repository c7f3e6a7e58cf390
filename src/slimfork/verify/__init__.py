"""Verification: a ladder of differential checks, cheapest first, run on the original and on each batch."""

from slimfork.verify.build import build_checks, layout_of, verify_env
from slimfork.verify.ladder import run_baselines, run_ladder
from slimfork.verify.model import Baseline, Check, CheckReport, CheckResult

__all__ = ["Baseline", "Check", "CheckReport", "CheckResult", "build_checks", "layout_of", "run_baselines",
           "run_ladder", "verify_env"]
