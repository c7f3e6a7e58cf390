"""Compile five JIT kernel units that DeepSeek uses, from the tree under test, with `nvcc -c` (no GPU needed), the
way sglang's load_jit does (its include folder, the tvm-ffi headers, its NVIDIA flags), and print one line per
unit: `name: ok` or `name: failed`. As a [[checks.command]] with match = "stdout", each unit must compile in the
fork wherever it compiled in the original.

    python compile_kernels.py TREE [--dsa]   (SLIMFORK_SRC names slimfork's src/ folder for the compile helpers)

`--dsa` adds two units of DeepSeek V3.2's sparse attention, for a profile that keeps V3.2.

The units (sources relative to sglang/kernels/jit/csrc) were chosen because they are on DeepSeek's path and reach
the kernel sources the NVIDIA preprocessor facts fold; template arguments are DeepSeek shapes.
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.append(os.environ.get("SLIMFORK_SRC", str(Path(__file__).resolve().parents[2] / "src")))
from slimfork.kernels.compile_check import CompileUnit, compile_unit, find_nvcc  # noqa: E402

UNITS = (
    CompileUnit("concat_mla_k", ("elementwise/concat_mla.cuh",), (("concat_mla_k", "ConcatMlaKKernel::run"),),
                why="MLA key concat of DeepSeek V2/V3/R1 (ops/attention/concat_mla.py); includes the folded "
                    "sgl_kernel utils.cuh, warp.cuh, tensor.h"),
    CompileUnit("set_mla_kv_buffer", ("elementwise/set_mla_kv_buffer.cuh",),
                (("set_mla_kv_buffer", "SetMlaKVBufferKernel<1024, 128, true>::run"),),
                why="MLA KV cache write on SM90+ (ops/kvcache/mla_buffer.py -> set_mla_kv_buffer.py): kv_lora 512 "
                    "+ rope 64 in bf16 = 1024 + 128 bytes, PDL on; includes the folded runtime.cuh, utils.cuh, "
                    "warp.cuh, tensor.h"),
    CompileUnit("per_token_group_quant_8bit_v2", ("gemm/per_token_group_quant_8bit_v2.cuh",),
                (("per_token_group_quant_8bit_v2", "PerTokenGroupQuant8bitV2Kernel<bf16_t, fp8_e4m3_t, true>::run"),),
                cuda_cflags=("--use_fast_math",),
                why="FP8 block-wise activation quantization of DeepSeek V3/R1 FP8 checkpoints "
                    "(ops/quantization/fp8_kernel.py); the unit's own source has preprocessor branches"),
    CompileUnit("hicache", ("kvcacheio/hicache.cuh",),
                (("launch_one", "&HiCacheKernel<1152, 2, 2, 1024>::run_one"),
                 ("launch_all", "&HiCacheKernel<1152, 2, 2, 1024>::run_all")),
                why="hierarchical KV cache transfer used when serving DeepSeek with HiCache; the most folded "
                    "source (23 directives) plus runtime.cuh"),
    CompileUnit("dsv3_fused_a_gemm", ("gemm/dsv3_fused_a_gemm.cuh",),
                (("dsv3_fused_a_gemm", "DSV3FusedAGemmKernel<7168, 2112, true>::run"),),
                why="DeepSeek V3/R1 min-latency fused q_a/kv_a projection (models/deepseek_v2.py -> "
                    "ops/gemm/fused_a_gemm.py); hidden 7168 -> q_lora 1536 + kv_lora 512 + rope 64 = 2112, "
                    "SM90 code behind __CUDA_ARCH__ >= 900 that the fold must leave alone"),
)

DSA_UNITS = (
    CompileUnit("kpool_topk_transform", ("dsa/kpool_topk_transform.cuh",),
                (("kpool_topk_transform", "KpoolTopKTransformKernel::transform"),),
                cuda_cflags=("-DSGL_GROUP_TOPK=256",),
                why="DeepSeek V3.2 sparse attention (DSA) top-k; the unit's own source has USE_ROCM branches"),
    CompileUnit("fused_metadata_copy", ("elementwise/fused_metadata_copy.cuh",),
                (("fused_metadata_copy", "FusedMetadataCopyKernel<0, true, true>::run"),),
                why="DSA/FlashMLA metadata copy for CUDA graphs (ops/attention/dsa/fused_metadata_copy.py); folded"),
)


def ffi_includes() -> list[Path]:
    """The tvm-ffi headers of the environment (apache-tvm-ffi is one of sglang's pinned requirements)."""
    import tvm_ffi

    root = Path(tvm_ffi.__file__).parent
    return [root / "include", root / "3rdparty" / "dlpack" / "include"]


def main(tree: str, dsa: bool = False) -> int:
    units = UNITS + DSA_UNITS if dsa else UNITS
    nvcc = find_nvcc()
    if nvcc is None:  # an error, never an output that matches: the spec's requires = ["nvcc"] skips the check
        print("nvcc not found: nothing compiled", file=sys.stderr)
        return 2
    jit = Path(tree) / "sglang" / "kernels" / "jit"
    includes = ffi_includes()
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda unit: compile_unit(nvcc, jit, unit, includes), units))
    for unit, result in zip(units, results):
        print(f"{unit.name}: {'ok' if result.ok else 'failed'}")
        if not result.ok:
            sys.stderr.write(f"--- {unit.name}\n{result.log}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1], dsa="--dsa" in sys.argv[2:]))
