"""How long the batches left may take, for the progress lines: a checked run of slow tests (scikit-build-core
1.1.2's suite builds packages with CMake: over 15 minutes on two loaded cores) said nothing of how far it was."""

from __future__ import annotations

from slimfork.progress import counted


def pace(index: int, total: int, took: list[float], baseline_seconds: list[float]) -> str:
    """``; 7 batches left after it, about 2 min each so far: about 16 min to go`` for batch ``index`` (from 0) of
    ``total``; ``took``: the seconds of the batches checked so far in this run; before the first, each batch is
    taken to cost what the checks cost on the original (each batch runs them all, once where nothing fails)."""
    left = total - index - 1
    per = sum(took) / len(took) if took else sum(baseline_seconds)
    if per <= 0:
        return f"; {counted(left, 'batch', 'batches')} left after it" if left else ""
    basis = "so far" if took else "as the checks took on the original"
    if not left:
        return f"; the last, about {duration(per)} {'as each so far' if took else basis}"
    return (f"; {counted(left, 'batch', 'batches')} left after it, about {duration(per)} each {basis}: about "
            f"{duration(per * (left + 1))} to go")


def duration(seconds: float) -> str:
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    if seconds < 5400:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"
