"""GPU single-layer check for sglang forks: DeepSeek decoder layers forward through sglang's CUDA paths.

The CUDA counterpart of ``deepseek_layer.py``: seeded bf16 DeepSeek layers built with sglang's own test helpers
run on one NVIDIA GPU with the ``triton`` attention backend (Triton MLA decode/extend kernels), the fused-MoE
Triton kernel and sglang's nvcc-JIT kernels, without the sglang-kernel and flashinfer wheels:
``SGLANG_IS_FLASHINFER_AVAILABLE=false`` and the stand-in ``sgl_kernel`` package beside this script (plain-torch
ops, every other name refusing when called). For each configuration it prints the exact sha256 of the output's
bytes and the kernels its forward ran (Triton kernels, sglang's JIT kernels, stand-in calls); the original and the
fork must print the same lines. Every CUDA kernel name the profiler saw goes to stderr, for reading only: the
process that builds a torch.compile graph first runs a copy and a fill more than the one that finds it cached.

Exit status: 0 when every configuration ran; 3 ("not comparable") when a configuration called an ``sgl_kernel``
name the stand-in does not implement (even if the caller swallowed the error); 1 when a configuration failed; 2
without a CUDA device. Run by a ``[[checks.command]]`` with ``requires = ["cuda"]``: skipped where no GPU is.
"""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

STANDIN = Path(__file__).resolve().parent / "sgl_kernel_standin"
SEED = 1234
MAX_CONTEXT_LEN = 128
NOT_COMPARABLE, FAILED, NO_DEVICE = 3, 1, 2


@dataclass(frozen=True)
class Layer:
    """One configuration: a DeepSeek layer's shape, its gate, and the batch it runs."""

    name: str
    hidden: int
    moe: str | None  # None: dense MLP; "v2": softmax greedy gate; "v3": sigmoid noaux_tc grouped gate
    decode: bool
    prefix_lens: tuple[int, ...]
    extend_lens: tuple[int, ...] = ()
    q_lora_rank: int | None = None
    intermediate: int = 10944
    experts: int = 0
    topk: int = 0
    groups: int = 1
    topk_groups: int = 1
    shared: int = 0
    moe_intermediate: int = 0
    scaling: float = 1.0
    heads: int = 16  # DeepSeek's 128 heads split over tensor parallelism of 8


LAYERS = (
    Layer("dense decode", hidden=2048, moe=None, decode=True, prefix_lens=(37, 70)),
    Layer("dense extend+prefix", hidden=2048, moe=None, decode=False, prefix_lens=(16, 40), extend_lens=(7, 25)),
    Layer("moe v2 gate", hidden=2048, moe="v2", decode=False, prefix_lens=(8, 3), extend_lens=(9, 14),
          experts=16, topk=6, shared=2, moe_intermediate=1408),
    Layer("moe v3 gate q_lora", hidden=7168, moe="v3", decode=True, prefix_lens=(5, 17, 33, 60), q_lora_rank=1536,
          experts=32, topk=8, groups=8, topk_groups=4, shared=1, moe_intermediate=2048, scaling=2.5),
)


@dataclass
class Outcome:
    name: str
    digest: str | None = None  # sha256 of the output's raw bytes
    shape: tuple[int, ...] = ()
    dtype: str = ""
    backend: str = ""
    error: str | None = None
    refused: list[str] = field(default_factory=list)  # stand-in names called without an implementation
    standin_calls: dict[str, int] = field(default_factory=dict)
    triton: list[str] = field(default_factory=list)
    jit: list[str] = field(default_factory=list)  # sglang's nvcc-JIT kernels (from the CUDA kernel names)
    cuda_kernels: list[str] = field(default_factory=list)

    @property
    def comparable(self) -> bool:
        return not self.refused


