"""Processes for the build's independent work: papers to check, cards and pages to render.

The processes are forked once per build, when work first comes that is worth them (the
papers to check, early in a cold build, while this process holds little but the files it has
read), and each chunk of work is sent to them pickled. Forked later, each would share every
paper this process holds, and copy the memory of each as it reads it (Python counts references
on every object it touches): a cold build at 10,000 papers peaked at ~640 MB over its processes.
Results come back in order, so the output never depends on which process made what.

One more process takes work begun aside (later(): related papers and the search index, while
this process puts the site together), forked as early (start()) and ended once its results are
taken: run on a worker, related papers left it ~30 MB larger for the rest of a cold build.
A process that builds again and again (the preview server) keeps one instead (KeptAside),
forked once while it is small: forked anew for each build from a process holding a whole
digest, it made this one copy each page of its memory it wrote to while the build ran (~78,000
page faults, ~0.2 s of a 10,000-paper rebuild's 1.4 s).
"""

from __future__ import annotations

import collections
import functools
import gc
import itertools
import multiprocessing
import pickle
import signal
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Generic, Iterable, Iterator, Mapping, TypeVar

from .memory import trim

PARALLEL_FROM = 200
"""Fewer results to make than this are made in this process: a round trip to the workers, and
starting them, cost more than the work."""
CHUNK = 64
"""Items sent to a worker at once, at most: a round trip costs ~1 ms, the templates pickled."""
AHEAD = 4
"""Chunks sent per worker before their results are taken: enough to keep the workers busy, few
enough that made pages do not pile up while this process writes (a cold 10,000-paper build held
~300 MB of them when every chunk was sent at once)."""


class KeptAside:
    """The process for work begun aside, kept from build to build (Workers' `kept`): forked when
    made, and again if it died (then from this process as it is by then); stopped by close().
    `holds`: the keys of the results it was last carried and read (cache.KeptResults), which a
    build need not carry it again; set by the build that took what it made of them."""

    def __init__(self) -> None:
        self._executor: ProcessPoolExecutor | None = None
        self.holds: frozenset[bytes] = frozenset()
        self.executor()

    def executor(self) -> ProcessPoolExecutor:
        """The process's executor, forked if there is none."""
        if self._executor is None:
            self._executor = _executor(1, _start_kept_aside)
            self._executor.submit(int)  # why: an executor forks its processes at its first work
        return self._executor

    def renew(self, broken: ProcessPoolExecutor) -> None:
        """Let go of `broken`, whose process died (BrokenProcessPool), if it is still this one's:
        the next executor() forks a new one, which holds nothing. Not forked here: a build may
        be writing its site, and the new process would live on with all it holds then."""
        if self._executor is broken:
            broken.shutdown(wait=False, cancel_futures=True)
            self._executor, self.holds = None, frozenset()

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(cancel_futures=True)
            self._executor = None

    def __enter__(self) -> KeptAside:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def in_kept_aside() -> bool:
    """Whether this process is a KeptAside's, which holds what it is carried for the next build
    (cache.KeptResults.results)."""
    return _KEPT_ASIDE


_KEPT_ASIDE = False


