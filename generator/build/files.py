"""The site's files: each FileJob's bytes, or the live site's own file where it holds them.

For each job the cache keeps a hash of the bytes it made, not the bytes: the live site is where
those are. A job whose last bytes the live site's file still holds is not made again and the
writer keeps that file as it is; any other job is made (in `workers` processes when there are
many) and the hash of its bytes kept. So the cache holds no second copy of the site, and a
rebuild reads each of the site's files once, to hash it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Callable

from ..model.records import FileJob, OutputFile
from .cache import Cache, make_all
from .writer import KeptFile, live_digest


def make_files(jobs: list[FileJob], cache: Cache, out: Path,
               workers: int = 1) -> list[OutputFile | KeptFile]:
    """Every job's file, in order: made, or kept in `out` as the same job made it before."""
    files: dict[int, OutputFile | KeptFile] = {}
    for make, shared, numbers in _by_function(jobs):
        keys = cache.keys(make, shared, [jobs[n].args for n in numbers]) if cache.keeps else []
        made_before = cache.found(keys) if keys else {}
        to_make = [(n, key) for n, key in zip(numbers, keys or [b""] * len(numbers))
                   if key not in made_before
                   or made_before[key] != live_digest(out, jobs[n].path)]
        made = make_all(make, shared, [jobs[n].args for n, _ in to_make], workers)
        if keys:
            cache.keep({key: hashlib.sha256(data).digest() for (_, key), data in zip(to_make, made)})
        files.update((n, OutputFile(jobs[n].path, data)) for (n, _), data in zip(to_make, made))
        files.update((n, KeptFile(jobs[n].path)) for n in numbers if n not in files)
    return [files[n] for n in range(len(jobs))]


def _by_function(jobs: list[FileJob]) -> list[tuple[Callable[..., bytes], object, list[int]]]:
    """The jobs' numbers grouped by function and shared value, each group in the jobs' order."""
    groups: dict[tuple[int, int], tuple[Callable[..., bytes], object, list[int]]] = {}
    for number, job in enumerate(jobs):
        group = groups.setdefault((id(job.make), id(job.shared)), (job.make, job.shared, []))
        group[2].append(number)
    return list(groups.values())
