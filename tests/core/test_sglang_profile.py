"""The sglang profile end to end on the real wheel (downloaded by the test from PyPI, cached)."""

from __future__ import annotations

import tomllib

import pytest

from slimfork.api import shrink, why
from slimfork.spec import parse_spec
from slimfork.verify.build import layout_of
from slimfork.verify.checks.imports import ImportsCheck
from slimfork.verify.checks.parse import ParseCheck
from tests.conftest import ROOT

PROFILE = ROOT / "profiles" / "sglang-deepseek.toml"
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("sglang")]


# CI runs the whole profile (facts, kernels, registries, every batch verified and bisected) with the static
# checks only (parse, imports, pyflakes: seconds per tree). The runtime checks of the profile (imports of about 260
# modules in the verification venv, both --help outputs, the single-layer forward, the nvcc compile check) take
# minutes per tree on 2 cores: tests/verify and tests/kernels run each of them on the real package, and the full
# profile is run by hand (docs/sglang.md).
def ci_spec():
    raw = tomllib.loads(PROFILE.read_text())
    raw["checks"]["skip"] = ["import-modules", "command"]
    return parse_spec(raw, PROFILE)


@pytest.fixture(scope="module")
def shrunk(tmp_path_factory):
    import os

    from tests.conftest import SHARED_CACHE

    os.environ["SLIMFORK_CACHE"] = str(SHARED_CACHE)
    out = tmp_path_factory.mktemp("sglang") / "fork"
    return shrink(ci_spec(), out)


def test_fork_parses_and_no_import_newly_breaks(shrunk):
    source, fork = shrunk.analysis.tree, shrunk.out
    layout = layout_of(source)
    for check in (ParseCheck(layout), ImportsCheck(layout)):
        baseline = check.baseline(source.root)
        assert baseline.usable
        result = check.run(fork, baseline)
        assert result.ok, (check.name, result.failures[:10])


def test_report_has_lines_before_and_after(shrunk):
    data = shrunk.data
    python_before = data["before"]["by_language"]["Python"]
    python_after = data["after"]["by_language"]["Python"]
    assert python_before["files"] == 4719
    # The faithful profile (V3.2, LoRA, gRPC kept) reaches 66.9% (issue 31's goal of 70% is not reached yet; the
    # lean variant, without them, 70.6%): a floor, so a change that keeps more fails here
    assert python_after["lines"] <= 0.335 * python_before["lines"]
    assert data["reduction"]["python_lines"] >= 66.5
    md = (shrunk.report_dir / "report.md").read_text()
    assert f"| Python | 4719 | {python_after['files']} |" in md
    assert "sglang/srt/" in md
    assert data["warnings"] == []
    removed = {r["path"]: r for r in data["removed"]}
    assert removed["sglang/srt/models/llama4.py"]["kind"] == "unreachable"
    ascend = [r for path, r in removed.items() if path.startswith("sglang/test/ascend/")]
    assert ascend and all(r["reason"] == "dropped by drop[2] 'sglang/test/ascend'" for r in ascend)


def test_fork_keeps_the_deepseek_models_and_the_metadata(shrunk):
    fork = shrunk.out
    for name in ("deepseek.py", "deepseek_v2.py", "deepseek_nextn.py", "deepseek_common/__init__.py"):
        assert (fork / "sglang/srt/models" / name).is_file(), name
    assert not (fork / "sglang/srt/models/deepseek_vl2.py").exists()
    # ModelRegistry reads EntryClass with getattr: the list stays although no code names it, V3.2 in it
    assert "\nEntryClass = [DeepseekV2ForCausalLM, DeepseekV3ForCausalLM, DeepseekV32ForCausalLM]\n" in \
        (fork / "sglang/srt/models/deepseek_v2.py").read_text()
    meta = tomllib.loads((fork / "pyproject.toml").read_text())["project"]
    assert meta["name"] == "sglang" and meta["version"] == "0.5.23+slimfork"
    assert meta["scripts"] == {"sglang": "sglang.cli.main:main", "killall_sglang": "sglang.cli.killall:main"}
    assert any(dep.startswith("torch") for dep in meta["dependencies"])
    reqs = {r["name"]: r for r in shrunk.data["requirements"]}  # each declared requirement, kept or dropped
    assert reqs["torch"]["kept"] and reqs["torch"]["reason"].startswith("imported as torch (")
    kept = [r["requirement"] for r in shrunk.data["requirements"] if r["kept"]]
    assert meta["dependencies"] == [r for r in kept if "extra ==" not in r]  # extras go to optional-dependencies
    assert list(fork.glob("*.dist-info"))  # kept: the tree on PYTHONPATH keeps the metadata importlib reads