class Workers:
    """`count` worker processes, started on first use, and one more for work begun aside
    (later()): the `kept` one, if given, else one of its own; with fewer than 2, all is done
    here."""

    def __init__(self, count: int = 1, kept: KeptAside | None = None) -> None:
        self.count = count
        self._kept = kept
        self._pool: ProcessPoolExecutor | None = None
        self._aside: ProcessPoolExecutor | None = None
        self._pending: set[Future] = set()

    @property
    def apart(self) -> bool:
        """Whether work begun aside (later()) is done in another process."""
        return self.count >= 2

    def map(self, make: Callable[..., Any], shared: Any, items: list[tuple[Any, ...]]) -> list[Any]:
        """make(*args), or make(shared, *args), of each args tuple, in order."""
        return list(self.imap(make, shared, items))

    def imap(self, make: Callable[..., Any], shared: Any,
             items: list[tuple[Any, ...]]) -> Iterator[Any]:
        """map(), each result given as soon as it and those before it are made."""
        if self.count < 2 or len(items) < PARALLEL_FROM:
            return (call(make, shared, args) for args in items)
        if self._pool is None:
            self._pool = _executor(self.count)
        size = max(1, min(CHUNK, len(items) // (self.count * 8)))
        chunks = ((make, shared, items[start:start + size]) for start in range(0, len(items), size))
        return _in_order(self._pool, chunks, AHEAD * self.count)

    def later(self, make: Callable[..., Any], *args: Any) -> Callable[[], Any]:
        """make(*args), begun aside, in a process of its own while this one goes on (with fewer
        than 2 workers, made here when first asked for); the function returned waits for its
        result. The process ends once every result begun aside is taken, so what it held (~100
        MB at its peak, for related papers at 10,000) is not held for the rest of the build."""
        if not self.apart:
            return functools.cache(lambda: make(*args))
        self.start()
        assert self._aside is not None
        # why: pickled here, so that the process holds its args as one buffer it lets go at once
        pickled = pickle.dumps(args, pickle.HIGHEST_PROTOCOL)
        try:
            future = self._aside.submit(_made_aside, make, pickled)
        except BrokenProcessPool:  # why: a kept process that died since the last build
            if self._kept is None:
                raise
            self._kept.renew(self._aside)
            self._aside = self._kept.executor()
            future = self._aside.submit(_made_aside, make, pickled)
        self._pending.add(future)
        executor = self._aside
        return functools.cache(lambda: self._taken(future, executor))

    def start(self) -> None:
        """Fork the process for work begun aside now, while this one is small: forked later, the
        two would share every page this one holds, and this one copy each as it writes it. A
        `kept` one was forked when it was made."""
        if self.apart and self._aside is None:
            if self._kept is not None:
                self._aside = self._kept.executor()
                return
            self._aside = _executor(1)
            self._aside.submit(int)  # why: an executor forks its processes at its first work

    def _taken(self, future: Future, executor: ProcessPoolExecutor) -> Any:
        try:
            return future.result()
        except BrokenProcessPool:  # why: build() builds again, in a kept process forked anew
            if self._kept is not None:  # why: the one it was sent to: one forked since lives on
                self._kept.renew(executor)
            raise
        finally:
            self._pending.discard(future)
            if not self._pending and self._aside is not None and self._kept is None:
                self._aside.shutdown()
                self._aside = None

    def let_pool_go(self) -> None:
        """Stop the worker processes (what they have begun is waited for), not the work begun
        aside: a result not yet taken may not have begun yet, behind another (close() would
        drop it)."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def close(self) -> None:
        """Stop the processes: what they have not begun is dropped (a build that failed or was
        interrupted wants none of it), what they have begun is waited for; a `kept` process
        aside is left running, its work not begun dropped."""
        for future in self._pending:
            future.cancel()
        for executor in (self._pool, None if self._kept else self._aside):
            if executor is not None:
                executor.shutdown(cancel_futures=True)
        self._pool = self._aside = None
        self._pending.clear()

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _executor(count: int, start: Callable[[], None] | None = None) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("fork"),
                               initializer=start or _start_worker)


def call(make: Callable[..., Any], shared: Any, args: tuple[Any, ...]) -> Any:
    """make(*args), or make(shared, *args) when there is a `shared` value."""
    return make(*args) if shared is None else make(shared, *args)


def _in_order(pool: ProcessPoolExecutor, chunks: Iterable[tuple[Any, ...]],
              ahead: int) -> Iterator[Any]:
    """The results of the chunks, in order, with no more than `ahead` chunks sent and not taken."""
    chunks = iter(chunks)
    sent: collections.deque[Future] = collections.deque(
        pool.submit(_make_chunk, chunk) for chunk in itertools.islice(chunks, ahead))
    while sent:
        results = sent.popleft().result()
        sent.extend(pool.submit(_make_chunk, chunk) for chunk in itertools.islice(chunks, 1))
        yield from results


def _start_worker() -> None:
    """In a worker: Ctrl-C reaches the whole process group; the build, not its workers, stops.
    The cycle collector, paused by the build, runs again for what the worker makes (Markdown's
    and Jinja's objects are cycles: a worker kept up to ~45 MB more of them in a cold
    10,000-paper build), but not over what it was forked with, which it would copy page by page."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.freeze()
    gc.enable()


def _start_kept_aside() -> None:
    """In a KeptAside's process: a worker's start, and in_kept_aside() says so."""
    global _KEPT_ASIDE
    _start_worker()
    _KEPT_ASIDE = True


def _made_aside(make: Callable[..., Any], pickled: bytes) -> Any:
    """make(*args) aside, then what it freed given back: the process may wait for its result to
    be taken while the build is at its largest (~70 MB held after the search index, ~45 after)."""
    try:
        return make(*pickle.loads(pickled))
    finally:
        gc.collect()
        trim()


def _make_chunk(chunk: tuple[Callable[..., Any], Any, list[tuple[Any, ...]]]) -> list[Any]:
    make, shared, items = chunk
    return [call(make, shared, args) for args in items]


K = TypeVar("K")
V = TypeVar("V")


class Awaited(Mapping[K, V], Generic[K, V]):
    """A mapping still being made (Workers.later): the first look into it waits for it, so
    what needs none of it goes on meanwhile."""

    def __init__(self, result: Callable[[], Mapping[K, V]]) -> None:
        self._result = result
        self._made: Mapping[K, V] | None = None

    def made(self) -> Mapping[K, V]:
        if self._made is None:
            self._made = self._result()
        return self._made

    @property
    def taken(self) -> bool:
        """Whether it has been made and taken."""
        return self._made is not None

    def __getitem__(self, key: K) -> V:
        return self.made()[key]

    def get(self, key: K, default: Any = None) -> Any:  # why: once a paper; no KeyError raised
        return self.made().get(key, default)

    def __iter__(self) -> Iterator[K]:
        return iter(self.made())

    def __len__(self) -> int:
        return len(self.made())
