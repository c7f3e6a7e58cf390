from mlserve.core.engine import Engine


def generate(model, prompt):
    return Engine(model).generate(prompt)
