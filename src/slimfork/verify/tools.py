"""The tools and devices a ``[[checks.command]]`` requires, looked up where its process runs: the preflight asks
before any work, ``verify/build.py`` again once the verification venv exists."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from slimfork.errors import SlimforkError


# Requirements that name a device rather than a program: name -> what is looked for, and how.
DEVICES = {"cuda": "a CUDA GPU (nvidia-smi -L lists none)"}


def cuda_present() -> bool:
    """A CUDA GPU is visible here: ``nvidia-smi -L`` lists one, and CUDA_VISIBLE_DEVICES does not hide them all.
    (No torch import: the verification venv may not exist yet, and this runs before every shrink.)"""
    if os.environ.get("CUDA_VISIBLE_DEVICES") in ("", "-1"):
        return False
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return False
    try:
        proc = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return proc.returncode == 0 and any(line.startswith("GPU ") for line in proc.stdout.splitlines())


DEVICE_PROBES = {"cuda": cuda_present}


def missing_tools(names: tuple[str, ...], extra_dirs: tuple[Path, ...] = ()) -> list[str]:
    """The requirements of ``names`` not met here: a program found neither on PATH nor in ``extra_dirs`` (an
    absolute path: if executable), or a device (``DEVICES``) that is absent."""
    path = os.pathsep.join([*map(str, extra_dirs), os.environ.get("PATH", "")])
    return [name for name in names
            if (not DEVICE_PROBES[name]() if name in DEVICE_PROBES else shutil.which(name, path=path) is None)]


def describe_missing(missing: list[str]) -> str:
    """``nvcc, which is not on PATH`` / ``cuda: a CUDA GPU (nvidia-smi -L lists none)``."""
    tools = [m for m in missing if m not in DEVICES]
    parts = [f"{m}: {DEVICES[m]}" for m in missing if m in DEVICES]
    if tools:
        parts.insert(0, f"{', '.join(tools)}, which {'is' if len(tools) == 1 else 'are'} not on PATH")
    return "; ".join(parts)


def skip_reason(missing: list[str]) -> str:
    tools = [m for m in missing if m not in DEVICES]
    parts = [f"{m}: {DEVICES[m]}" for m in missing if m in DEVICES]
    if tools:
        parts.insert(0, f"{', '.join(tools)}, not found on PATH")
    return f"requires {'; '.join(parts)}"


def check_program(command, spec_dir: Path, bins: tuple[Path, ...], where: str) -> None:
    """A command's program (``argv[0]``) must exist: a name on PATH (or in ``bins``), or an absolute path.
    ``python``, placeholders for the tree, relative paths (from the tree's folder) and the programs of an installed
    command (its console scripts exist once the tree is installed) are not checked here."""
    program = command.argv[0].replace("{spec_dir}", str(spec_dir))
    if getattr(command, "installed", False) or program in ("python", "{python}") or "{" in program or (os.sep in program and not os.path.isabs(program)):
        return
    if missing_tools((program,), bins):
        raise SlimforkError(f"the command's program '{command.argv[0]}' is not found"
                            + ("" if os.sep in program else " on PATH"), key=f"{where}.argv",
                            hint=f"install it, or add requires = [\"{Path(program).name}\"] to [[checks.command]] "
                                 f"'{command.name}' to skip that check where it is missing")