def test_every_batch_is_verified(shrunk):
    applied = shrunk.apply
    assert {b.check for b in applied.baselines if b.usable} == {"parse", "imports", "pyflakes"}
    names = [b.name for b in applied.batches]
    assert names[0] == "folded" and any(n.startswith("dropped") for n in names) and names[-1] == "packaging"
    for batch in applied.batches:
        assert all(c.ok for c in batch.checks), (batch.name, batch.checks)
    # what a check needed undone is restored with the check as its reason; the rest of the batch is kept
    for _, restored in applied.restored:
        assert restored.check in ("parse", "imports", "pyflakes") and restored.failures
    folded = next(b for b in applied.batches if b.name == "folded")
    assert len(folded.removed) > 300  # most folded files pass the checks
    kept = {k["path"]: k["reason"] for k in shrunk.data["kept"]}
    for _, restored in applied.restored:
        if restored.action == "delete":
            assert kept[restored.path].startswith(f"restored: the {restored.check} check failed")


def test_why_explains_registry_membership():
    answer = why(PROFILE, "sglang.srt.models.deepseek_v2")
    assert answer.kept
    assert any("registry sglang.srt.models keeps 'deepseek_v2'" in step["reason"] for step in answer.chain) or \
        answer.chain[-1]["reason"].startswith("imported by")
    assert answer.chain[0]["reason"].startswith("root ")
    removed = why(PROFILE, "sglang/srt/models/deepseek_vl2.py")
    assert not removed.kept and "unreachable" in removed.reason


def test_registries_and_symbols_cut_what_a_deepseek_deployment_does_not_use(shrunk):
    data = shrunk.data
    removed = {r["path"]: r for r in data["removed"]}
    [storage] = [e for e in data["decorator_registries"] if e["decorator"].endswith(".register_backend")]
    assert storage["kept"] == ["file", "sim", "nixl", "mooncake", "hf3fs", "shm"]  # source order
    assert {r["key"] for r in storage["removed"]} == {"npu_memcache", "aibrix", "eic", "simm", "mori", "tensorcast",
                                                     "seaweedfs"}
    assert "sglang/srt/mem_cache/storage/eic/eic_storage.py" in removed
    chains = {c["function"].rpartition(".")[2]: c for c in data["if_chain_registries"]}
    grammar = chains["create_grammar_backend"]
    assert grammar["kept"] == ["xgrammar", "llguidance", "none"] and grammar["removed"] == ["outlines"]
    assert "sglang/srt/constrained/outlines_backend.py" in removed
    symbols = data["symbols"]
    quant = next(r for r in symbols["registries"] if r["variable"] == "BASE_QUANTIZATION_METHODS")
    assert "fp8" in quant["kept"] and "gguf" in quant["removed"] and "quark" in quant["removed"]
    parsers = {r["variable"]: r for r in symbols["registries"]}
    assert parsers["ReasoningParser.DetectorMap"]["kept"] == ["deepseek-r1", "deepseek-v3"]
    assert symbols["pruned"] and symbols["modules_removed"]
    methods = data["facts"]["unused_methods"]  # forward_npu & co. go, and forward_cpu once the MoE layer's Intel
    # AMX arm folds (`use_intel_amx_backend(...)` = false); the diffusion runtime's forwards left with it
    assert methods["removed"]["forward_npu"] >= 10 and methods["removed"]["forward_hip"] >= 5
    assert methods["removed"]["forward_cpu"] >= 10 and "forward_cpu" not in methods["kept"]
    # ... but not from the unquantized MoE method, whose body binds `forward_native = forward_cpu`: only that one
    # stays, and its XPU/NPU/MUSA forwards still go
    unquant = (shrunk.out / "sglang/srt/layers/quantization/unquant.py").read_text()
    assert "forward_native = forward_cpu" in unquant and "def forward_xpu" not in unquant


def test_draft_backends_speculative_algorithms_and_rust_families_leave(shrunk):
    data = shrunk.data
    removed = {r["path"]: r for r in data["removed"]}
    symbols = data["symbols"]
    draft = next(r for r in symbols["registries"] if r["variable"] == "DraftBackendFactory.create_decode_backend")
    assert {"aiter", "intel_xpu", "ascend", "dsv4"} <= set(draft["removed"]) and "fa3" in draft["kept"]
    methods = {n for p in symbols["pruned"] if p["kind"] == "method" for n in p["names"]}
    assert {"DraftBackendFactory._create_aiter_decode_backend", "DraftBackendFactory._create_ascend_prefill_backend"} \
        <= methods
    # private methods of classes deriving from a library class stay (transformers calls a tokenizer's _tokenize)
    assert not {m for m in methods if m.startswith("InternLM2Tokenizer.")}
    assert "sglang/srt/layers/attention/xpu_backend.py" in removed  # only the draft factory imported it
    (families,) = [m for m in data["mapping_registries"] if m["variable"] == "RUST_MM_FAMILIES"]
    assert families["kept"] == [] and families["removed"] == ["qwen_vl"]
    assert "sglang/srt/multimodal/processors/qwen_vl.py" in removed
    # DFlash, DSpark and UNO: their predicates are false on every receiver, so their workers leave
    assert "sglang/srt/speculative/dflash_worker_v2.py" in removed and "sglang/srt/speculative/uno_worker_v2.py" in removed
    assert "sglang/srt/speculative/eagle_worker_v2.py" not in removed
    # an import under TYPE_CHECKING keeps nothing (type_checking_imports = "ignore"): ROCm helpers, Engram layers...
    type_only = [p for p, r in removed.items() if "TYPE_CHECKING" in r["reason"]]
    assert len(type_only) >= 5 and "sglang/srt/layers/engram.py" in type_only, type_only
    # the kernel inventory: registrations no kept module looks up leave (with the kernels only they named)
    inventory = [e for e in data["decorator_registries"] if e["decorator"].endswith(".register_kernel")]
    assert len(inventory) >= 10 and sum(len(e["removed"]) for e in inventory) >= 50  # one per operator group
    assert not [e["failure"] for e in inventory if e["failure"]]


