"""Import registries (``kind = "imports"``): a package ``__init__`` imports each submodule so that it registers
itself (sglang's transcription adapters and per-model server-argument overrides). The imports of submodules the
spec does not keep are deleted with their ``__all__`` names, those submodules and what only they imported leave
the fork, and a removed key fails as a key the registry never had."""

from __future__ import annotations

import pytest

from tests.mapping.registrykit import run_cli, write_project

from slimfork.api import shrink
from slimfork.errors import SpecError
from slimfork.mapping.imports import ImportsRegistry, cut_imports

FILES = {
    "pkg/__init__.py": "",
    "pkg/adapters/__init__.py": """
        # The registry and its decorator.
        from pkg.adapters.base import REGISTRY, register, resolve

        # Import built-in adapters so they self-register.
        from pkg.adapters.whisper import WhisperAdapter  # noqa: F401
        from .qwen_asr import QwenAsrAdapter  # noqa: F401
        from pkg.adapters import granite  # noqa: F401
        import pkg.adapters.glm  # noqa: F401

        __all__ = [
            "register",
            "resolve",
            "WhisperAdapter",
            "QwenAsrAdapter",
        ]
        """,
    "pkg/adapters/base.py": """
        REGISTRY = {}


        def register(key):
            def deco(cls):
                REGISTRY[key] = cls
                return cls

            return deco


        def resolve(arch):
            for key, cls in REGISTRY.items():
                if key in arch:
                    return cls()
            raise ValueError(f"no adapter for {arch}")
        """,
    "pkg/adapters/whisper.py": "from pkg.adapters.base import register\n\n\n@register('Whisper')\n"
                               "class WhisperAdapter:\n    name = 'whisper'\n",
    "pkg/adapters/qwen_asr.py": "import pkg.models.qwen_audio\nfrom pkg.adapters.base import register\n\n\n"
                                "@register('QwenASR')\nclass QwenAsrAdapter:\n    name = 'qwen'\n",
    "pkg/adapters/granite.py": "from pkg.adapters.base import register\n\n\n@register('Granite')\n"
                               "class GraniteAdapter:\n    name = 'granite'\n",
    "pkg/adapters/glm.py": "from pkg.adapters.base import register\n\n\n@register('Glm')\nclass GlmAdapter:\n"
                           "    name = 'glm'\n",
    "pkg/models/__init__.py": "",
    "pkg/models/qwen_audio.py": "AUDIO = 1\n",
    "pkg/cli.py": """
        import sys

        from pkg.adapters import resolve

        if __name__ == "__main__":
            print(resolve(sys.argv[1]).name)
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli"]

[[registries]]
kind = "imports"
package = "{package}"
keep = ["base", "whisper", "gl*"]   # base: the registry itself
reason = "speech models this deployment serves"
"""


def test_unkept_submodule_imports_and_what_only_they_loaded_leave(tmp_path):
    root = write_project(tmp_path, FILES, SPEC.format(package="pkg.adapters"))
    assert run_cli(root, "QwenASRModel").stdout == "qwen\n"
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    fork = result.out
    init = (fork / "pkg/adapters/__init__.py").read_text()
    assert "qwen_asr" not in init and "granite" not in init and '"QwenAsrAdapter"' not in init
    assert "from pkg.adapters.whisper import WhisperAdapter  # noqa: F401" in init
    assert "import pkg.adapters.glm  # noqa: F401" in init and '"WhisperAdapter",\n]' in init
    for gone in ("pkg/adapters/qwen_asr.py", "pkg/adapters/granite.py", "pkg/models/qwen_audio.py"):
        assert not (fork / gone).exists()
    assert run_cli(fork, "WhisperLarge").stdout == "whisper\n" and run_cli(fork, "GlmAsr").stdout == "glm\n"
    assert run_cli(fork, "QwenASRModel").stderr.splitlines()[-1] == "ValueError: no adapter for QwenASRModel"
    [entry] = result.data["imports_registries"]
    assert entry["kept"] == ["base", "whisper", "glm"] and entry["removed"] == ["qwen_asr", "granite"]
    assert all(b.checks and all(c.ok for c in b.checks) and not b.restored for b in result.apply.batches)


def test_a_removed_name_used_in_the_module_leaves_it_unmodified():
    src = b"from pkg.a.x import X\nfrom pkg.a.y import Y\n\nDEFAULT = Y\n"
    cut = cut_imports(ImportsRegistry("pkg.a", ("x",)), "pkg/a/__init__.py", src, "pkg.a")
    assert cut.new_source is None and "undefined" in cut.failure


def test_a_module_not_in_the_source_is_a_spec_error(tmp_path):
    root = write_project(tmp_path, FILES, SPEC.format(package="pkg.adaptors"))
    with pytest.raises(SpecError) as err:
        shrink(root / "slimfork.toml", tmp_path / "fork", dry_run=True)
    assert err.value.key == "registries[0].package" and "pkg.adapters" in err.value.hint


def test_a_submodule_kept_code_reads_as_an_attribute_stays(tmp_path):
    """``pkg.adapters.granite.GraniteAdapter`` in a kept module: the import of ``granite`` is not cut (session 29's
    adversarial round, I3); the other unkept submodules still go."""
    cli = FILES["pkg/cli.py"].replace("from pkg.adapters import resolve", "import pkg.adapters\n"
                                      "        from pkg.adapters import resolve\n\n"
                                      "        NAME = pkg.adapters.granite.GraniteAdapter.name")
    root = write_project(tmp_path, {**FILES, "pkg/cli.py": cli}, SPEC.format(package="pkg.adapters"))
    result = shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    assert (result.out / "pkg/adapters/granite.py").exists() and not (result.out / "pkg/adapters/qwen_asr.py").exists()
    [entry] = result.data["imports_registries"]
    assert entry["removed"] == ["qwen_asr"]
