"""Verification: a ladder of differential checks, cheapest first, run on the original and on each batch."""

from slimfork.verify.model import Baseline, Check, CheckReport, CheckResult

__all__ = ["Baseline", "Check", "CheckReport", "CheckResult"]
