"""One piece of work done in a forked process while this one goes on with the rest.

A one-edit rebuild of a large digest runs on one core: the search index (~0.4 s at 10,000
papers) is built in a child while the parent plans and writes the pages, so the second core
of a laptop does it. fork hands the child everything loaded without pickling it; only the
result comes back, pickled through a pipe.
"""

from __future__ import annotations

import multiprocessing
import signal
import traceback
from multiprocessing.connection import Connection
from typing import Callable, Generic, TypeVar

T = TypeVar("T")


class Background(Generic[T]):
    """`call()`, forked now (`fork`) or else run here at once; result() is its value, or
    raises its error. As a context manager, leaving the block early stops a child at work."""

    def __init__(self, call: Callable[[], T], fork: bool) -> None:
        self._value: tuple[bool, object] | None = None
        self._process: multiprocessing.process.BaseProcess | None = None
        if not fork:
            self._value = (True, call())
            return
        context = multiprocessing.get_context("fork")
        self._answer, sent = context.Pipe(duplex=False)
        # why: with fork the target and its arguments are inherited, not pickled
        self._process = context.Process(target=_answer, args=(call, sent), daemon=True,
                                        name="background")
        self._process.start()
        sent.close()  # why: the child's end; the parent then sees EOF if the child dies

    def result(self) -> T:
        """The value `call` returned, waiting for the child if need be; its exception, raised."""
        if self._value is None:
            self._value = self._receive()
        done, value = self._value
        if not done:
            raise value  # type: ignore[misc]
        return value  # type: ignore[return-value]

    def _receive(self) -> tuple[bool, object]:
        assert self._process is not None
        try:
            outcome = self._answer.recv()
        except EOFError:
            self._process.join()
            outcome = (False, RuntimeError(f"the {self._process.name} process ended without "
                                           f"an answer (exit code {self._process.exitcode})"))
        self._close(stop=False)  # why: it has answered and is ending on its own
        return outcome

    def _close(self, stop: bool = True) -> None:
        if self._process is None:
            return
        if stop and self._process.is_alive():
            self._process.terminate()
        self._process.join()
        self._answer.close()
        self._process = None

    def __enter__(self) -> Background[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self._close()


def _answer(call: Callable[[], object], sent: Connection) -> None:
    """In the child: send back (True, value) or (False, error), the error with its traceback."""
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
        sent.send(outcome)
    except Exception as unsent:  # why: what does not pickle still reaches the parent, as text
        sent.send((False, RuntimeError(f"the background process could not send back its "
                                       f"{type(outcome[1]).__name__}: {unsent}")))
    finally:
        sent.close()
