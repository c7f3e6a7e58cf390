"""Record registries (``kind = "mapping"`` on a tuple of constructor calls): each record is keyed by its
``name=`` and names the module its strings spell (``"pkg.mod:Class"``), loaded only when a record is used.
Unkept records are deleted, their modules leave the fork, and ``keep = []`` removes them all (sglang's
``RUST_MM_FAMILIES`` names the Qwen-VL processor, and through it the Qwen-VL models, for a text deployment)."""

from __future__ import annotations

import textwrap

import pytest

from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import shrink
from slimfork.errors import SpecError

FILES = {
    "pkg/__init__.py": "",
    "pkg/families.py": """
        import importlib
        from typing import NamedTuple


        class Family(NamedTuple):
            name: str
            processor: str
            model_types: frozenset

            def load(self):
                module, _, attr = self.processor.partition(":")
                return getattr(importlib.import_module(module), attr)


        FAMILIES = (
            Family(
                name="vision",
                processor="pkg.processors.vision:VisionProcessor",
                model_types=frozenset({"vl"}),
            ),
            Family("audio", "pkg.processors.audio:AudioProcessor", frozenset({"asr"})),
        )


        def family_for(model_type):
            found = next((f for f in FAMILIES if model_type in f.model_types), None)
            if found is None:
                raise RuntimeError(f"no family for {model_type} (supported: {sorted(f.name for f in FAMILIES)})")
            return found.load().__name__
        """,
    "pkg/processors/__init__.py": "",
    "pkg/processors/vision.py": "import pkg.processors.vision_models\n\n\nclass VisionProcessor:\n    pass\n",
    "pkg/processors/vision_models.py": "MODELS = ['vl']\n",
    "pkg/processors/audio.py": "class AudioProcessor:\n    pass\n",
    "pkg/cli.py": """
        import sys

        from pkg.families import family_for

        if __name__ == "__main__":
            print(family_for(sys.argv[1]))
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]

[[registries]]
kind = "mapping"
package = "pkg.families"
variable = "FAMILIES"
keep = {keep}
reason = "text models and speech"
"""


@pytest.mark.parametrize("keep", ['["audio"]', "[]"])
def test_unkept_records_leave_with_their_modules(tmp_path, keep):
    root = write_project(tmp_path, FILES, SPEC.format(keep=keep))
    assert run_cli(root, "vl").stdout == "VisionProcessor\n"
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    fork = result.out
    families = (fork / "pkg/families.py").read_text()
    assert "vision" not in families and ("Family(\"audio\"" in families) == (keep != "[]")
    assert keep != "[]" or "\nFAMILIES = ()\n" in families  # an empty literal on one line
    assert not (fork / "pkg/processors/vision.py").exists() and not (fork / "pkg/processors/vision_models.py").exists()
    assert (fork / "pkg/processors/audio.py").exists() == (keep != "[]")
    if keep != "[]":
        assert run_cli(fork, "asr").stdout == "AudioProcessor\n"
    assert "RuntimeError: no family for vl" in run_cli(fork, "vl").stderr
    (entry,) = result.data["mapping_registries"]
    assert entry["removed"] == (["vision"] if keep != "[]" else ["vision", "audio"])
    assert all(batch.checks and all(c.ok for c in batch.checks) for batch in result.apply.batches)


def test_a_record_without_a_string_key_is_a_spec_error(tmp_path):
    files = dict(FILES)
    files["pkg/families.py"] = textwrap.dedent(FILES["pkg/families.py"]).replace(
        'Family("audio", "pkg.processors.audio:AudioProcessor"', 'Family(NAME, "pkg.processors.audio:AudioProcessor"')
    root = write_project(tmp_path, files, SPEC.format(keep='["audio"]'))
    with pytest.raises(SpecError) as err:
        shrink(root / "slimfork.toml", tmp_path / "fork")
    assert err.value.key == "registries[0].variable" and "Record(name='key', ...)" in str(err.value)
