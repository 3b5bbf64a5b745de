"""Memory a build frees goes back to the system at once: glibc's malloc, tuned by mallopt.

glibc serves a large allocation from its heap once the last one of that size was freed (its
mmap threshold grows, up to 32 MB, and the heap's trim threshold with it). A build makes
large passing buffers (the search index's and related papers' arrays, a paper list's
pickles), so freed memory piled up in each process: a cold 10,000-paper build peaked at
525-554 MB over its processes (PSS, bench/build_bench.py's sampler), against 485-486 MB with
an allocation of 1 MB or more always mapped on its own and the heap trimmed above 2 MB free.
At 128 KB both, the peak was about as low (477-493 MB) but the cold build took ~1.5 s more
CPU (22.8 s against 21.3 s), in the kernel mapping and unmapping. Elsewhere (musl, macOS)
this is left as it is."""

from __future__ import annotations

import ctypes
import sys

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
"""mallopt's options, from glibc's malloc.h."""
THRESHOLDS = {_M_MMAP_THRESHOLD: 1 << 20, _M_TRIM_THRESHOLD: 2 << 20}


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
    return all([mallopt(option, value) == 1 for option, value in THRESHOLDS.items()])


def trim() -> None:
    """Give back to the system every free page of this process's heap, not only its top (glibc's
    malloc_trim); elsewhere nothing."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None).malloc_trim(0)
        except (OSError, AttributeError):
            pass