def digest(raw: bytes, shape: tuple[int, ...], dtype: str) -> str:
    """The exact sha256 of an output: its dtype, shape and raw bytes (no rounding: the same GPU, the same bits)."""
    h = hashlib.sha256(f"{dtype}{tuple(shape)}".encode())
    h.update(raw)
    return h.hexdigest()


def report(outcome: Outcome) -> list[str]:
    """The lines printed for one configuration (stdout: compared between the original and the fork)."""
    if outcome.refused:
        return [f"{outcome.name}: not comparable: called sgl_kernel names without a stand-in: "
                f"{', '.join(sorted(set(outcome.refused)))}"]
    if outcome.error is not None:
        return [f"{outcome.name}: failed: {outcome.error}"]
    lines = [f"{outcome.name}: {outcome.backend} shape={outcome.shape} {outcome.dtype} sha256={outcome.digest}",
             f"  triton kernels: {', '.join(outcome.triton) or '-'}",
             f"  sglang jit kernels: {', '.join(outcome.jit) or '-'}",
             "  sgl_kernel stand-in: " + (", ".join(f"{k} x{v}" for k, v in sorted(outcome.standin_calls.items()))
                                          or "-")]
    return lines  # the full CUDA kernel list goes to stderr: torch.compile's first build adds copies and fills


def exit_status(outcomes: list[Outcome]) -> int:
    if any(not o.comparable for o in outcomes):
        return NOT_COMPARABLE
    return FAILED if any(o.error is not None for o in outcomes) else 0


class TritonLog:
    """Records the Triton kernels launched, by name (also where the CUDA profiler is unavailable)."""

    def __init__(self):
        self.names: list[str] = []

    def install(self) -> None:
        from triton.runtime.jit import JITFunction

        log, run = self, JITFunction.run

        def logged_run(self, *args, **kwargs):
            name = getattr(getattr(self, "fn", None), "__name__", None) or repr(self)
            if name not in log.names:
                log.names.append(name)
            return run(self, *args, **kwargs)

        JITFunction.run = logged_run

    def take(self) -> list[str]:
        out = list(self.names)
        self.names.clear()
        return out


def sglang_kernels(names) -> list[str]:
    """The sglang JIT (nvcc) kernels among CUDA kernel names: ``void sglang::moe::align_kernel<int, 8>(...)`` ->
    ``moe::align_kernel``."""
    out = []
    for name in names:
        if name.startswith("void sglang::"):
            base = name[len("void sglang::"):].split("<")[0].split("(")[0]
            if base not in out:
                out.append(base)
    return sorted(out)


def config_of(layer: Layer):
    from transformers import DeepseekV3Config

    config = DeepseekV3Config(
        vocab_size=128, hidden_size=layer.hidden, intermediate_size=layer.intermediate,
        moe_intermediate_size=layer.moe_intermediate or 32, num_hidden_layers=2,
        num_attention_heads=layer.heads, num_key_value_heads=layer.heads,
        n_shared_experts=layer.shared or 1, n_routed_experts=layer.experts or 4, num_experts_per_tok=layer.topk or 2,
        n_group=layer.groups, topk_group=layer.topk_groups, routed_scaling_factor=layer.scaling,
        norm_topk_prob=layer.moe == "v3", first_k_dense_replace=0 if layer.moe else 1, moe_layer_freq=1,
        q_lora_rank=layer.q_lora_rank, kv_lora_rank=512, qk_nope_head_dim=128, qk_rope_head_dim=64, v_head_dim=128,
        hidden_act="silu", max_position_embeddings=MAX_CONTEXT_LEN, rms_norm_eps=1e-6,
        rope_parameters={"rope_type": "default", "rope_theta": 10000.0}, torch_dtype="bfloat16",
    )
    if layer.moe == "v2":
        config.architectures = ["DeepseekV2ForCausalLM"]
        config.topk_method, config.scoring_func = "greedy", "softmax"
    else:
        config.architectures = ["DeepseekV3ForCausalLM"]
        config.topk_method, config.scoring_func = "noaux_tc", "sigmoid"
    return config


