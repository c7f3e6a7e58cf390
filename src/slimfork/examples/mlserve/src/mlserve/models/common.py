def tokenize(text):
    return text.split()
