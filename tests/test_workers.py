"""building/workers.py: work made in forked processes comes back in order, a few chunks ahead."""

import gc
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
