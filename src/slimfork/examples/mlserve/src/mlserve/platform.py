"""Platform predicates, as large frameworks write them."""

import os


def is_hip() -> bool:
    return os.environ.get("MLSERVE_DEVICE") == "rocm"


def is_cuda() -> bool:
    return not is_hip()
