"""How long the batches left may take, for the progress lines: a checked run of slow tests (scikit-build-core
1.1.2's suite builds packages with CMake: over 15 minutes on two loaded cores) said nothing of how far it was.

Batches differ in the checks they make run: the install check installs the fork again only where a batch
changes the build files or deletes what they name (the packaging batch), and is a no-op elsewhere. An estimate
"as each so far" from plain batches said 2 s for autocommand 2.2.2's packaging batch, which took 45 s; so the
batches that install again are timed apart, and one not timed yet is estimated with the install's time on the
original."""

from __future__ import annotations

from dataclasses import dataclass, field

from slimfork.decisions import Batch
from slimfork.progress import counted
from slimfork.verify.installed import BUILD_FILES

INSTALL = "install"
SLOW_SECONDS = 600  # an outlook past this names the ways to a shorter run


def reinstalls(batch: Batch, named: list[str]) -> bool:
    """Whether the install check installs the fork again for ``batch``: it edits a build file, or deletes a
    file or folder the build files name (``named``, the install baseline's ``build_named``)."""
    for edit in batch.edits:
        if edit.path in BUILD_FILES:
            return True
        if edit.content is None and any(edit.path == n or edit.path.startswith(n.rstrip("/") + "/") for n in named):
            return True
    return False


@dataclass
class Pace:
    """``installs``: per batch, whether it installs the fork again; ``seconds``: what each usable check took on
    the original (its setting up included)."""

    installs: list[bool]
    seconds: dict[str, float]
    took: dict[bool, list[float]] = field(default_factory=lambda: {False: [], True: []})

    def record(self, index: int, seconds: float) -> None:
        self.took[self.installs[index]].append(seconds)

    def outlook(self) -> str:
        """Before the first batch: what the checks took on the original and what the batches may take, at least
        (a failing batch is bisected: more trees checked). Empty when nothing was timed."""
        if not self.installs or sum(self.seconds.values()) <= 0:
            return ""
        total = sum(self._original(index) for index in range(len(self.installs)))
        install = " (the install check reruns only where a batch changes the build)" if INSTALL in self.seconds else ""
        said = (f"the checks took {duration(sum(self.seconds.values()))} on the original; "
                f"{counted(len(self.installs), 'batch', 'batches')} to check: about {duration(total)}{install}, more "
                "where a batch fails and is bisected")
        if total >= SLOW_SECONDS:
            said += ("; a shorter run: fewer tests ([checks.pytest] tests or k), or shrink --no-verify for the plan "
                     "unchecked")
        return said

    def line(self, index: int) -> str:
        """``; 7 batches left after it, about 2 min each so far: about 16 min to go`` for batch ``index`` (from
        0). Before one is timed there is no estimate, only what the checks took on the original, named as such:
        that time holds their setting up and ran them side by side, and zc.lockfile 4.0's one batch, estimated at
        31 s from it, took 2 s."""
        left = len(self.installs) - index - 1
        if not (self.took[False] or self.took[True]):
            spent = sum(self.seconds.values())
            said = f" (no batch timed yet: the checks took {duration(spent)} on the original, their setting up " \
                "included)" if spent > 0 else ""
            if not left:
                return f"; the last{said}" if said else ""
            return f"; {counted(left, 'batch', 'batches')} left after it{said}"
        coming = self.installs[index:]
        to_go = sum(self._estimate(kind) for kind in coming)
        timed_kinds = {kind for kind in coming if self.took[kind]}
        if len(set(coming)) == 1 and timed_kinds:  # every batch to come like those timed
            per = self._estimate(coming[0])
            if not left:
                return f"; the last, about {duration(per)} as each so far"
            return (f"; {counted(left, 'batch', 'batches')} left after it, about {duration(per)} each so far: about "
                    f"{duration(to_go)} to go")
        installing = sum(coming)
        install = duration(self.seconds.get(INSTALL, 0.0))
        if not installing:  # those timed installed the fork again, these do not
            said = f"about {duration(to_go / len(coming))}"
            why = f"those so far installed the fork again; the install took {install} on the original"
            if not left:
                return f"; the last, {said} ({why})"
            return (f"; {counted(left, 'batch', 'batches')} left after it, {said} each ({why}): about "
                    f"{duration(to_go)} to go")
        why = "as each so far" if self.took[True] else f"the install took {install} on the original"
        who = "it installs" if installing == 1 and coming[0] else \
            counted(installing, "batch installs", "batches install")
        again = f"{who} the fork again: about {duration(self._estimate(True))} each ({why})"
        if not left:
            return f"; the last, which installs the fork again: about {duration(self._estimate(True))} ({why})"
        plain = len(coming) - installing
        each = f", about {duration(self._estimate(False))} each so far" if plain and self.took[False] else ""
        return (f"; {counted(left, 'batch', 'batches')} left after it{each}; {again}: about {duration(to_go)} to "
                "go")

    def _estimate(self, installs: bool) -> float:
        """A batch of this kind: the mean of those timed; else one of the other kind with the install's time on
        the original added (or taken off)."""
        if self.took[installs]:
            return sum(self.took[installs]) / len(self.took[installs])
        other = self.took[not installs]
        mean = sum(other) / len(other) if other else 0.0
        install = self.seconds.get(INSTALL, 0.0)
        return mean + install if installs else max(1.0, mean - install)

    def _original(self, index: int) -> float:
        """Batch ``index`` by the checks' times on the original: the install only where it installs again."""
        return sum(s for name, s in self.seconds.items() if name != INSTALL or self.installs[index])


def duration(seconds: float) -> str:
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    if seconds < 5400:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"
