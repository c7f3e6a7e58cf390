"""Apply the plan in verified batches: a git repository in the output folder, one commit per batch."""

from slimfork.apply.engine import run_batches
from slimfork.apply.model import ApplyReport, Batch, BatchResult, Edit, RestoredEdit

__all__ = ["ApplyReport", "Batch", "BatchResult", "Edit", "RestoredEdit", "run_batches"]
