"""One piece of work done in a forked process while this one goes on with the rest.

A one-edit rebuild of a large digest runs on one core. So that the second core of a laptop
does its share, the search index (~0.4 s at 10,000 papers) is built in a child while the
parent plans and writes the pages, and the spare site is linked up to date in another while
the papers load (output.staged_meanwhile). fork hands the child everything loaded without
pickling it; only the result comes back, pickled into an unnamed temporary file. Not through
a pipe: a child blocked on a full pipe until the parent reads would live on, and while it
lives every page the parent writes to is copied (fork's copy-on-write); from a file the child
is gone at once.

A child is never stopped halfway: it may be writing a file of the cache or linking the
staged site, and is waited for instead. Where fork is unavailable or fails, the work is
done in this process, when its result is asked for.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import tempfile
import traceback
from typing import BinaryIO, Callable, Generic, TypeVar

T = TypeVar("T")

_SIGNALS = {signal.SIGINT, signal.SIGTERM}


class Background(Generic[T]):
    """`call()`, forked now (`fork`), or else run here when its result is first asked for;
    result() is its value, or raises its error. As a context manager, leaving the block
    waits for a child still at work."""

    def __init__(self, call: Callable[[], T], fork: bool) -> None:
        self._call = call
        self._value: tuple[bool, object] | None = None
        self._process: multiprocessing.process.BaseProcess | None = None
        if fork and hasattr(os, "fork"):  # why: no fork on Windows; the work is done here
            self._fork()

    def _fork(self) -> None:
        # why: blocked until the child has set its own handlers, so that a Ctrl-C in between
        # does not print a traceback of the child's
        before = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
        try:
            self._answers = tempfile.TemporaryFile()
            process = multiprocessing.get_context("fork").Process(
                target=_answer, args=(self._call, self._answers, before), daemon=True,
                name="background")
            process.start()  # why: fork passes the call and its arguments on, unpickled
            self._process = process
        except (OSError, ValueError):  # why: no fork here, or no room for a process or file
            self._process = None
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)

    def result(self) -> T:
        """The value `call` returned, waiting for the child if need be; its exception, raised."""
        if self._value is None:
            self._value = self._receive() if self._process else (True, self._call())
        done, value = self._value
        if not done:
            assert isinstance(value, BaseException)
            raise value
        return value  # type: ignore[return-value]

    def _receive(self) -> tuple[bool, object]:
        code = self._wait()
        self._answers.seek(0)
        answer = self._answers.read()
        self._answers.close()
        try:
            if code == 0 and answer:
                return pickle.loads(answer)
        except Exception as unreadable:  # why: an error whose class cannot be made again
            return False, RuntimeError(f"the background process's answer was unreadable: "
                                       f"{unreadable}")
        return False, RuntimeError(f"the background process ended without an answer "
                                   f"(exit code {code})")

    def _wait(self) -> int | None:
        assert self._process is not None
        self._process.join()
        code, self._process = self._process.exitcode, None
        return code

    def __enter__(self) -> Background[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._process is not None:
            self._wait()
            self._answers.close()


def _answer(call: Callable[[], object], answers: BinaryIO, mask: set[signal.Signals]) -> None:
    """In the child: write (True, value) or (False, error), then end at once."""
    # why: Ctrl-C reaches the whole process group; the parent waits for this child, which
    # goes on to finish what it writes
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    code = 1
    try:
        answers.write(_pickled_outcome(call))
        answers.flush()
        code = 0
    finally:
        # why: not multiprocessing's own exit, which flushes stdout and stderr: a thread of
        # the parent (the preview server's) may have held their lock when it forked
        os._exit(code)


def _pickled_outcome(call: Callable[[], object]) -> bytes:
    try:
        outcome: tuple[bool, object] = (True, call())
    except Exception as error:
        error.add_note("".join(traceback.format_exception(error)))  # why: where it was raised
        outcome = (False, error)
    try:
        data = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
        if not outcome[0]:
            pickle.loads(data)  # why: an error the parent could not make again is sent as text
        return data
    except Exception as unsent:
        told = "".join(traceback.format_exception(outcome[1])) if not outcome[0] else ""
        return pickle.dumps((False, RuntimeError(
            f"the background process could not send back its {type(outcome[1]).__name__}: "
            f"{unsent}\n{told}")))
