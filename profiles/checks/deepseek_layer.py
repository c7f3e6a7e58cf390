"""Single-layer check for sglang forks: one DeepSeek-V2 decoder layer, dense and MoE, forward on CPU.

Run by a ``[[checks.command]]`` with ``match = "stdout"`` in the verification environment (sglang on PYTHONPATH,
``vllm``, ``torchvision``, ``humming`` and ``aiter`` stubbed): it builds each layer from a tiny fp32 config with
sglang's own test helpers (``sglang.test.layer_ut_utils``, ``sglang.test.kits.attention_unittest``), the
``torch_native`` attention backend, in decode mode, fills the weights from a fixed seed, splits ``kv_b_proj``
into ``w_kc``/``w_vc`` as ``post_load_weights`` does, and prints a summary of the output with fixed precision.
The original and the fork must print the same lines.

``--v32`` adds a DeepSeek V3.2 layer (``DeepseekV32ForCausalLM``: MLA with DeepSeek sparse attention's indexer),
built only: its forward cannot run on CPU, since sglang's DSA ``Indexer`` has no pure-torch path
(``forward_native`` raises NotImplementedError). It prints the layer's module classes and every parameter's name,
shape and dtype, and a digest of the seeded weights, so a fork that lost part of V3.2's layer differs.
"""

from __future__ import annotations

import hashlib
import os
import sys

os.environ.setdefault("SGLANG_DISABLE_CUDA", "1")

import torch  # noqa: E402

SEED = 1234
DECODE_PREFIX_LENS = (5, 9)  # two requests, decode: one new token each
PAGE_SIZE = 1
MAX_CONTEXT_LEN = 32


def tiny_config(moe: bool):
    from transformers import DeepseekV3Config

    config = DeepseekV3Config(
        vocab_size=128, hidden_size=64, intermediate_size=96, moe_intermediate_size=32,
        num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=4,
        n_shared_experts=1, n_routed_experts=4, num_experts_per_tok=2,
        n_group=1, topk_group=1, routed_scaling_factor=1.0, norm_topk_prob=True,
        first_k_dense_replace=0 if moe else 1, moe_layer_freq=1,  # layer 0 is dense unless moe
        q_lora_rank=None, kv_lora_rank=32, qk_nope_head_dim=16, qk_rope_head_dim=16, v_head_dim=16,
        hidden_act="silu", max_position_embeddings=MAX_CONTEXT_LEN, rms_norm_eps=1e-6,
        rope_parameters={"rope_type": "default", "rope_theta": 10000.0},
        torch_dtype="float32",
    )
    config.architectures = ["DeepseekV3ForCausalLM"]
    config.topk_method, config.scoring_func = "noaux_tc", "sigmoid"  # DeepSeek-V3's router
    return config


def build_layer(config):
    from sglang.srt.layers.layer_boundary.factories import layer_stack
    from sglang.srt.models.deepseek_v2 import DeepseekV2DecoderLayer

    with layer_stack():
        layer = DeepseekV2DecoderLayer(config, layer_id=0, prefix="model.layers.0")
    generator = torch.Generator().manual_seed(SEED)
    with torch.no_grad():
        for name, param in sorted(layer.named_parameters()):
            if "norm" in name:
                param.copy_(1.0 + 0.1 * torch.randn(param.shape, generator=generator))
            else:
                param.copy_(torch.randn(param.shape, generator=generator) / param.shape[-1] ** 0.5)
    attn = layer.self_attn
    w = attn.kv_b_proj.weight  # as post_load_weights: split kv_b_proj into w_kc / w_vc
    w_kc, w_vc = w.unflatten(0, (-1, attn.qk_nope_head_dim + attn.v_head_dim)).split(
        [attn.qk_nope_head_dim, attn.v_head_dim], dim=1)
    attn.w_kc = w_kc.transpose(1, 2).contiguous().transpose(1, 2)
    attn.w_vc = w_vc.contiguous().transpose(1, 2)
    return layer.eval()


def v32_config():
    config = tiny_config(moe=False)
    config.architectures = ["DeepseekV32ForCausalLM"]
    config.q_lora_rank = 32  # V3.2's indexer reads the query's low-rank projection
    config.index_topk, config.index_n_heads, config.index_head_dim = 4, 2, 32
    return config


