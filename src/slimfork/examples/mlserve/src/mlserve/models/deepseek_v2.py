from mlserve.models.common import tokenize


class DeepseekV2:
    name = "deepseek-v2"

    def forward(self, prompt, matmul):
        return f"deepseek-v2: " + matmul(len(tokenize(prompt)), 2)


EntryClass = DeepseekV2
