"""Delta debugging over a failing batch: the smallest set of edits whose restoration makes the checks pass.

Both searches run over *restorations*: ``passes(R)`` says whether the batch minus the edits in ``R`` passes the
checks. Restoring everything passes (it is the last verified tree) and restoring nothing fails (the batch did).

- ``minimal_restoration`` (the default) finds the culprits one at a time, each by a k-ary search for the
  shortest prefix of the edits whose restoration passes (``git bisect`` for sets): about ``k * log2(n)`` trees
  for ``k`` culprits among ``n`` edits, and ``width`` trees per round checked in parallel.
- ``ddmin_restoration`` is Zeller's ddmin with the same contract, sturdier when checks are not monotone
  (restoring more can fail) but needing more trees.

Both return a 1-minimal set when restoring more never hurts: putting back any one of its edits fails again.
Where either of two alternatives is enough (``try: import a / except: import b``), only one is restored.
Candidates are judged in a fixed order, so the answer does not depend on the number of cores.

Given a ``limit``, a search checks at most that many trees (a batch of thousands of edits with many culprits, or
checks that take minutes a tree, would otherwise bisect for hours); then it raises ``BisectionLimit`` with the
culprits found so far and the edits it had not searched, whose restoration together passes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Restoration = tuple[int, ...]


class BisectionLimit(Exception):
    """A search checked ``trees`` trees, its limit: ``found`` are the culprits it isolated, ``rest`` the edits it
    had not searched. Restoring both passes: it is a tree the search saw pass (or all of them)."""

    def __init__(self, trees: int, found: Restoration, rest: Restoration):
        super().__init__(f"bisection limit reached: {trees} trees checked")
        self.trees, self.found, self.rest = trees, found, rest


class _Budget:
    """``passes``, counting the trees asked for; raises ``_OutOfTrees`` instead of going past ``limit``."""

    def __init__(self, passes: Callable[[list[Restoration]], Sequence[bool]], limit: int | None):
        self.passes, self.limit, self.used = passes, limit, 0

    def __call__(self, restorations: list[Restoration]) -> Sequence[bool]:
        if self.limit is not None and self.used + len(restorations) > self.limit:
            raise _OutOfTrees
        self.used += len(restorations)
        return self.passes(restorations)


class _OutOfTrees(Exception):
    pass


def _split(items: Restoration, n: int) -> list[Restoration]:
    size, extra = divmod(len(items), n)
    chunks, start = [], 0
    for i in range(n):
        end = start + size + (1 if i < extra else 0)
        chunks.append(items[start:end])
        start = end
    return [c for c in chunks if c]


def _first_passing(candidates: list[Restoration], passes: Callable[[list[Restoration]], Sequence[bool]],
                   width: int) -> int | None:
    for start in range(0, len(candidates), width):
        group = candidates[start:start + width]
        for offset, ok in enumerate(passes(group)):
            if ok:
                return start + offset
    return None


def ddmin_restoration(count: int, passes: Callable[[list[Restoration]], Sequence[bool]], *, width: int = 1,
                      guess: Restoration = (), limit: int | None = None) -> Restoration:
    """Indices (sorted) of the edits to restore. ``guess``: edits the failing check pointed at, tried first;
    ``limit``: the most trees to check (``BisectionLimit`` then leaves the whole current set unsearched)."""
    passes = _Budget(passes, limit)
    current: Restoration = tuple(range(count))
    guess = tuple(sorted(set(guess)))
    try:
        if guess and len(guess) < count and passes([guess])[0]:
            current = guess
        n = 2
        while len(current) >= 2:
            chunks = _split(current, n)
            candidates = list(chunks)
            if len(chunks) > 2:
                candidates += [tuple(i for i in current if i not in set(c)) for c in chunks]
            found = _first_passing(candidates, passes, max(1, width))
            if found is None:
                if n >= len(current):
                    break
                n = min(len(current), 2 * n)
            elif found < len(chunks):
                current, n = candidates[found], 2
            else:
                current, n = candidates[found], max(n - 1, 2)
    except _OutOfTrees:
        raise BisectionLimit(passes.used, (), current) from None
    return current


def minimal_restoration(count: int, passes: Callable[[list[Restoration]], Sequence[bool]], *, width: int = 1,
                        guess: Restoration = (), limit: int | None = None) -> Restoration:
    """Indices (sorted) of the edits to restore. ``guess``: edits the failing check pointed at, tried first;
    ``limit``: the most trees to check (``BisectionLimit`` then leaves unsearched the shortest prefix of the
    remaining edits seen to pass)."""
    passes = _Budget(passes, limit)
    width = max(1, width)
    culprits: list[int] = []
    remaining = list(range(count))
    rest = remaining  # restoring culprits + rest passes: a tree checked, or everything
    guess = tuple(sorted(set(guess)))
    try:
        if guess and len(guess) < count and passes([guess])[0]:
            remaining = rest = list(guess)
        while True:
            # invariant: restoring culprits + remaining passes; restoring culprits alone does not
            lo, hi = 0, len(remaining)
            while hi - lo > 1:
                step = (hi - lo) / (width + 1)
                points = sorted({min(hi - 1, lo + max(1, round(step * (j + 1)))) for j in range(width)})
                verdicts = passes([tuple(sorted(culprits + remaining[:p])) for p in points])
                for point, ok in zip(points, verdicts):
                    if ok:
                        hi = point
                        rest = remaining[:hi]
                        break
                    lo = point
            culprits.append(remaining[hi - 1])
            remaining = rest = remaining[:hi - 1]
            if not remaining or passes([tuple(sorted(culprits))])[0]:
                return tuple(sorted(culprits))
    except _OutOfTrees:
        raise BisectionLimit(passes.used, tuple(sorted(culprits)), tuple(sorted(rest))) from None
