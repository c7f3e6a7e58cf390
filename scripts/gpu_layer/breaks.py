"""Deliberately broken copies of an sglang tree: a CUDA arm of a branch the layer executes replaced by the other
platform's arm (what a fold that picked the wrong arm would leave). Usage: breaks.py TREE NAME"""
import sys
from pathlib import Path

BREAKS = {
    # fused-MoE module imports: on CUDA take the HIP arm (sgl_kernel's silu_and_mul, no moe_sum_reduce import)
    "moe_hip_imports": ("sglang/srt/layers/moe/moe_runner/triton_utils/fused_moe.py",
                        [("if _is_cuda:\n    from sgl_kernel import moe_sum_reduce\n",
                          "if False:\n    from sgl_kernel import moe_sum_reduce\n"),
                         ("elif _is_hip:\n    from sgl_kernel import gelu_and_mul, gelu_tanh_and_mul, silu_and_mul\n",
                          "elif _is_hip or _is_cuda:\n    from sgl_kernel import gelu_and_mul, gelu_tanh_and_mul, silu_and_mul\n")]),
    # rotary embedding: the non-CUDA arm of the kernel choice (fallback rotary kernel instead of the fused rope)
    "rope_noncuda_arm": ("sglang/srt/layers/rotary_embedding/base.py",
                         [("(not (_is_cuda) or self.head_size not in [64, 128, 256, 512])",
                           "(not (False) or self.head_size not in [64, 128, 256, 512])")]),
}

tree, name = Path(sys.argv[1]), sys.argv[2]
rel, edits = BREAKS[name]
path = tree / rel
text = path.read_text()
for old, new in edits:
    assert text.count(old) == 1, (name, old)
    text = text.replace(old, new)
path.write_text(text)
print(f"broke {rel} ({name})")
