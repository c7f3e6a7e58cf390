"""What a spec needs from outside slimfork, found before any work: a missing one stops ``shrink`` with exit 2
within seconds (``error: KEY: ...`` and a hint) instead of after the analysis.

- ``git``, to write the fork (its batches are commits);
- each ``[[checks.command]]``'s program (``argv[0]``) and the scripts it names under ``{spec_dir}``;
- the tools a command ``requires``: where one is missing that check is skipped, with a notice now and SKIPPED in
  the report (never counted as passed); ``cuda`` is a device, not a tool: a CUDA GPU that ``nvidia-smi -L`` lists;
- the ``[verify]`` interpreter and requirements: pip must resolve them (``pip install --dry-run``), unless their
  venv is already cached;
- the source (a folder, or the PyPI download, cached).

Preprocessor facts need nothing: without a ``unifdef`` binary slimfork folds with its Python port.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from slimfork.errors import SlimforkError, SpecError
from slimfork.progress import progress
from slimfork.source import resolve_source
from slimfork.source.cache import cache_dir
from slimfork.verify.build import needs_env
from slimfork.verify.env import _base_python, _outer_pip, env_key
from slimfork.verify.spec import ChecksSpec
from slimfork.verify.tools import check_program, describe_missing, missing_tools, skip_reason

PIP_TIMEOUT = 300  # seconds the requirements check may take before it gives up (not an error: unknown)


@dataclass
class Preflight:
    skipped: dict[str, str] = field(default_factory=dict)  # check name ("command:NAME") -> why it is skipped
    notices: list[str] = field(default_factory=list)
    quiet: bool = False

    def notice(self, text: str) -> None:
        """Said at once on stderr (before the slower steps), and kept."""
        self.notices.append(text)
        if not self.quiet:
            sys.stderr.write(f"notice: {text}\n")
            sys.stderr.flush()


def run_preflight(spec, *, write: bool = True, verify: bool = True, quiet: bool = False) -> Preflight:
    """Check ``spec``'s outside needs (``write``: the fork is written; ``verify``: the checks run)."""
    result = Preflight(quiet=quiet)
    if write and shutil.which("git") is None:
        raise SlimforkError("writing the fork needs git, which is not on PATH", key="out",
                            hint="install git ('apt-get install git', 'brew install git'), or run with --dry-run")
    if verify:
        _check_commands(spec, result)
    resolve_source(spec.source, spec.base_dir, spec.dist)  # downloaded once into the cache; SourceError if not
    if verify:
        _check_requirements(spec, result)
    return result


def _check_commands(spec, result: Preflight) -> None:
    checks: ChecksSpec = spec.sections.get("checks") or ChecksSpec()
    if not (checks.enabled("command") and checks.commands):
        return
    bins, final = _env_bins(spec, needs_env(checks))
    for i, command in enumerate(checks.commands):
        where = f"checks.command[{i}]"
        missing = missing_tools(command.requires, bins)
        if missing:
            result.skipped[f"command:{command.name}"] = skip_reason(missing)
            result.notice(f"check '{command.name}' is skipped: it requires {describe_missing(missing)} "
                          f"(the report lists it as SKIPPED, never as passed)")
            continue
        if final:
            check_program(command, spec.base_dir, bins, where)
        for arg in command.argv:
            if arg.startswith("{spec_dir}") and "{" not in arg[len("{spec_dir}"):]:
                path = Path(arg.replace("{spec_dir}", str(spec.base_dir)))
                if not path.exists():
                    raise SpecError(f"'{arg}' names {path}, which does not exist", key=f"{where}.argv",
                                    hint="{spec_dir} is the folder of the spec file")


def _env_bins(spec, wants_env: bool) -> tuple[tuple[Path, ...], bool]:
    """Folders whose programs the checks' processes see besides PATH, and whether that list is final (False while
    the [verify] venv is not built: a program it will install cannot be looked for yet)."""
    verify = spec.sections.get("verify")
    if verify is None or not wants_env:
        return (Path(sys.executable).parent,), True
    config = verify.config(spec.base_dir)
    if not config.requirements:
        return (Path(_base_python(config)).parent,), True
    venv = cache_dir("venvs") / env_key(config)
    if (venv / ".slimfork-complete").is_file():
        return (venv / "bin",), True
    return (), False


def _check_requirements(spec, result: Preflight) -> None:
    """pip resolves the [verify] requirements (dry run, no install), unless their venv is cached or was checked."""
    verify = spec.sections.get("verify")
    if verify is None or not needs_env(spec.sections.get("checks") or ChecksSpec()):
        return
    config = verify.config(spec.base_dir)  # a requirements file that cannot be read: SpecError
    base = _base_python(config)  # an interpreter that is not there: SlimforkError
    if not config.requirements:
        return
    key = env_key(config)
    root = cache_dir("venvs")
    checked = root / f"{key}.resolved"
    if (root / key / ".slimfork-complete").is_file() or checked.is_file():
        return
    pip = [sys.executable, "-m", "pip"] if base == sys.executable else \
        [sys.executable, "-m", "pip", "--python", base] if _outer_pip() else [base, "-m", "pip"]
    with tempfile.TemporaryDirectory(prefix="slimfork-preflight-") as tmp:
        req = Path(tmp) / "requirements.txt"
        req.write_text("\n".join(config.requirements) + "\n", encoding="utf-8")
        cmd = [*pip, "install", "--dry-run", "--ignore-installed", "--quiet", "--no-input", "-r", str(req),
               *config.pip_args]
        try:
            with progress(f"checking that pip resolves the {len(config.requirements)} requirements of "
                          f"{config.origin} (once: skipped when their venv is cached)"):
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=PIP_TIMEOUT,
                                      stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            result.notice(f"pip did not finish resolving the requirements of {config.origin} within "
                                  f"{PIP_TIMEOUT}s; not checked, the venv build will tell")
            return
    if proc.returncode == 0:
        checked.write_text(f"{config.origin}\n")
        return
    output = (proc.stderr + "\n" + proc.stdout).splitlines()
    errors = [line.strip() for line in output if line.startswith("ERROR:")]
    if not errors:  # pip itself failed (no pip for that interpreter, ...): the venv build will say more
        tail = "; ".join(line.strip() for line in output if line.strip())[-300:]
        result.notice(f"could not check the requirements of {config.origin} with pip "
                              f"(exit {proc.returncode}): {tail}")
        return
    if errors == ["ERROR: Exception:"]:  # pip crashed: its traceback's last line says on what (a bad marker)
        last = next((line.strip() for line in reversed(output) if line.strip()), "")
        errors.append(re.sub(r"^[\w.]*\._vendor\.[\w.]+\.", "", last)[:300])
    raise SlimforkError(f"pip cannot resolve the requirements of {config.origin}: " + " ".join(errors),
                        key="verify.requirements",
                        hint="fix the requirement pip names (a version that exists for this Python and platform); "
                             "another index or a local wheel folder goes in [verify] pip_args")
