#!/usr/bin/env bash
# The test command of the README, run as is by CI (.ci/run): install, then the whole suite, the real-package
# integration tests included. pytest's "no tests collected" (exit 5) is a failure here.
set -uo pipefail
cd "$(dirname "$0")/.."
# slimfork needs no unifdef (its Python port folds without it); the binary is installed only for the tests that
# compare the two byte for byte (tests/kernels/test_pyunifdef.py, skipped without it).
if ! command -v unifdef >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then (apt-get update -qq && apt-get install -y -qq unifdef) >/dev/null 2>&1; fi
  command -v unifdef >/dev/null 2>&1 || echo "note: no unifdef binary; the Python-port equivalence tests are skipped"
fi
python -m pip install -q -e '.[test,bench]' || exit 1
python -m pytest -p no:cacheprovider -n "${SLIMFORK_TEST_JOBS:-2}" --dist loadgroup "$@"
rc=$?
if [ "$rc" = 5 ]; then echo "error: pytest collected no tests"; exit 1; fi
exit "$rc"
