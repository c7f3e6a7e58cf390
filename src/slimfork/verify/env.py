"""The verification environment: a cached venv with pinned requirements, and how to run a tree in it.

The package under test is never installed in the venv: each tree (original or fork) is put on PYTHONPATH, so
both are checked with the very same interpreter and third-party packages. The venv lives in the cache, keyed by
the hash of the interpreter, the requirement lines and the pip arguments; it is built in a temporary folder and
renamed into place only when pip succeeded, so a killed build never leaves a venv that looks complete.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from slimfork.errors import SlimforkError
from slimfork.fsutil import write_atomic
from slimfork.progress import progress
from slimfork.source.cache import cache_dir
from slimfork.verify.own_metadata import metadata_dir

ENV_FORMAT = "1"  # bump when the layout of a cached venv changes
_DROPPED_VARS = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "PYTHONSAFEPATH", "PYTHONNOUSERSITE")


@dataclass(frozen=True)
class VerifyConfig:
    """The parsed ``[verify]`` table."""

    requirements: tuple[str, ...] = ()  # requirement lines (pins), comments removed
    origin: str = ""  # where they came from ("requirements.txt" or "[verify] requirements")
    python: str | None = None  # interpreter the venv is created from (default: the one running slimfork)
    stubs: tuple[str, ...] = ()  # third-party modules replaced by stubs, with their submodules
    pip_args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)  # environment variables for every check process


@dataclass(frozen=True)
class VerifyEnv:
    """An interpreter to run checks 4-6 with. ``venv`` is None when it is the interpreter running slimfork."""

    python: Path
    stubs: tuple[str, ...] = ()
    venv: Path | None = None
    env: dict[str, str] = field(default_factory=dict)

    def process_env(self, python_root: Path | None, stubs: tuple[str, ...] = (),
                    extra: dict[str, str] | None = None, tree: Path | None = None) -> dict[str, str]:
        """Environment for a process that runs the tree whose importable packages are in ``python_root`` (None: a
        tree that is installed, not on the path); with ``tree``, its distribution's metadata is found too, as an
        installed copy's would be (verify/own_metadata.py)."""
        env = {k: v for k, v in os.environ.items() if k not in _DROPPED_VARS}
        names = tuple(dict.fromkeys(self.stubs + tuple(stubs)))
        path = [str(python_root)] if python_root is not None else []
        if tree is not None and python_root is not None and (meta := metadata_dir(tree, python_root)) is not None:
            path.append(str(meta))
        if names:
            path.insert(0, str(stub_dir(names)))
        env.update({"PYTHONPATH": os.pathsep.join(path), "PYTHONDONTWRITEBYTECODE": "1",
                    "PYTHONHASHSEED": "0", "PYTHONUNBUFFERED": "1"})
        if not path:
            del env["PYTHONPATH"]
        if self.venv is not None:
            env["VIRTUAL_ENV"] = str(self.venv)
            env["PATH"] = str(self.venv / "bin") + os.pathsep + env.get("PATH", "")
        env.update(self.env)
        env.update(extra or {})
        return env


def current_env(stubs: tuple[str, ...] = ()) -> VerifyEnv:
    """The interpreter running slimfork (used when the spec has no [verify] table)."""
    return VerifyEnv(Path(sys.executable), tuple(stubs))


def prepare_env(config: VerifyConfig | None) -> VerifyEnv:
    """Return the verification environment, building and caching its venv on first use."""
    if config is None:
        return current_env()
    if not config.requirements:
        return VerifyEnv(Path(_base_python(config)), config.stubs, env=dict(config.env))
    venv = ensure_venv(config)
    return VerifyEnv(venv / "bin" / "python", config.stubs, venv, dict(config.env))


def env_key(config: VerifyConfig) -> str:
    python = _base_python(config)
    version = subprocess.run([python, "-c", "import sys; print(sys.version)"], capture_output=True, text=True)
    if version.returncode != 0:
        raise SlimforkError(f"cannot run the interpreter '{python}'", key="verify.python",
                            hint="name a Python 3 interpreter on PATH or give its full path")
    text = "\n".join([ENV_FORMAT, os.path.realpath(python), version.stdout.strip(), *config.requirements,
                      "--", *config.pip_args])
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


