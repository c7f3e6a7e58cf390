from mlserve.models.common import tokenize


class DeepseekV3:
    name = "deepseek-v3"

    def forward(self, prompt, matmul):
        return f"deepseek-v3: " + matmul(len(tokenize(prompt)), 2)


EntryClass = DeepseekV3
