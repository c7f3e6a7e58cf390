from mlserve.models.common import tokenize


class Mistral:
    name = "mistral"

    def forward(self, prompt, matmul):
        return f"mistral: " + matmul(len(tokenize(prompt)), 2)


EntryClass = Mistral
