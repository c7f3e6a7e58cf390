"""Kernel sources (CUDA/C++): preprocessor facts folded with unifdef, include graph, compile checks."""
