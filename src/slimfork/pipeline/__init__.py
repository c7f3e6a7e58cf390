"""The one orchestrator. Read it top to bottom:

``analyse`` (pipeline/analyse.py): load the spec, open the source, index it, build the import graph from the
roots, plan; then ``run_stages`` (pipeline/stages.py) on a scratch copy: registry cuts, fact folding, plan
again, symbol rounds, kernels and native sources, tests. ``shrink`` (pipeline/shrink.py): preflight, analyse,
turn the plan into batches, run them through the checks into a git history, write the reports."""
