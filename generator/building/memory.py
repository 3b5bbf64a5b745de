"""Memory a build frees goes back to the system at once: glibc's malloc, tuned by mallopt.

glibc serves a large allocation from its heap once the last one of that size was freed (its
mmap threshold grows, up to 32 MB), and gives heap memory back only above 128 KB free at the
top. A build makes large passing buffers (the search index's and related papers' arrays, a
paper list's pickles), so freed memory piled up in each process: a cold 10,000-paper build
peaked at 529-538 MB over its processes (PSS), against 499-504 MB with both thresholds fixed
at 128 KB (bench/build_bench.py). Elsewhere (musl, macOS) this is left as it is."""

from __future__ import annotations

import ctypes
import sys

THRESHOLD = 128 * 1024
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
"""mallopt's options, from glibc's malloc.h."""


def return_freed_memory() -> bool:
    """Fix glibc's trim and mmap thresholds, for this process and those it forks; whether it
    could (False where the C library has no glibc mallopt)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return all([mallopt(option, THRESHOLD) == 1
                for option in (_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD)])