def build_layer(config):
    import torch
    from sglang.srt.layers.layer_boundary.factories import layer_stack
    from sglang.srt.model_loader.utils import set_default_torch_dtype
    from sglang.srt.models.deepseek_v2 import DeepseekV2DecoderLayer

    with set_default_torch_dtype(torch.bfloat16), torch.device("cuda"), layer_stack():
        layer = DeepseekV2DecoderLayer(config, layer_id=0, prefix="model.layers.0")
    generator = torch.Generator(device="cuda").manual_seed(SEED)
    with torch.no_grad():
        for name, param in sorted(layer.named_parameters()):
            noise = torch.randn(param.shape, generator=generator, device="cuda", dtype=torch.float32)
            if "norm" in name:
                param.copy_(1.0 + 0.1 * noise)
            elif "e_score_correction_bias" in name:
                param.copy_(0.1 * noise)
            else:
                param.copy_(noise / param.shape[-1] ** 0.5)
        for module in layer.modules():  # what the model loader does once the weights are in
            method = getattr(module, "quant_method", None)
            if method is not None and hasattr(method, "process_weights_after_loading"):
                method.process_weights_after_loading(module)
    attn = layer.self_attn
    w = attn.kv_b_proj.weight  # as post_load_weights: split kv_b_proj into w_kc / w_vc
    w_kc, w_vc = w.unflatten(0, (-1, attn.qk_nope_head_dim + attn.v_head_dim)).split(
        [attn.qk_nope_head_dim, attn.v_head_dim], dim=1)
    attn.w_kc = w_kc.transpose(1, 2).contiguous().transpose(1, 2)
    attn.w_vc = w_vc.contiguous().transpose(1, 2)
    return layer.eval()


def forward(layer_spec: Layer, profiler):
    import torch
    from sglang.srt.layers.attention.attention_registry import ATTENTION_BACKENDS
    from sglang.srt.layers.layer_boundary.residual import batch as residual_batch
    from sglang.srt.layers.layernorm import RMSNorm
    from sglang.srt.model_executor.forward_batch_info import ForwardMode
    from sglang.srt.model_executor.forward_context import ForwardContext, forward_context
    from sglang.srt.utils import BumpAllocator
    from sglang.test.kits.attention_unittest.attention_methods import mla_attention as kit

    config = config_of(layer_spec)
    mode = ForwardMode.DECODE if layer_spec.decode else ForwardMode.EXTEND
    case = kit.MLAAttentionCase(name="deepseek_layer_cuda", backend="triton", forward_mode=mode,
                                num_heads=config.num_attention_heads, page_size=1,
                                prefix_lens=layer_spec.prefix_lens, extend_lens=layer_spec.extend_lens)
    model_config = kit.TinyMLAModelConfig(num_heads=config.num_attention_heads, kv_lora_rank=config.kv_lora_rank,
                                          qk_rope_head_dim=config.qk_rope_head_dim,
                                          hidden_size=config.hidden_size, context_len=MAX_CONTEXT_LEN)
    runner = kit.MockMLAModelRunner(case=case, model_config=model_config, dtype=torch.bfloat16, device="cuda",
                                    max_context_len=MAX_CONTEXT_LEN, kv_lora_rank=config.kv_lora_rank,
                                    qk_rope_head_dim=config.qk_rope_head_dim)
    backend = ATTENTION_BACKENDS[case.backend](runner)
    layer = build_layer(config)
    batch = kit._make_forward_batch(case, runner, max_context_len=MAX_CONTEXT_LEN, device="cuda")
    generator = torch.Generator(device="cuda").manual_seed(SEED + 1)
    cache = runner.token_to_kv_pool.get_key_buffer(0)  # the prefix tokens' latent cache: fixed random values
    with torch.no_grad():
        cache.copy_(torch.randn(cache.shape, generator=generator, device="cuda").to(cache.dtype))
    hidden = torch.randn(case.num_input_tokens, config.hidden_size, generator=generator, device="cuda",
                         dtype=torch.float32).to(torch.bfloat16)
    torch.cuda.synchronize()
    with profiler, torch.no_grad(), forward_context(ForwardContext(attn_backend=backend)):  # the forward only
        backend.init_forward_metadata(batch)
        residual_batch.start(batch)  # what DeepseekV2Model.forward does around its layers
        out, _ = layer(batch.positions, hidden, batch, BumpAllocator(1024, torch.float32, "cuda"))
        out = residual_batch.complete_output(out, batch)
        norm = RMSNorm(config.hidden_size, eps=config.rms_norm_eps).to(device="cuda", dtype=torch.bfloat16)
        out = residual_batch.final_norm(out, batch, norm)
        residual_batch.clear(batch)
        torch.cuda.synchronize()
    return type(backend).__name__, out


