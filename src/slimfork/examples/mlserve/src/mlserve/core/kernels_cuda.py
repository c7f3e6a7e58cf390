def matmul(a, b):
    return f"cuda({a}*{b})"
