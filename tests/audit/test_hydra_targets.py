"""flash-attention (``3e2c827d^``, ``86bcd055^``, ``f28841db^``): ``training/`` is a Hydra project whose YAML
configurations name the classes it builds (``_target_: src.callbacks.ema.EMACallback``); nothing imports
``training/src/callbacks/`` and the helpers they import, so 15 files and folders were "unreached" at 60-70. A module a
``_target_`` names a class of is run by a tool (30), so are the ``__init__.py`` files above it, and what it imports
is what a script imports (30); a dotted
name that is no ``_target_`` keeps nothing, and a module no configuration names stays unreached."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='fa', packages=['fa'])\n",
    "fa/__init__.py": "",
    "training/run.py": "import hydra\n\n\n@hydra.main(config_path='configs/', config_name='config.yaml')\n"
                       "def main(config):\n    return hydra.utils.instantiate(config.callback)\n",
    "training/configs/config.yaml": "callback:\n  _target_: src.callbacks.ema.EMACallback\n"
                                    "note: src.callbacks.other.Other\n",
    "training/src/__init__.py": "",
    "training/src/callbacks/__init__.py": "",
    "training/src/callbacks/ema.py": "from src.utils.ema import ExponentialMovingAverage\n\n\n"
                                     "class EMACallback:\n    avg = ExponentialMovingAverage\n",
    "training/src/callbacks/other.py": "class Other:\n    pass\n",
    "training/src/utils/__init__.py": "",
    "training/src/utils/ema.py": "class ExponentialMovingAverage:\n    pass\n",
}


def test_a_hydra_target_runs_its_module(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {}
    for f in result.findings:
        if f.kind == "unused-file":
            for path in (f.details or {}).get("files") or [f.subject]:
                found[path] = f
    assert found["training/src/callbacks/ema.py"].confidence == 30
    assert "_target_" in found["training/src/callbacks/ema.py"].reason
    assert found["training/src/utils/ema.py"].confidence == 30
    assert found["training/src/callbacks/__init__.py"].confidence == 30  # importing callbacks.ema runs it
    assert found["training/src/callbacks/other.py"].confidence >= 60
