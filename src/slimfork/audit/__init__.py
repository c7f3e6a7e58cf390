"""Audit in place: unused files, duplicate modules, unused GPU kernels, orphaned tests, eager imports."""
