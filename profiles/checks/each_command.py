"""Run each command given (a shell-like string, split with shlex, no shell) one after the other and print, for
each, `$ COMMAND`, its stdout and `[exit N]`; stderr passes through. Exit 1 if any command failed. As one
[[checks.command]] with `installed = true`, every entry point runs from the same install of the tree (one pip
install per tree instead of one per command).

    python each_command.py "sglang serve --help" "python -m sglang.launch_server --help" ...
"""

from __future__ import annotations

import shlex
import subprocess
import sys

failed = 0
for text in sys.argv[1:]:
    argv = shlex.split(text)
    if argv[0] == "python":
        argv[0] = sys.executable  # the interpreter running this script: the installed venv's
    print(f"$ {text}", flush=True)
    proc = subprocess.run(argv, stdout=subprocess.PIPE, text=True)
    sys.stdout.write(proc.stdout)
    print(f"[exit {proc.returncode}]", flush=True)
    failed |= proc.returncode != 0
sys.exit(1 if failed else 0)