def v32_layer_lines() -> list[str]:
    layer = build_layer(v32_config())
    attn = layer.self_attn
    lines = [f"v32 layer: attention={type(attn).__name__} use_dsa={getattr(attn, 'use_dsa', None)} "
             f"indexer={type(getattr(attn, 'indexer', None)).__name__}"]
    digest = hashlib.sha256()
    for name, param in layer.named_parameters():
        lines.append(f"v32 param {name} {tuple(param.shape)} {param.dtype}")
        digest.update(torch.round(param.detach().double() * 1e5).to(torch.int64).numpy().tobytes())
    lines.append(f"v32 weights sha={digest.hexdigest()[:16]}")
    return lines


def run(moe: bool) -> tuple[str, torch.Tensor]:
    from sglang.srt.layers.attention.attention_registry import ATTENTION_BACKENDS
    from sglang.srt.layers.layer_boundary.residual import batch as residual_batch
    from sglang.srt.layers.layernorm import RMSNorm
    from sglang.srt.model_executor.forward_batch_info import ForwardMode
    from sglang.srt.model_executor.forward_context import ForwardContext, forward_context
    from sglang.srt.utils import BumpAllocator
    from sglang.test.kits.attention_unittest.attention_methods import mla_attention as kit

    config = tiny_config(moe)
    case = kit.MLAAttentionCase(name="deepseek_layer", backend="torch_native", forward_mode=ForwardMode.DECODE,
                                num_heads=config.num_attention_heads, page_size=PAGE_SIZE,
                                prefix_lens=DECODE_PREFIX_LENS)
    model_config = kit.TinyMLAModelConfig(num_heads=config.num_attention_heads, kv_lora_rank=config.kv_lora_rank,
                                          qk_rope_head_dim=config.qk_rope_head_dim,
                                          hidden_size=config.hidden_size, context_len=MAX_CONTEXT_LEN)
    runner = kit.MockMLAModelRunner(case=case, model_config=model_config, dtype=torch.float32, device="cpu",
                                    max_context_len=MAX_CONTEXT_LEN, kv_lora_rank=config.kv_lora_rank,
                                    qk_rope_head_dim=config.qk_rope_head_dim)
    backend = ATTENTION_BACKENDS[case.backend](runner)
    layer = build_layer(config)
    batch = kit._make_forward_batch(case, runner, max_context_len=MAX_CONTEXT_LEN, device="cpu")
    generator = torch.Generator().manual_seed(SEED + 1)
    pool = runner.token_to_kv_pool  # the prefix tokens' latent cache: fixed random values
    cache = pool.get_key_buffer(0)
    with torch.no_grad():
        cache.copy_(torch.randn(cache.shape, generator=generator).to(cache.dtype))
    hidden = torch.randn(case.num_input_tokens, config.hidden_size, generator=generator)
    with torch.no_grad(), forward_context(ForwardContext(attn_backend=backend)):
        backend.init_forward_metadata(batch)
        residual_batch.start(batch)  # what DeepseekV2Model.forward does around its layers
        out, _ = layer(batch.positions, hidden, batch, BumpAllocator(1024, torch.float32, "cpu"))
        out = residual_batch.complete_output(out, batch)
        out = residual_batch.final_norm(out, batch, RMSNorm(config.hidden_size, eps=config.rms_norm_eps))
        if hasattr(residual_batch, "clear"):  # 0.5.23 releases the stream's state; 0.5.22 has no clear()
            residual_batch.clear(batch)  # final_norm applied the pending residual update: norm(out + residual)
    return type(backend).__name__, out.float()


def summary(name: str, out: torch.Tensor) -> str:
    rounded = torch.round(out.double() * 1e5).to(torch.int64)
    digest = hashlib.sha256(rounded.numpy().tobytes()).hexdigest()[:16]
    return (f"{name}: shape={tuple(out.shape)} sum={out.double().sum().item():.5f} "
            f"abs_mean={out.double().abs().mean().item():.6f} "
            f"first={[round(v, 5) for v in out.flatten()[:4].tolist()]} "
            f"sha={digest}")


def main() -> int:
    torch.manual_seed(SEED)
    torch.set_num_threads(1)  # the same reduction order on every run
    from sglang.test.layer_ut_utils import init_single_process_dist

    init_single_process_dist(master_port=int(os.environ.get("SLIMFORK_LAYER_PORT", "29632")))
    for name, moe in (("dense", False), ("moe", True)):
        backend, out = run(moe)
        print(summary(f"{name} ({backend})", out))
    if "--v32" in sys.argv[1:]:
        print("\n".join(v32_layer_lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
