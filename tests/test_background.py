import os
import signal
import time

import pytest

from generator.background import Background


class Unpicklable:
    def __reduce__(self):
        raise TypeError("not picklable")


def test_a_forked_call_gives_what_the_call_gives_here():
    here = Background(lambda: {"pid": 1, "data": b"x" * 300_000}, fork=False).result()
    with Background(lambda: {"pid": 1, "data": b"x" * 300_000}, fork=True) as forked:
        assert forked.result() == here


def test_a_forked_call_runs_in_another_process_that_sees_this_ones_memory():
    seen = {"value": [1, 2, 3]}  # inherited by the fork, never pickled
    with Background(lambda: (os.getpid(), seen["value"]), fork=True) as forked:
        pid, value = forked.result()
    assert pid != os.getpid() and value == [1, 2, 3]


def test_an_error_in_the_child_is_raised_with_where_it_happened():
    def fails():
        raise ValueError("bad input")

    with Background(fails, fork=True) as forked:
        with pytest.raises(ValueError, match="bad input") as raised:
            forked.result()
    assert "in fails" in "".join(raised.value.__notes__)


def test_a_call_not_forked_runs_when_its_result_is_asked_for():
    calls = []
    here = Background(lambda: calls.append(1) or len(calls), fork=False)
    assert calls == []
    assert here.result() == 1
    assert here.result() == 1 and calls == [1]
    with pytest.raises(ZeroDivisionError):
        Background(lambda: 1 / 0, fork=False).result()


def test_a_child_that_dies_without_answering_is_an_error():
    with Background(lambda: os._exit(3), fork=True) as forked:
        with pytest.raises(RuntimeError, match="exit code 3"):
            forked.result()


def test_a_value_that_cannot_be_sent_back_is_an_error():
    with Background(Unpicklable, fork=True) as forked:
        with pytest.raises(RuntimeError, match="not picklable"):
            forked.result()


def test_leaving_the_block_early_stops_the_child():
    with pytest.raises(KeyError):
        with Background(lambda: time.sleep(60), fork=True) as forked:
            process = forked._process
            raise KeyError("the build failed meanwhile")
    assert not process.is_alive()


def test_the_result_can_be_asked_again():
    with Background(lambda: 42, fork=True) as forked:
        assert forked.result() == 42
        assert forked.result() == 42


def test_a_child_stopped_early_ends_quietly(capfd):
    # as the preview server has it: SIGTERM raises KeyboardInterrupt (preview._stop_on_signals)
    before = signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        _stop_a_child_early()
    finally:
        signal.signal(signal.SIGTERM, before)
    assert "Traceback" not in capfd.readouterr().err


def _stop_a_child_early():
    with pytest.raises(KeyError):
        with Background(lambda: time.sleep(60), fork=True):
            time.sleep(0.2)  # the child is at work
            raise KeyError("the build failed meanwhile")
