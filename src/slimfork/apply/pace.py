"""How long the batches left may take, for the progress lines: a checked run of slow tests (scikit-build-core
1.1.2's suite builds packages with CMake: over 15 minutes on two loaded cores) said nothing of how far it was."""

from __future__ import annotations

from slimfork.progress import counted


def pace(index: int, total: int, took: list[float], baseline_seconds: list[float]) -> str:
    """``; 7 batches left after it, about 2 min each so far: about 16 min to go`` for batch ``index`` (from 0) of
    ``total``; ``took``: the seconds of the batches checked so far in this run. Before one is timed there is no
    estimate, only what the checks took on the original (``baseline_seconds``), named as such: that time holds
    their setting up and ran them side by side, and zc.lockfile 4.0's one batch, estimated at 31 s from it, took
    2 s."""
    left = total - index - 1
    if not took:
        spent = sum(baseline_seconds)
        said = f" (no batch timed yet: the checks took {duration(spent)} on the original, their setting up " \
            "included)" if spent > 0 else ""
        if not left:
            return f"; the last{said}" if said else ""
        return f"; {counted(left, 'batch', 'batches')} left after it{said}"
    per = sum(took) / len(took)
    if not left:
        return f"; the last, about {duration(per)} as each so far"
    return (f"; {counted(left, 'batch', 'batches')} left after it, about {duration(per)} each so far: about "
            f"{duration(per * (left + 1))} to go")


def duration(seconds: float) -> str:
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    if seconds < 5400:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"
