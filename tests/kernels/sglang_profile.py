"""The NVIDIA preprocessor facts and the JIT units the sglang tests use (shared by the slow tests and docs)."""

import runpy
from pathlib import Path

from slimfork.kernels.spec import parse_preprocessor

NVIDIA_RAW = {"undefined": ["USE_ROCM", "USE_MUSA", "__HIP_PLATFORM_AMD__", "__HIP_DEVICE_COMPILE__", "__HIPCC__",
                            "HIP_FP8_TYPE_FNUZ", "HIP_FP8_TYPE_E4M3", "SGL_ROCM_FP8_HW_CVT", "__gfx950__",
                            "__gfx1200__", "__gfx1201__"]}
NVIDIA = parse_preprocessor(NVIDIA_RAW, "facts.preprocessor")
PLATFORM_MACROS = set(NVIDIA.undefined)

# The five DeepSeek JIT units of the profile's compile check (profiles/checks/compile_kernels.py).
DEEPSEEK_UNITS = runpy.run_path(str(Path(__file__).resolve().parents[2] / "profiles" / "checks" /
                                    "compile_kernels.py"), run_name="units")["UNITS"]