def test_import_registries_transfer_backends_lora_and_hybrid_configs_leave(shrunk):
    data = shrunk.data
    removed = {r["path"]: r for r in data["removed"]}
    imports = {e["module"]: e for e in data["imports_registries"]}
    overrides = imports["sglang.srt.arg_groups.model_overrides"]
    assert overrides["kept"] == ["deepseek_v2"] and {"qwen3_moe", "gemma4", "deepseek_v4"} <= set(overrides["removed"])
    adapters = imports["sglang.srt.entrypoints.openai.transcription_adapters"]
    assert adapters["kept"] == ["base"] and {"whisper", "qwen3_asr"} <= set(adapters["removed"])
    assert "sglang/srt/entrypoints/openai/transcription_adapters/qwen3_asr.py" in removed
    transfer = next(e for e in data["if_chain_registries"] if e["function"].endswith(".get_kv_class"))
    assert transfer["removed"] == ["TransferBackend.MORI", "TransferBackend.ASCEND"]
    lora = next(e for e in data["decorator_registries"] if e["decorator"].endswith("register_lora_backend"))
    assert {r["key"] for r in lora["removed"]} == {"ascend", "uno_cublas"}
    assert "sglang/srt/lora/backend/ascend_backend.py" in removed
    # the hybrid linear-attention config getters return None: the KDA/GDN kernels only those arms imported leave
    assert "sglang/kernels/ops/attention/linear/kda_nvidia_prefill/chunk_fwd.py" in removed


def test_the_faithful_profile_keeps_v32_lora_and_grpc(shrunk):
    """Issue 31: V3.2's sparse attention (dsa and its alias nsa), LoRA and the gRPC front ends stay, and none of
    their options is inert; the lean variant's facts are what makes them inert there."""
    fork, data = shrunk.out, shrunk.data
    for path in ("sglang/srt/layers/attention/dsa_backend.py", "sglang/srt/layers/attention/dsa/dsa_indexer.py",
                 "sglang/srt/lora/lora_manager.py", "sglang/srt/entrypoints/grpc_server.py"):
        assert (fork / path).is_file(), path
    [attention] = [e for e in data["decorator_registries"] if e["decorator"].endswith("register_attention_backend")]
    assert {"dsa", "nsa"} <= set(attention["kept"])
    inert = {o["option"] for o in data["facts"].get("inert_options", [])}
    assert not {"--enable-lora", "--grpc-mode", "--smg-grpc-mode", "--enable-hisparse"} & inert, inert
    # values whose code the vendor predicates (`*.is_aiter()` = false) folded away are listed with their option
    values = {f"{v['option']} {v['value']}" for v in data["facts"].get("inert_values", [])}
    assert {"--moe-runner-backend aiter", "--moe-a2a-backend mori", "--fp8-gemm-runner-backend aiter"} <= values
    assert not any(v.startswith("--attention-backend ") for v in values), values  # a registry, not a predicate


def test_parser_name_lists_match_their_registries(shrunk):
    """The static choices of `--reasoning-parser` / `--tool-call-parser` (read when the registries are not imported
    yet) are cut to the registries' kept keys, so an unknown parser fails when the arguments are parsed."""
    fork, data = shrunk.out, shrunk.data
    registries = {r["variable"]: r for r in data["symbols"]["registries"]}
    for variable, path in (("REASONING_PARSER_NAMES", "sglang/srt/parser/reasoning_parser_names.py"),
                           ("TOOL_CALL_PARSER_NAMES", "sglang/srt/function_call/parser_names.py")):
        kept = registries[variable]["kept"]
        assert kept and all(name.startswith("deepseek") for name in kept), kept
        text = (fork / path).read_text()
        assert '"kimi_k2"' not in text and all(f'"{name}"' in text for name in kept)
    assert registries["REASONING_PARSER_NAMES"]["kept"] == registries["ReasoningParser.DetectorMap"]["kept"]
    # LoRA stays, but Inkling's shared experts (never_instances) leave with the isinstance arms that named them
    assert not (fork / "sglang/srt/models/inkling_common").exists()
    assert "InklingBatchDenseMLP" not in (fork / "sglang/srt/lora/lora_manager.py").read_text()
