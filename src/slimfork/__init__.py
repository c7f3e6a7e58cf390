"""slimfork: derive a small, verified fork of a large Python codebase.

The pipeline is visible in the subpackages:
spec -> source -> index -> graph -> facts -> plan -> rewrite -> verify -> apply -> report (and audit).
The CLI (``slimfork.cli``) is a thin layer over ``slimfork.api``.
"""

__version__ = "0.1.0"
