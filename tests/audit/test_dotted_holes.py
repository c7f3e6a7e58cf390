"""mlx-audio (sessions 43-44's leftover): ``importlib.import_module(f"mlx_audio.{domain.value}.models.{model_type}")``
with ``model_type`` from a config keeps every module of ``mlx_audio`` (a hole may hold a dot: unknown means keep),
so ``mlx_audio/sts/models/moshi_backend/`` (8 files, deleted by ``2dd093e1``) was never reported. With one name per
hole the import names ``mlx_audio.*.models.*`` and their packages only: what only the prefix keeps beyond those
stays kept but is reported at 30, naming the import."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

CONVERT = """\
import importlib
import json


def load(path, domain):
    model_type = json.load(open(path))["model_type"]
    return importlib.import_module(f"audio.{domain}.models.{model_type}")
"""

FILES = {
    "pyproject.toml": '[project]\nname = "audio"\nversion = "0"\n',
    "audio/__init__.py": "from audio.convert import load\n",
    "audio/convert.py": CONVERT,
    "audio/tts/__init__.py": "",
    "audio/tts/models/__init__.py": "",
    "audio/tts/models/kokoro/__init__.py": "from audio.tts.models.kokoro.model import Model\n",
    "audio/tts/models/kokoro/model.py": "class Model:\n    pass\n",
    "audio/sts/__init__.py": "",
    "audio/sts/models/__init__.py": "",
    "audio/sts/models/moshi/__init__.py": "",
    "audio/sts/models/moshi/backend/__init__.py": "",
    "audio/sts/models/moshi/backend/client.py": "def main():\n    return 1\n",
    "audio/sts/models/moshi/backend/server.py": "def serve():\n    return 2\n",
    # a relative name (package=...): not narrowed, kept without a finding
    "audio/data/__init__.py": "import importlib\n\n\ndef loader(kind):\n"
                              "    return importlib.import_module(f'.loaders.{kind}', package=__package__)\n",
    "audio/data/loaders/__init__.py": "",
    "audio/data/loaders/aten.py": "X = 1\n",
    "tests/test_audio.py": "import audio\nimport audio.data\n\n\ndef test_load():\n    assert audio.load\n",
}


def test_modules_only_a_dotted_hole_reaches_are_reported_low(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f for f in result.findings if f.kind == "unused-file"}
    folder = found["audio/sts/models/moshi/backend/"]
    assert folder.confidence == 30 and "audio/convert.py:7" in folder.reason
    assert not any(s.startswith(("audio/tts", "audio/convert", "audio/data")) for s in found)
    assert "audio/sts/models/moshi/__init__.py" not in found  # named: audio.sts.models.moshi
