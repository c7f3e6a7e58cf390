"""The fixture projects under fixtures/ have test suites of their own: they are data here, not tests."""

collect_ignore = ["fixtures"]
