"""Fixture projects under fixtures/ are data, not tests of slimfork."""

collect_ignore_glob = ["fixtures/*"]
