"""building/workers.py: work made in forked processes comes back in order, a few chunks ahead."""

import contextlib
import gc
import os
import time

import pytest

import generator.building.workers as workers_module
from generator.building.workers import Workers


def marked(folder, number):
    """Leaves a mark of having been made, so the test sees what a worker has made so far."""
    (folder / f"made-{number}").touch()
    return number * 10


def collector_running():
    return gc.isenabled()


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(workers_module, "PARALLEL_FROM", 2)
    monkeypatch.setattr(workers_module, "CHUNK", 1)
    monkeypatch.setattr(workers_module, "AHEAD", 1)


def test_results_come_in_the_order_of_the_items(small_chunks, tmp_path):
    with Workers(2) as workers:
        assert workers.map(marked, tmp_path, [(n,) for n in range(30)]) == [
            n * 10 for n in range(30)]


def test_no_more_chunks_are_sent_than_the_results_taken_and_a_few_ahead(small_chunks, tmp_path):
    with Workers(2) as workers:
        results = workers.imap(marked, tmp_path, [(n,) for n in range(40)])
        assert next(results) == 0
        time.sleep(0.5)  # time enough for the workers to make all 40, were all sent
        # two sent at first (AHEAD x 2 workers), and one more as the first result was taken
        assert len(list(tmp_path.glob("made-*"))) <= 2 + 1
        assert list(results) == [n * 10 for n in range(1, 40)]
    assert len(list(tmp_path.glob("made-*"))) == 40


def test_workers_collect_their_own_cycles_while_the_build_pauses_the_collector(small_chunks):
    was_on = gc.isenabled()
    gc.disable()  # as build() does before the workers are forked
    try:
        with Workers(2) as workers:
            assert set(workers.map(collector_running, None, [()] * 4)) == {True}
    finally:
        if was_on:
            gc.enable()


def process_id(plus=0):
    return os.getpid() + plus


def fails():
    raise ValueError("made badly")


def test_work_for_later_is_made_in_another_process_while_this_one_goes_on():
    with Workers(2) as workers:
        result = workers.later(process_id, 0)
        assert result() != os.getpid()
        assert result() == result()  # asked again, the same result


def test_without_workers_work_for_later_is_made_here_once_when_first_asked_for(tmp_path):
    result = Workers(1).later(marked, tmp_path, 7)
    assert not list(tmp_path.glob("made-*"))
    assert result() == 70 and result() == 70
    assert len(list(tmp_path.glob("made-*"))) == 1
    assert Workers(1).later(process_id, 1)() == os.getpid() + 1


@pytest.mark.parametrize("count", [1, 2])
def test_work_for_later_that_fails_fails_when_its_result_is_asked_for(count):
    with Workers(count) as workers:
        result = workers.later(fails)
        with pytest.raises(ValueError, match="made badly"):
            result()


def test_the_process_for_work_aside_is_forked_at_start_and_ends_once_its_results_are_taken():
    import multiprocessing
    before = len(multiprocessing.active_children())
    Workers(1).start()
    assert len(multiprocessing.active_children()) == before
    with Workers(2) as workers:
        workers.start()
        assert len(multiprocessing.active_children()) == before + 1
        first, second = workers.later(process_id, 1), workers.later(process_id, 2)
        assert first() + 1 == second()
        assert len(multiprocessing.active_children()) == before


def test_a_kept_process_aside_serves_build_after_build_and_is_forked_again_once_it_died():
    import multiprocessing
    import signal
    from concurrent.futures.process import BrokenProcessPool

    from generator.building.workers import KeptAside
    before = len(multiprocessing.active_children())
    with KeptAside() as kept:
        assert len(multiprocessing.active_children()) == before + 1  # forked when made
        pids = []
        for _ in range(2):  # two builds, each taking its results and ending
            with Workers(2, kept) as workers:
                workers.start()
                pids.append(workers.later(process_id)())
            assert len(multiprocessing.active_children()) == before + 1  # left running
        assert pids[0] == pids[1] != os.getpid()
        os.kill(pids[0], signal.SIGKILL)
        for tries in range(2):  # why: build() builds again once its aside is found dead
            try:
                with Workers(2, kept) as workers:
                    again = workers.later(process_id)()
                break
            except BrokenProcessPool:
                assert tries == 0
        assert again not in (pids[0], os.getpid())
    assert len(multiprocessing.active_children()) == before  # stopped by close()


@pytest.mark.parametrize("kept", [False, True], ids=["own", "kept"])
def test_letting_the_workers_go_keeps_the_work_begun_aside_that_has_not_begun(kept):
    from generator.building.workers import KeptAside
    with KeptAside() if kept else contextlib.nullcontext() as aside, \
            Workers(2, aside) as workers:
        workers.map(str, None, [(n,) for n in range(workers_module.PARALLEL_FROM)])
        # why: one process aside takes two at once (the one it makes, one queued): the third
        # waits in this process, not yet begun, when the workers are let go
        results = [workers.later(time.sleep, 0.3)] + [workers.later(process_id, n)
                                                      for n in (1, 2)]
        workers.let_pool_go()
        assert workers._pool is None
        results[0]()
        assert results[2]() == results[1]() + 1


def test_a_kept_process_aside_that_died_is_forked_again_once_though_two_results_say_so():
    """Its death seen by a later() (sent to one forked anew), then by a result sent to it before:
    the new one is kept, not stopped and forked a third time."""
    from concurrent.futures.process import BrokenProcessPool

    from generator.building.workers import KeptAside
    with KeptAside() as kept:
        with Workers(2, kept) as workers:
            workers.start()
            dead = workers.later(os.getpid)()
            dying = workers.later(os._exit, 1)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:  # why: reaped once its executor knows it broke
                try:
                    os.kill(dead, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.01)
            again = workers.later(os.getpid)
            with pytest.raises(BrokenProcessPool):
                dying()
            forked = again()
        assert forked not in (dead, os.getpid())
        with Workers(2, kept) as workers:
            assert workers.later(os.getpid)() == forked


def test_an_awaited_mapping_waits_for_its_work_at_the_first_look_only(tmp_path):
    from generator.building.workers import Awaited
    asked = []
    awaited = Awaited(lambda: asked.append("made") or {"a": 1})
    assert asked == []
    assert awaited["a"] == 1 and awaited.get("b", 2) == 2 and dict(awaited) == {"a": 1}
    assert len(awaited) == 1 and asked == ["made"]
    with Workers(2) as workers:
        assert dict(Awaited(workers.later(dict, [("a", 1)]))) == {"a": 1}
