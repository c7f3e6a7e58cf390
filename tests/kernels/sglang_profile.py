"""The NVIDIA preprocessor facts and the JIT units the sglang tests use (shared by the slow tests and docs)."""

from slimfork.kernels.compile_check import CompileUnit
from slimfork.kernels.spec import parse_preprocessor

NVIDIA_RAW = {"undefined": ["USE_ROCM", "USE_MUSA", "__HIP_PLATFORM_AMD__", "__HIP_DEVICE_COMPILE__", "__HIPCC__",
                            "HIP_FP8_TYPE_FNUZ", "HIP_FP8_TYPE_E4M3", "SGL_ROCM_FP8_HW_CVT", "__gfx950__",
                            "__gfx1200__", "__gfx1201__"]}
NVIDIA = parse_preprocessor(NVIDIA_RAW, "facts.preprocessor")
PLATFORM_MACROS = set(NVIDIA.undefined)

# Five DeepSeek JIT units (sources relative to sglang/kernels/jit/csrc). Template arguments are values the
# Python callers pass for DeepSeek shapes. Chosen so that each one includes sources the NVIDIA facts fold.
DEEPSEEK_UNITS = (
    CompileUnit("concat_mla_k", ("elementwise/concat_mla.cuh",), (("concat_mla_k", "ConcatMlaKKernel::run"),),
                why="MLA key concat of DeepSeek V2/V3/R1 (ops/attention/concat_mla.py); includes the folded "
                    "sgl_kernel utils.cuh, warp.cuh, tensor.h"),
    CompileUnit("kpool_topk_transform", ("dsa/kpool_topk_transform.cuh",),
                (("kpool_topk_transform", "KpoolTopKTransformKernel::transform"),),
                cuda_cflags=("-DSGL_GROUP_TOPK=256",),
                why="DeepSeek V3.2 sparse attention (DSA) top-k; the unit's own source has USE_ROCM branches"),
    CompileUnit("fused_metadata_copy", ("elementwise/fused_metadata_copy.cuh",),
                (("fused_metadata_copy", "FusedMetadataCopyKernel<0, true, true>::run"),),
                why="DSA/FlashMLA metadata copy for CUDA graphs (ops/attention/dsa/fused_metadata_copy.py); folded"),
    CompileUnit("hicache", ("kvcacheio/hicache.cuh",),
                (("launch_one", "&HiCacheKernel<1152, 2, 2, 1024>::run_one"),
                 ("launch_all", "&HiCacheKernel<1152, 2, 2, 1024>::run_all")),
                why="hierarchical KV cache transfer used when serving DeepSeek with HiCache; the most folded "
                    "source (23 directives) plus runtime.cuh"),
    CompileUnit("store_indexer", ("deepseek_v4/store.cuh",),
                (("run", "FusedStoreCacheIndexerKernel<bf16_t, int64_t, 64, true>::run"),),
                why="DeepSeek V4 indexer cache store (ops/attention/dsv4/attn.py); pulls fp8_utils.cuh, "
                    "type.cuh and the other folded deepseek_v4 headers"),
)
