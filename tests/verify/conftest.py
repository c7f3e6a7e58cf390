# The fixture projects under fixtures/ carry their own tests, run by the pytest check: never collect them here.
collect_ignore = ["fixtures"]
