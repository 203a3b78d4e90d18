"""Helpers around gemm-runner's machine-readable results."""
