from mlserve.models.common import tokenize
from mlserve.models.rope_llama import rope


class Llama:
    name = "llama"

    def forward(self, prompt, matmul):
        return f"llama: " + matmul(len(tokenize(prompt)), 2)


EntryClass = Llama
