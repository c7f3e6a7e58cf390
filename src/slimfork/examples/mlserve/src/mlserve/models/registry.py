"""Models are found at run time: every module of this package that defines EntryClass is registered."""

import importlib
import pkgutil

import mlserve.models as _package


class ModelRegistry:
    def __init__(self):
        self._models = {}
        for info in pkgutil.iter_modules(_package.__path__, _package.__name__ + "."):
            module = importlib.import_module(info.name)
            entry = getattr(module, "EntryClass", None)
            if entry is not None:
                self._models[entry.name] = entry

    def names(self):
        return list(self._models)

    def get(self, name):
        return self._models[name]
