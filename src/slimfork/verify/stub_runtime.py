"""Named stub modules for the verification interpreter (copied there as ``_slimfork_stubs.py``; stdlib only).

A stub stands in for a third-party package that cannot be installed on the verification machine (``aiter``
needs ROCm, the PyPI ``torchvision`` needs CUDA torch). Only the names listed in ``[verify] stubs`` are
stubbed, with their submodules: a catch-all would make optional imports look present.

What a stub does, and why:
- ``import aiter``, ``import aiter.ops.mhc``, ``from aiter import dtypes`` all succeed: importing is what the
  checks test, and the code under test only *names* these packages at import time.
- Every attribute is a *placeholder*: a class (so ``class X(stub.Base)``, ``isinstance(x, stub.T)`` and
  annotations work) whose own attributes are placeholders too, and which raises ``StubUsed`` when called or
  instantiated, so real use of a stub never passes silently.
- Dunder lookups (``__version__``, ``__wrapped__``...) raise AttributeError, as on a plain module.
- Availability probes do not see a stub: ``importlib.util.find_spec`` answers None (until something imported
  the stub) and ``importlib.metadata`` knows no such distribution, so optional code paths (transformers'
  ``is_torchvision_available()``) stay off, as in an environment without the package.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import types


class StubUsed(RuntimeError):
    """A stubbed third-party object was called: the verification environment cannot run this code path."""


class _PlaceholderMeta(type):
    def __getattr__(cls, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        child = _placeholder(f"{cls.__qualname__}.{name}")
        setattr(cls, name, child)
        return child

    def __call__(cls, *args, **kwargs):
        raise StubUsed(f"{cls.__qualname__} was called, but it belongs to a stubbed module "
                       "(listed in [verify] stubs): the verification environment cannot run this code")

    def __getitem__(cls, item):  # generic aliases in annotations: Stub[int]
        return cls

    def __or__(cls, other):  # annotations: Stub | None
        return cls

    __ror__ = __or__

    def __repr__(cls):
        return f"<stub {cls.__qualname__}>"


def _placeholder(qualname: str) -> type:
    module, _, name = qualname.rpartition(".")
    cls = _PlaceholderMeta(name, (), {"__module__": module})
    cls.__qualname__ = qualname
    return cls


class StubModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        value = _placeholder(f"{self.__name__}.{name}")
        setattr(self, name, value)
        return value


class _StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, names):
        self.names = tuple(names)

    def _stubbed(self, fullname: str) -> bool:
        return any(fullname == n or fullname.startswith(n + ".") for n in self.names)

    def find_spec(self, fullname, path=None, target=None):
        if not self._stubbed(fullname) or _probing():
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        module = StubModule(spec.name)
        module.__path__ = []
        module.__slimfork_stub__ = True
        return module

    def exec_module(self, module):
        parent, _, child = module.__name__.rpartition(".")
        if parent and parent in sys.modules:
            setattr(sys.modules[parent], child, module)


def _probing() -> bool:
    """True when ``importlib.util.find_spec`` asks (an availability probe), not an import statement."""
    frame: types.FrameType | None = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith("<frozen importlib._bootstrap"):
        frame = frame.f_back
    if frame is None or frame.f_code.co_name != "find_spec":
        return False
    filename = frame.f_code.co_filename.replace("\\", "/")
    return filename == "<frozen importlib.util>" or filename.endswith("importlib/util.py")


def install(names) -> None:
    """Put the stub finder first on ``sys.meta_path`` for ``names`` and their submodules."""
    names = [n for n in names if n]
    if names and not any(isinstance(f, _StubFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _StubFinder(names))
