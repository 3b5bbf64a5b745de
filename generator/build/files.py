"""The site's files: each FileJob's bytes, or the live site's own file where it holds them.

For each job the cache keeps a hash of the bytes it made, not the bytes: the live site is where
those are. A job whose last bytes the live site's file still holds is not made again and the
writer keeps that file as it is; any other job is made (by the build's workers) and the hash
of its bytes kept. So the cache holds no second copy of the site, and a rebuild reads each of
the site's files once, to hash it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Callable, Iterator

from ..model.records import FileJob, OutputFile
from .cache import Cache
from .workers import Workers
from .writer import KeptFile, live_digest


def make_files(jobs: list[FileJob], cache: Cache, out: Path,
               workers: Workers | None = None) -> Iterator[OutputFile | KeptFile]:
    """Every job's file, as it is made or found kept in `out` as the same job made it before:
    so the writer can place each as it comes, and no more than a few are held at once."""
    workers = workers or Workers()
    for make, shared, numbers in _by_function(jobs):
        if not cache.keeps:
            made = workers.imap(make, shared, [jobs[n].args for n in numbers])
            yield from (OutputFile(jobs[n].path, data) for n, data in zip(numbers, made))
            continue
        keys = cache.keys(make, shared, [jobs[n].args for n in numbers])
        made_before = cache.found(keys)
        to_make = [(n, key) for n, key in zip(numbers, keys)
                   if made_before.get(key) is None
                   or made_before[key] != live_digest(out, jobs[n].path)]
        to_keep = set(numbers) - {n for n, _ in to_make}
        yield from (KeptFile(jobs[n].path) for n in numbers if n in to_keep)
        digests = {}
        made = workers.imap(make, shared, [jobs[n].args for n, _ in to_make])
        for (n, key), data in zip(to_make, made):
            digests[key] = hashlib.sha256(data).digest()
            yield OutputFile(jobs[n].path, data)
        cache.keep(digests)


def _by_function(jobs: list[FileJob]) -> list[tuple[Callable[..., bytes], object, list[int]]]:
    """The jobs' numbers grouped by function and shared value, each group in the jobs' order."""
    groups: dict[tuple[int, int], tuple[Callable[..., bytes], object, list[int]]] = {}
    for number, job in enumerate(jobs):
        group = groups.setdefault((id(job.make), id(job.shared)), (job.make, job.shared, []))
        group[2].append(number)
    return list(groups.values())
