"""Run the fixture batches into an output folder; the crash tests kill this process and resume its work.

Usage: python crash_driver.py SOURCE OUT JOBS   (exit 130 on Ctrl-C, like the slimfork CLI)
"""

import signal
import sys
from pathlib import Path

# Ctrl-C as in a terminal: a parent that ignores SIGINT (a pytest-xdist worker) passes SIG_IGN down to its
# children, and Python then never raises KeyboardInterrupt.
signal.signal(signal.SIGINT, signal.default_int_handler)

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, for tests.apply

from tests.apply.applykit import fixture_batches, fixture_checks  # noqa: E402

from slimfork.apply.engine import run_batches  # noqa: E402

if __name__ == "__main__":
    try:
        run_batches(Path(sys.argv[1]), Path(sys.argv[2]), fixture_batches(), fixture_checks(), jobs=int(sys.argv[3]))
    except KeyboardInterrupt:
        sys.exit(130)
