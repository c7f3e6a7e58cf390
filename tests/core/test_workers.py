"""Forked workers leave the parent's heap frozen while they live, and the freeze ends with the outermost pool."""

from __future__ import annotations

import gc

from slimfork.workers import fork_pool, frozen_heap


def _frozen(_):
    return gc.get_freeze_count()


def test_the_heap_is_frozen_while_a_pool_lives_and_not_after():
    gc.unfreeze()
    keep = [object() for _ in range(100)]
    with fork_pool(2) as pool:
        assert gc.get_freeze_count() >= len(keep)
        # a child inherits the frozen generation: its collections do not touch (and copy) the parent's objects
        assert all(n >= len(keep) for n in pool.map(_frozen, range(2)))
        with frozen_heap():
            pass
        assert gc.get_freeze_count() >= len(keep)  # an inner block does not end the outer freeze
    assert gc.get_freeze_count() == 0
