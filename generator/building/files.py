"""The site's files: each FileJob's bytes, or the live site's own file where it holds them.

A build leaves a Manifest: for each file of the site, the key of the job that made it (see
building/cache.py: a hash of the code, the function and all it was given) and a hash of its bytes.
The next build keeps a file where its job has the same key as the last build's job at that
path and the live site still holds those bytes: the writer leaves it as it is, and nothing is
made. So the cache holds no second copy of the site. When the live site is exactly as the last
build left it (the same size, times and inode of every file and folder: writer.SiteState), its
bytes are those of the manifest without reading them; else each kept file is read, to hash it.
"""

from __future__ import annotations

import hashlib
from typing import Callable, Iterator

from ..model.records import FileJob, OutputFile
from .cache import Cache
from .workers import PARALLEL_FROM, Workers
from .writer import KeptFile, LiveSite, live_digest

Manifest = dict[str, tuple[bytes, bytes]]
"""What a build made, by the file's path in the site: (its job's key, the sha256 of its bytes)."""


def make_files(jobs: list[FileJob], cache: Cache, live: LiveSite, workers: Workers | None = None,
               before: Manifest | None = None, made: Manifest | None = None,
               then: Callable[[], list[FileJob]] = list) -> Iterator[OutputFile | KeptFile]:
    """Every job's file, as it is made, or kept in the `live` site as the last build (`before`,
    its manifest) made it: so the writer can place each as it comes, and no more than a few are
    held at once. This build's manifest is put in `made` as the files come (nothing, when the
    cache keeps nothing). `then()` gives more jobs, asked for once the keys of `jobs` are
    worked out: those that wait for what is found aside, which goes on meanwhile."""
    workers, before, made = workers or Workers(), before or {}, {} if made is None else made
    # why: every job's key first, so that the workers are let go as soon as what is left to
    # make is too little for them: a rebuild that makes a few files makes none in them
    plan = [_plan(make, shared, numbers, jobs, cache, live, before)
            for make, shared, numbers in _by_function(jobs)]
    more, first = then(), len(jobs)
    jobs = jobs + more
    plan += [_plan(make, shared, [first + n for n in numbers], jobs, cache, live, before)
             for make, shared, numbers in _by_function(more)]
    if any(len(to_make) >= PARALLEL_FROM for _, _, _, to_make in plan):
        # why: taken before the workers make anything, so the process aside has ended by then
        # (its ~70 MB at its end, held while a cold build is largest, put it past 512 MB)
        for _, _, _, to_make in plan:
            for number, _ in to_make:
                if jobs[number].aside is not None:
                    jobs[number].aside()
    for at, (make, shared, kept, to_make) in enumerate(plan):
        if not any(len(rest) >= PARALLEL_FROM for _, _, _, rest in plan[at:]):
            # why: what is left is made here; the idle workers held ~130 MB of a cold
            # 10,000-paper build's peak while it made papers.json (~36 MB passing) and the rest
            workers.let_pool_go()
        for path in kept:
            made[path] = before[path]
            yield KeptFile(path)
        made_now = workers.imap(make, shared, [jobs[number].args for number, _ in to_make
                                               if jobs[number].aside is None])
        for number, key in to_make:
            aside = jobs[number].aside
            yield _made(jobs[number].path, key, aside() if aside else next(made_now), made)


def _plan(make: Callable[..., bytes], shared: object, numbers: list[int], jobs: list[FileJob],
          cache: Cache, live: LiveSite, before: Manifest
          ) -> tuple[Callable[..., bytes], object, list[str], list[tuple[int, bytes]]]:
    """One group of jobs split into the paths of the files kept in the live site as they are,
    and the jobs to make, each with its key."""
    keys = (cache.keys(make, shared, [jobs[n].args for n in numbers]) if cache.keeps
            else [b""] * len(numbers))
    # why: here, not before, so it is asked when the writer asks for the first file: under its lock
    as_left = bool(before) and live.as_left
    kept, to_make = [], []
    for number, key in zip(numbers, keys):
        path, last = jobs[number].path, before.get(jobs[number].path)
        if key and last and last[0] == key and (as_left or live_digest(live.out, path) == last[1]):
            kept.append(path)
        else:
            to_make.append((number, key))
    return make, shared, kept, to_make


def _made(path: str, key: bytes, data: bytes, made: Manifest) -> OutputFile:
    if key:
        made[path] = (key, hashlib.sha256(data).digest())
    return OutputFile(path, data)


def _by_function(jobs: list[FileJob]) -> list[tuple[Callable[..., bytes], object, list[int]]]:
    """The jobs' numbers grouped by function and shared value, each group in the jobs' order."""
    groups: dict[tuple[int, int], tuple[Callable[..., bytes], object, list[int]]] = {}
    for number, job in enumerate(jobs):
        group = groups.setdefault((id(job.make), id(job.shared)), (job.make, job.shared, []))
        group[2].append(number)
    return list(groups.values())
