"""One piece of work done in a forked process while this one goes on with the rest.

A one-edit rebuild of a large digest runs on one core: the search index (~0.4 s at 10,000
papers) is built in a child while the parent plans and writes the pages, so the second core
of a laptop does it. fork hands the child everything loaded without pickling it; only the
result comes back, pickled into an unnamed temporary file. Not through a pipe: a child
blocked on a full pipe until the parent reads would live on, and while it lives every page
the parent writes to is copied (fork's copy-on-write); from a file the child is gone at once.
"""

from __future__ import annotations

import multiprocessing
import pickle
import signal
import tempfile
import traceback
from typing import BinaryIO, Callable, Generic, TypeVar

T = TypeVar("T")


class Background(Generic[T]):
    """`call()`, forked now (`fork`), or else run here when its result is first asked for;
    result() is its value, or raises its error. As a context manager, leaving the block
    early stops a child still at work."""

    def __init__(self, call: Callable[[], T], fork: bool) -> None:
        self._call = call
        self._value: tuple[bool, object] | None = None
        self._process: multiprocessing.process.BaseProcess | None = None
        if not fork:
            return
        context = multiprocessing.get_context("fork")
        self._answer = tempfile.TemporaryFile()
        # why: with fork the target and its arguments are inherited, not pickled
        self._process = context.Process(target=_answer, args=(call, self._answer), daemon=True,
                                        name="background")
        self._process.start()

    @property
    def begun(self) -> bool:
        """Whether `call` has run or is running: forked, or its result asked for."""
        return self._process is not None or self._value is not None

    def result(self) -> T:
        """The value `call` returned, waiting for the child if need be; its exception, raised."""
        if self._value is None and self._process is None:
            self._value = (True, self._call())  # why: not forked; an error is raised as it happens
        if self._value is None:
            self._value = self._receive()
        done, value = self._value
        if not done:
            raise value  # type: ignore[misc]
        return value  # type: ignore[return-value]

    def _receive(self) -> tuple[bool, object]:
        assert self._process is not None
        self._process.join()
        code = self._process.exitcode
        self._answer.seek(0)
        answer = self._answer.read()
        self._close()
        if code != 0 or not answer:
            return False, RuntimeError(f"the background process ended without an answer "
                                       f"(exit code {code})")
        return pickle.loads(answer)

    def _close(self) -> None:
        if self._process is None:
            return
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()
        self._answer.close()
        self._process = None

    def __enter__(self) -> Background[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self._close()


def _answer(call: Callable[[], object], answer: BinaryIO) -> None:
    """In the child: write (True, value) or (False, error), the error with its traceback."""
    # why: Ctrl-C reaches the whole process group: the parent stops this child itself, and
    # a stopped child should end quietly, not print a KeyboardInterrupt of its own
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    outcome: tuple[bool, object]
    try:
        outcome = (True, call())
    except Exception as error:
        error.add_note("".join(traceback.format_exception(error)))  # why: where it was raised
        outcome = (False, error)
    try:
        data = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as unsent:  # why: what does not pickle still reaches the parent, as text
        data = pickle.dumps((False, RuntimeError(f"the background process could not send back "
                                                 f"its {type(outcome[1]).__name__}: {unsent}")))
    answer.write(data)
    answer.flush()
