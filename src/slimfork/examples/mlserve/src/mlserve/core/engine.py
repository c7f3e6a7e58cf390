"""The engine. `core/` has no __init__.py: an implicit namespace package, as in SGLang's srt/."""

from mlserve.platform import is_hip

_is_hip = is_hip()

if _is_hip:
    from mlserve.core.kernels_hip import matmul
else:
    from mlserve.core.kernels_cuda import matmul


class Engine:
    def __init__(self, model_cls):
        self.model = model_cls()

    def generate(self, prompt: str) -> str:
        return self.model.forward(prompt, matmul)