def run(layer_spec: Layer, triton_log: TritonLog) -> Outcome:
    import sgl_kernel
    import torch

    outcome = Outcome(layer_spec.name)
    calls_before, refused_before = len(sgl_kernel.CALLS), len(sgl_kernel.REFUSED)
    try:
        prof = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA])
        outcome.backend, out = forward(layer_spec, prof)
        raw = out.detach().contiguous().cpu().view(torch.uint8).numpy().tobytes()
        outcome.shape, outcome.dtype = tuple(out.shape), str(out.dtype)
        outcome.digest = digest(raw, outcome.shape, outcome.dtype)
        names = {e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA}
        outcome.cuda_kernels = sorted(n if len(n) <= 160 else n[:157] + "..." for n in names)
        outcome.jit = sglang_kernels(names)
    except Exception as exc:  # noqa: BLE001 - reported per configuration; the exit status says it failed
        import traceback

        traceback.print_exc()
        outcome.error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:300]
    for name in sgl_kernel.CALLS[calls_before:]:
        short = name.removeprefix("sgl_kernel.")
        outcome.standin_calls[short] = outcome.standin_calls.get(short, 0) + 1
    outcome.refused = sgl_kernel.REFUSED[refused_before:]
    outcome.triton = triton_log.take()
    return outcome


def main() -> int:
    os.environ.setdefault("SGLANG_IS_FLASHINFER_AVAILABLE", "false")
    import torch

    if not torch.cuda.is_available():
        print("no CUDA device: nothing run (the check requires one)", file=sys.stderr)
        return NO_DEVICE
    sys.path.insert(0, str(STANDIN))
    import sgl_kernel

    if getattr(sgl_kernel, "__file__", "") and not str(sgl_kernel.__file__).startswith(str(STANDIN)):
        print(f"sgl_kernel resolves to {sgl_kernel.__file__}, not the stand-in", file=sys.stderr)
        return FAILED
    torch.manual_seed(SEED)
    torch.use_deterministic_algorithms(False)
    from sglang.test.layer_ut_utils import init_single_process_dist

    triton_log = TritonLog()
    triton_log.install()
    init_single_process_dist(master_port=int(os.environ.get("SLIMFORK_LAYER_PORT", "29633")))
    only = os.environ.get("SLIMFORK_LAYERS")
    outcomes = []
    for spec in LAYERS:
        if only and spec.name not in only.split(","):
            continue
        outcome = run(spec, triton_log)
        outcomes.append(outcome)
        for line in report(outcome):
            print(line, flush=True)
        for name in outcome.cuda_kernels:
            print(f"{spec.name}: cuda kernel: {name}", file=sys.stderr)
        if outcome.refused:
            print(f"{spec.name}: not comparable: {sorted(set(outcome.refused))}", file=sys.stderr)
    print(f"GPU: {torch.cuda.get_device_name(0)}")
    return exit_status(outcomes)


if __name__ == "__main__":
    sys.exit(main())