def ensure_venv(config: VerifyConfig) -> Path:
    """The venv for ``config`` in the cache: reused when complete, else built in a temp folder and renamed."""
    root = cache_dir("venvs")
    key = env_key(config)
    final = root / key
    if (final / ".slimfork-complete").is_file():
        return final
    with open(root / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another slimfork may be building the same venv
        if (final / ".slimfork-complete").is_file():
            return final
        tmp = Path(tempfile.mkdtemp(prefix=f".build-{key}-", dir=root))
        try:
            _build(config, tmp, final)
            if final.exists():  # an incomplete leftover (no marker): never used, replace it
                shutil.rmtree(final)
            tmp.rename(final)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    return final


def _build(config: VerifyConfig, tmp: Path, final: Path) -> None:
    python = _base_python(config)
    log = tmp.parent / f"{final.name}.log"
    with progress(f"building the verification environment ({len(config.requirements)} requirements)"):
        pip = _outer_pip()  # slimfork's own pip can install into a venv without pip: seconds faster
        venv_args = ["--prompt", "slimfork-verify"] + (["--without-pip"] if pip else [])
        _run([python, "-m", "venv", *venv_args, str(tmp)], log, "create the venv")
        req = tmp / ".slimfork-requirements.txt"
        req.write_text("\n".join(config.requirements) + "\n", encoding="utf-8")
        venv_python = str(tmp / "bin" / "python")
        installer = [*pip, "--python", venv_python] if pip else [venv_python, "-m", "pip"]
        _run([*installer, "install", "--no-input", "-r", str(req), *config.pip_args], log,
             f"install the requirements from {config.origin or 'the spec'}")
    _relocate(tmp, final)
    write_atomic(tmp / ".slimfork-complete", f"{config.origin}\n")


def _run(cmd: list[str], log: Path, what: str) -> None:
    with open(log, "ab") as out:
        out.write(("$ " + " ".join(cmd) + "\n").encode())
        out.flush()
        proc = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        tail = log.read_text(errors="replace").strip().splitlines()[-6:]
        raise SlimforkError(f"could not {what} (pip log: {log})", key="verify.requirements",
                            hint="; ".join(line.strip() for line in tail) or "see the log")


def _outer_pip() -> list[str]:
    """``python -m pip`` of the interpreter running slimfork if it has ``--python`` (pip 22.3+), else []."""
    try:
        from importlib.metadata import version

        major, minor = (int(x) for x in version("pip").split(".")[:2])
    except Exception:
        return []
    return [sys.executable, "-m", "pip"] if (major, minor) >= (22, 3) else []


def _relocate(tmp: Path, final: Path) -> None:
    """Scripts in bin/ name the venv by its path: point them at the final path before the rename."""
    old, new = str(tmp).encode(), str(final).encode()
    for path in (tmp / "bin").iterdir():
        if path.is_symlink() or not path.is_file():
            continue
        data = path.read_bytes()
        if old in data[:4096] or (path.name.startswith("activate") and old in data):
            path.write_bytes(data.replace(old, new))


def _base_python(config: VerifyConfig) -> str:
    if not config.python:
        return sys.executable
    found = shutil.which(config.python)
    if found is None:
        raise SlimforkError(f"interpreter '{config.python}' not found", key="verify.python",
                            hint="name a Python 3 interpreter on PATH or give its full path")
    return found


def stub_dir(names: tuple[str, ...]) -> Path:
    """A folder with a ``sitecustomize.py`` that installs the named stubs; put it first on PYTHONPATH."""
    runtime = (Path(__file__).parent / "stub_runtime.py").read_text(encoding="utf-8")
    site = f"import _slimfork_stubs\n_slimfork_stubs.install({list(names)!r})\n"
    digest = hashlib.blake2b((runtime + site).encode(), digest_size=8).hexdigest()
    folder = cache_dir("stubs") / digest
    if not (folder / "sitecustomize.py").is_file():
        write_atomic(folder / "_slimfork_stubs.py", runtime)
        write_atomic(folder / "sitecustomize.py", site)  # written last: its presence means complete
    return folder
