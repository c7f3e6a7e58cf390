"""Apply the plan in verified batches: a git repository in the output folder, one commit per batch."""

from slimfork.apply.engine import run_batches
from slimfork.apply.from_plan import batches_from_removals
from slimfork.apply.model import ApplyReport, Batch, BatchResult, Edit, RestoredEdit

__all__ = ["ApplyReport", "Batch", "BatchResult", "Edit", "RestoredEdit", "batches_from_removals", "run_batches"]
