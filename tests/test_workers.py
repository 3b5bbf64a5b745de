"""building/workers.py: work made in forked processes comes back in order, a few chunks ahead."""

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


def made_where(value):
    return value, os.getpid()


def refused(why):
    raise ValueError(why)


def waits_forever(folder):
    (folder / "started").touch()
    time.sleep(60)


def test_work_made_aside_is_made_in_a_process_of_its_own_and_given_back(small_chunks):
    with Workers(2) as workers:
        value, pid = workers.aside(made_where, {"paper": ["a", "b"]}, items=10)()
    assert value == {"paper": ["a", "b"]}
    assert pid != os.getpid()


def test_work_too_small_or_with_one_worker_is_made_here_and_now():
    for count, items in ((1, 10_000), (2, workers_module.PARALLEL_FROM - 1)):
        with Workers(count) as workers:
            assert workers.aside(made_where, "x", items=items)() == ("x", os.getpid())


def test_what_the_work_aside_raised_is_raised_where_its_result_is_asked_for(small_chunks):
    with Workers(2) as workers:
        result = workers.aside(refused, "no abstract", items=10)
        with pytest.raises(ValueError, match="no abstract"):
            result()


def test_closing_stops_work_aside_that_nothing_waited_for(small_chunks, tmp_path):
    workers = Workers(2)
    workers.aside(waits_forever, tmp_path, items=10)
    deadline = time.monotonic() + 10
    while not (tmp_path / "started").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    process = workers._aside[0]
    workers.close()
    assert not process.is_alive()
