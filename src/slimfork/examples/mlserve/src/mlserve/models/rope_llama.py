def rope(x):
    return x
