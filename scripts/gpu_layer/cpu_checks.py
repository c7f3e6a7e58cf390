"""Run the profile's checks (as shrink builds them, on this CPU machine) on TREE against the original sglang.
Usage: [SPEC=profile.toml] PYTHONPATH=src python cpu_checks.py TREE [CHECK-NAME-SUBSTRING ...]"""
import os, sys, time
from pathlib import Path

from slimfork.preflight import run_preflight
from slimfork.source.fetch import resolve_source
from slimfork.source.layout import open_tree
from slimfork.spec import load_spec
from slimfork.verify.build import build_checks

spec = load_spec(os.environ.get("SPEC", "profiles/sglang-deepseek.toml"))
ready = run_preflight(spec, write=False, verify=True)
orig = resolve_source(spec.source, spec.base_dir, spec.dist)
tree = open_tree(orig, packages=["sglang"], kind="wheel")
broken = Path(sys.argv[1]).resolve()
only = sys.argv[2:]
for check in build_checks(spec, tree, skipped=ready.skipped):
    if only and not any(o in check.name for o in only):
        continue
    t = time.monotonic()
    base = check.baseline(orig)
    if not base.usable:
        print(f"{check.name}: {'SKIPPED' if base.skipped else 'unusable'}: {base.note}", flush=True)
        continue
    result = check.run(broken, base)
    print(f"{check.name}: {'passed' if result.ok else 'FAILED'} ({time.monotonic() - t:.0f}s) {result.detail} "
          f"{' | '.join(result.failures)[:500]}", flush=True)
