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


def test_leaving_the_block_early_waits_for_the_child_to_finish(tmp_path):
    done = tmp_path / "done"

    def slow_write():
        time.sleep(0.3)
        done.write_text("all of it")

    with pytest.raises(KeyError):
        with Background(slow_write, fork=True):
            raise KeyError("the build failed meanwhile")
    assert done.read_text() == "all of it"  # not stopped halfway


def test_the_result_can_be_asked_again():
    with Background(lambda: 42, fork=True) as forked:
        assert forked.result() == 42
        assert forked.result() == 42


def test_a_ctrl_c_leaves_the_child_to_finish_quietly(capfd):
    with Background(lambda: time.sleep(0.5) or "finished", fork=True) as forked:
        time.sleep(0.2)  # the child is at work
        os.kill(forked._process.pid, signal.SIGINT)  # as Ctrl-C reaches the process group
        assert forked.result() == "finished"
    assert "Traceback" not in capfd.readouterr().err


class LinedError(Exception):
    def __init__(self, line, message):
        super().__init__(f"{line}: {message}")


def test_an_error_that_cannot_be_made_again_in_the_parent_comes_back_as_text():
    def fails():
        raise LinedError(7, "bad input")

    with Background(fails, fork=True) as forked:
        with pytest.raises(RuntimeError, match="7: bad input"):
            forked.result()


def test_without_a_fork_the_call_runs_here(monkeypatch):
    def no_room(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("tempfile.TemporaryFile", no_room)
    with Background(os.getpid, fork=True) as forked:
        assert forked.result() == os.getpid()
