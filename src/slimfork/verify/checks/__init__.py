"""The checks of the verification ladder, one per file (parse, imports, pyflakes, import-modules, command, pytest)."""
