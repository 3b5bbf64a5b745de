"""generator.building.cache: results of pure functions kept by what they are given, never wrong."""

import hashlib
import json
import os
import pickle
import random
import sqlite3
import subprocess
import sys
from importlib import metadata

import pytest
from markupsafe import Markup
from packaging.requirements import Requirement

import generator.building.cache as cache_module
import generator.building.workers as workers_module
from factories import REPO
from generator.building.cache import FILE, Cache, ResultsGone
from generator.building.workers import Workers

GOLDEN_CONTENT = REPO / "tests/golden/content"

CALLS: list = []
"""The arguments every make function below was called with in this process."""


def double(x):
    CALLS.append(("double", x))
    return 2 * x


def triple(x):
    CALLS.append(("triple", x))
    return 3 * x


def scaled(factor, x):
    CALLS.append(("scaled", factor, x))
    return factor * x


def boxed(x):
    """A mutable result, so that `is` tells the very object kept from a copy read back."""
    CALLS.append(("boxed", x))
    return [x]


def text_of(x):
    CALLS.append(("text_of", x))
    return text(x)


def text(x):
    return f"result {x} " * 20


@pytest.fixture(autouse=True)
def no_calls_yet():
    CALLS.clear()


def made(name="double"):
    return [call[1:] for call in CALLS if call[0] == name]


def twice(folder, make, items, **kwargs):
    """map in a first Cache, committed and closed, then in a second on the same folder."""
    with Cache(folder) as first:
        first.map(make, items, **kwargs)
        first.commit()
    CALLS.clear()
    with Cache(folder) as second:
        results = second.map(make, items, **kwargs)
        second.commit()
    return results


def rows(folder):
    with sqlite3.connect(folder / FILE) as db:
        return db.execute("SELECT count(*) FROM results").fetchone()[0]


# What map gives


def test_map_gives_each_result_in_the_order_of_the_items(tmp_path):
    with Cache(tmp_path / "cache") as cache:
        assert cache.map(double, [(3,), (1,), (2,)]) == [6, 2, 4]
        assert cache.map(scaled, [(1,), (5,)], shared=10) == [10, 50]
    assert made("scaled") == [(10, 1), (10, 5)]


def test_map_gives_kept_and_new_results_interleaved_in_order(tmp_path):
    with Cache(tmp_path / "cache") as cache:
        cache.map(double, [(2,), (4,)])
        CALLS.clear()
        assert cache.map(double, [(1,), (2,), (3,), (4,), (5,)]) == [2, 4, 6, 8, 10]
    assert made() == [(1,), (3,), (5,)]


def test_without_a_folder_nothing_is_kept_and_every_result_is_made(tmp_path):
    cache = Cache(None)
    assert cache.map(double, [(1,), (2,)]) == [2, 4]
    assert cache.map(double, [(1,), (2,)]) == [2, 4]
    cache.commit()
    assert made() == [(1,), (2,), (1,), (2,)]
    assert list(tmp_path.iterdir()) == []


def test_an_empty_list_of_items_gives_an_empty_list(tmp_path):
    with Cache(tmp_path / "cache") as cache:
        assert cache.map(double, []) == []
        cache.commit()


# What is found again


def test_a_result_is_made_once_and_found_again_by_the_next_cache(tmp_path):
    assert twice(tmp_path / "cache", double, [(1,), (2,), (3,)]) == [2, 4, 6]
    assert made() == []


def test_a_result_is_found_again_within_one_cache(tmp_path):
    with Cache(tmp_path / "cache") as cache:
        cache.map(double, [(1,)])
        assert cache.map(double, [(1,)]) == [2]
    assert made() == [(1,)]


def test_equal_arguments_find_the_result_made_from_others_equal_to_them(tmp_path):
    folder = tmp_path / "cache"
    with Cache(folder) as cache:
        cache.map(text_of, [((1, "a", ("b", 2.5)),)])
    CALLS.clear()
    with Cache(folder) as cache:
        again = cache.map(text_of, [((1, "a", ("b", 2.5)),)])  # a new but equal tuple
    assert again == [text((1, "a", ("b", 2.5)))]
    assert made("text_of") == []


def test_equal_arguments_find_the_same_result_whether_or_not_they_share_parts(tmp_path):
    folder = tmp_path / "cache"
    part = ["shared", 1]
    with Cache(folder) as cache:
        cache.map(text_of, [([part, part],)])
        cache.commit()
    CALLS.clear()
    with Cache(folder) as cache:
        assert cache.map(text_of, [([["shared", 1], ["shared", 1]],)]) == [text([part, part])]
    assert made("text_of") == []


SHAPES = [("a", "b"), (("a", "b"),), (("a",), "b"), ("a", ("b",)), ((), "a", "b"), ("a", (), "b"),
          (("a", "b", ()),), ((("a", "b"),),), (tuple("abcdefghi"),), (tuple("abcdefgh"),),
          ("a", {"b": 1}), (("a", {"b": 1}),), (("a", {"b": 2}),), ((1, 2.0, None, True, b"x"),),
          ({"a": "b"},), ({"a": ("b",)},), ({"a": {"b": "c"}},), ({"a": "b", "c": 1},),
          (Markup("a<"),), ("a<",), ({"a": Markup("b<")},), ({"a": "b<"},), ((Markup("b<"),),),
          ({"a": Markup("x" * 300)},), ({"a": "x" * 300},),
          (tuple("abcdefghij"),), (tuple("abcdefghi") + (Markup("j"),),), ((1, "a"),),
          ((True, "a"),), ((1.0, "a"),), (tuple((n, "x") for n in range(10)),),
          (tuple((n, Markup("x")) for n in range(10)),)]


def test_tuples_in_tuples_are_told_apart_by_their_shape_and_found_again_when_equal(tmp_path):
    """A small tuple within another is hashed in place, between bytes no value begins with."""
    folder = tmp_path / "cache"
    with Cache(folder) as cache:
        cache.map(text_of, [(shape,) for shape in SHAPES])
        cache.commit()
    assert len(made("text_of")) == len(SHAPES)
    CALLS.clear()
    with Cache(folder) as cache:
        copies = [copied(shape) for shape in SHAPES]
        assert cache.map(text_of, [(copy,) for copy in copies]) == [text(s) for s in SHAPES]
    assert made("text_of") == []
    keys = Cache(None).keys(text_of, None, [(shape,) for shape in SHAPES])
    assert len(set(keys)) == len(SHAPES)


def test_tuples_of_plain_values_have_one_key_whether_or_not_their_strings_are_interned():
    """Marshalled whole (version 2 writes an interned string as any other)."""
    def rows(slug):
        return tuple((slug, ("llm", "rl"), "ICLR 2025", 2025 + n) for n in range(20))

    interned, built = sys.intern("a-paper-slug"), "".join(["a-paper-", "slug"])
    assert built is not interned
    keys = Cache(None).keys(text_of, None, [(rows(interned),), (rows(built),), (rows("other"),)])
    assert keys[0] == keys[1] != keys[2]


def copied(value):
    """An equal value whose tuples and dicts are new objects."""
    if isinstance(value, tuple):
        return tuple(copied(item) for item in value)
    if isinstance(value, dict):
        return {key: copied(item) for key, item in value.items()}
    return value


@pytest.mark.parametrize("kind", [str, bytes])
@pytest.mark.parametrize("length", [10, 300, 100_000])
def test_strings_short_or_long_find_the_result_made_from_equal_ones_alone_or_in_tuples(
        tmp_path, length, kind):
    def string(*parts):  # why: each call a new object, equal to the last one made of these parts
        joined = "".join(parts)
        return joined if kind is str else joined.encode()

    folder = tmp_path / "cache"
    with Cache(folder) as cache:  # why: a long string is hashed once per build, by its id
        cache.map(text_of, [(string("x" * length),), ((string("x" * length), "y"),)])
        cache.commit()
    CALLS.clear()
    with Cache(folder) as cache:
        again = cache.map(text_of, [(string(*["x"] * length),),
                                    ((string(*["x"] * length), "y"),)])
        changed = cache.map(text_of, [(string("x" * (length - 1), "z"),),
                                      ((string("x" * length), "z"),)])
    assert again == [text(string("x" * length)), text((string("x" * length), "y"))]
    assert made("text_of") == [(string("x" * (length - 1), "z"),), ((string("x" * length), "z"),)]
    assert changed[1] == text((string("x" * length), "z"))


def test_a_value_changed_between_two_builds_of_one_cache_is_made_again(tmp_path):
    value = ["first"]
    with Cache(tmp_path / "cache", in_memory=True) as cache:
        assert cache.map(text_of, [(value,)]) == [text(["first"])]
        cache.commit()
        value.append("second")
        assert cache.map(text_of, [(value,)]) == [text(["first", "second"])]
        cache.commit()
    assert made("text_of") == [(["first", "second"],), (["first", "second"],)]


def test_a_changed_argument_is_made_again(tmp_path):
    folder = tmp_path / "cache"
    twice(folder, double, [(1,), (2,)])
    with Cache(folder) as cache:
        assert cache.map(double, [(1,), (7,)]) == [2, 14]
    assert made() == [(7,)]


def test_an_argument_of_another_type_but_equal_value_is_made_again(tmp_path):
    folder = tmp_path / "cache"
    with Cache(folder) as cache:
        cache.map(double, [(1,)])
        CALLS.clear()
        results = cache.map(double, [(1.0,)])
    assert results == [2.0] and type(results[0]) is float
    assert made() == [(1.0,)]


def test_a_changed_shared_value_is_made_again(tmp_path):
    folder = tmp_path / "cache"
    twice(folder, scaled, [(1,), (2,)], shared=10)
    assert made("scaled") == []
    with Cache(folder) as cache:
        assert cache.map(scaled, [(1,), (2,)], shared=100) == [100, 200]
    assert made("scaled") == [(100, 1), (100, 2)]


def test_a_shared_value_is_not_confused_with_the_first_argument(tmp_path):
    with Cache(tmp_path / "cache") as cache:
        assert cache.map(scaled, [(2, 3)]) == [6]
        assert cache.map(scaled, [(3,)], shared=2) == [6]
        assert cache.map(scaled, [(2,)], shared=3) == [6]
    assert made("scaled") == [(2, 3), (2, 3), (3, 2)]


def test_another_function_given_the_same_arguments_is_not_confused_with_it(tmp_path):
    with Cache(tmp_path / "cache") as cache:
        assert cache.map(double, [(5,)]) == [10]
        assert cache.map(triple, [(5,)]) == [15]
        assert cache.map(double, [(5,)]) == [10]
    assert made("triple") == [(5,)] and made("double") == [(5,)]


def test_a_result_that_keep_refuses_is_made_again_next_time(tmp_path):
    folder = tmp_path / "cache"
    keep_even = lambda result: result % 4 == 0  # noqa: E731
    twice(folder, double, [(1,), (2,)], keep=keep_even)
    assert made() == [(1,)]
    with Cache(folder) as cache:
        assert cache.map(double, [(1,), (2,)], keep=keep_even) == [2, 4]
    assert made() == [(1,), (1,)]


def test_another_code_version_makes_everything_again(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    twice(folder, double, [(1,), (2,)])
    assert made() == []
    monkeypatch.setattr(cache_module, "code_version", lambda: b"another version of the code")
    with Cache(folder) as cache:
        assert cache.map(double, [(1,), (2,)]) == [2, 4]
    assert made() == [(1,), (2,)]


def test_the_code_version_follows_the_generators_sources_and_is_stable():
    assert cache_module.code_version() == cache_module.code_version()
    assert len(cache_module.code_version()) == 32


def test_results_of_workers_are_those_made_here_in_the_same_order(tmp_path, monkeypatch):
    monkeypatch.setattr(workers_module, "PARALLEL_FROM", 2)
    items = [(n,) for n in range(40)]
    here = Cache(None).map(scaled, items, shared=3, workers=Workers(1))
    assert Cache(None).map(scaled, items, shared=3, workers=Workers(2)) == here
    with Cache(tmp_path / "cache") as cache:
        assert cache.map(scaled, items, shared=3, workers=Workers(2)) == here
        assert cache.map(scaled, items[::-1], shared=3, workers=Workers(2)) == here[::-1]
    with Cache(tmp_path / "cache") as cache:  # kept by the first, found again
        CALLS.clear()
        assert cache.map(scaled, items + [(99,)], shared=3, workers=Workers(2)) == here + [297]
    assert made("scaled") == [(3, 99)]


def test_results_made_in_workers_are_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(workers_module, "PARALLEL_FROM", 2)
    items = [(n,) for n in range(10)]
    with Cache(tmp_path / "cache") as cache:
        cache.map(double, items, workers=Workers(2))
    CALLS.clear()
    with Cache(tmp_path / "cache") as cache:
        assert cache.map(double, items, workers=Workers(2)) == [2 * n for n in range(10)]
    assert made() == []


# Read where they are used: Cache.map_kept


def results_of(kept):
    """What a process the KeptResults are sent to reads of them."""
    return kept.results()


def test_map_kept_carries_only_what_it_made_and_the_process_aside_reads_the_rest(tmp_path):
    with Cache(tmp_path / "cache") as cache:
        cache.map(double, [(1,), (2,)])
        CALLS.clear()
        kept = cache.map_kept(double, [(2,), (3,), (1,)])
        assert made() == [(3,)]
        assert list(kept.made.values()) == [6] and kept.file is not None
        workers = Workers(2)
        try:
            assert workers.later(results_of, kept)() == [4, 6, 2]  # in another process
        finally:
            workers.close()
        assert pickle.loads(pickle.dumps(kept)).results() == [4, 6, 2]


@pytest.mark.parametrize("folder", [True, False])
def test_map_kept_in_memory_carries_what_memory_did_not_hold_and_the_fork_reads_the_rest(
        tmp_path, folder):
    with Cache(tmp_path / "cache" if folder else None, in_memory=True) as cache:
        cache.map(double, [(1,)])
        cache.commit()
        workers = Workers(2)
        try:
            workers.start()  # why: the process aside is forked with what the memory holds now
            kept = cache.map_kept(double, [(1,), (2,)], workers=workers)
            assert list(kept.made.values()) == [4]
            assert workers.later(results_of, kept)() == [2, 4]  # in the process aside
        finally:
            workers.close()
        assert kept.results() == [2, 4]  # here
        with pytest.raises(ResultsGone):  # in a process not forked from this one
            subprocess_results(kept)
        cache.commit()
        assert cache.map(double, [(1,), (2,)]) == [2, 4]  # what map_kept used is kept


def carried_keys(token):
    """The keys of the results the process it is made in was carried for the memory `token`."""
    return set(cache_module._CARRIED.get(token, {}))


def test_map_kept_in_memory_carries_a_kept_process_aside_only_what_it_holds_not(tmp_path):
    from generator.building.workers import KeptAside
    # why: both forked before the memory holds anything, as the preview server forks its own
    with KeptAside() as kept, KeptAside() as other, Cache(None, in_memory=True) as cache:
        with Workers(2, kept) as workers:
            first = cache.map_kept(double, [(1,), (2,)], workers=workers, holds=kept.holds)
            assert list(first.made.values()) == [2, 4]  # all made now: all carried
            assert workers.later(results_of, first)() == [2, 4]
        kept.holds = frozenset(first.keys)  # as the build that took what it made of them
        cache.commit()
        with Workers(2, kept) as workers:
            second = cache.map_kept(double, [(2,), (3,)], workers=workers, holds=kept.holds)
            assert list(second.made.values()) == [6]  # (2,) is carried no more
            assert workers.later(results_of, second)() == [4, 6]
            # what it holds: the last results it gave, not every one it was ever carried
            assert workers.later(carried_keys, second.file)() == set(second.keys)
        cache.commit()
        with Workers(2, other) as workers:  # another, forked as early, holds none of them
            with pytest.raises(ResultsGone):  # taken to hold what it does not: gone, not wrong
                workers.later(results_of, cache.map_kept(double, [(2,), (3,)],
                                                         workers=workers, holds=None))()
            third = cache.map_kept(double, [(2,), (3,)], workers=workers, holds=other.holds)
            assert list(third.made.values()) == [4, 6]
            assert workers.later(results_of, third)() == [4, 6]


def subprocess_results(kept):
    """kept.results() as a process started anew reads them (none of this one's memory)."""
    code = ("import pickle, sys; from generator.building.cache import ResultsGone\n"
            "try:\n    pickle.loads(sys.stdin.buffer.read()).results()\n"
            "except ResultsGone:\n    raise SystemExit(3)\n")
    done = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(kept),
                          cwd=REPO)
    if done.returncode == 3:
        raise ResultsGone("gone")
    return done.returncode


def test_map_kept_made_here_again_finds_what_it_kept(tmp_path):
    with Cache(tmp_path / "cache") as cache:
        cache.map_kept(double, [(1,), (2,)])
        cache.commit()
    CALLS.clear()
    with Cache(tmp_path / "cache") as cache:
        kept = cache.map_kept(double, [(1,), (2,)])
        assert kept.made == {} and kept.results() == [2, 4] and made() == []
        cache.commit()
    with Cache(tmp_path / "cache") as cache:  # what map_kept used is not pruned as unused
        assert cache.map(double, [(1,), (2,)]) == [2, 4] and made() == []


@pytest.mark.parametrize("where", ["not apart", "no folder"])
def test_map_kept_carries_every_result_where_none_is_read_aside(tmp_path, where):
    cache = Cache(None if where == "no folder" else tmp_path / "cache")
    with cache:
        cache.map(double, [(1,)])
        kept = cache.map_kept(double, [(1,), (2,)], apart=where != "not apart")
        assert kept.file is None and list(kept.made.values()) == [2, 4]
        assert kept.results() == [2, 4]


def test_kept_results_are_hashed_by_their_keys_wherever_they_are_read(tmp_path):
    with Cache(tmp_path / "cache") as cache:
        aside = cache.map_kept(double, [(1,), (2,)])
        here = cache.map_kept(double, [(1,), (2,)], apart=False)
        assert aside.file is not None and here.file is None
        assert cache.digest(aside) == cache.digest(here)
        other = cache.map_kept(double, [(1,), (3,)])
        assert cache.digest(other) != cache.digest(aside)
        turned = aside.in_order([1, 0])
        assert turned.results() == [4, 2] and cache.digest(turned) != cache.digest(aside)
        assert cache.digest(turned.in_order([1, 0])) == cache.digest(aside)


@pytest.mark.parametrize("damage", ["DELETE FROM results",
                                    "UPDATE results SET digest = zeroblob(32)"])
def test_kept_results_gone_or_garbled_in_the_file_raise_results_gone(tmp_path, damage):
    with Cache(tmp_path / "cache") as cache:
        cache.map(double, [(1,), (2,)])
        kept = cache.map_kept(double, [(1,), (2,), (5,)])
    with sqlite3.connect(tmp_path / "cache" / FILE) as db:
        db.execute(damage + " WHERE key = ?", (kept.keys[1],))
    with pytest.raises(cache_module.ResultsGone, match="1 of the results kept in .* were gone"):
        kept.results()
    assert kept.in_order([0, 2]).results() == [2, 10]


# Kept in memory, for the preview server


def test_a_cache_in_memory_gives_the_very_objects_it_made_without_reading_the_file(tmp_path):
    folder = tmp_path / "cache"
    cache = Cache(folder, in_memory=True)
    first = cache.map(boxed, [(1,), (2,)])
    cache.commit()
    (folder / FILE).unlink()
    second = cache.map(boxed, [(1,), (2,)])
    assert all(a is b for a, b in zip(first, second))
    assert made("boxed") == [(1,), (2,)]
    cache.close()


def test_a_cache_in_memory_does_not_read_the_file_for_what_it_holds(tmp_path, monkeypatch):
    cache = Cache(tmp_path / "cache", in_memory=True)
    cache.map(boxed, [(1,), (2,)])
    cache.commit()

    def no_read(*args):
        raise AssertionError("the file was read")

    monkeypatch.setattr(Cache, "_read", no_read)
    assert cache.map(boxed, [(1,), (2,)]) == [[1], [2]]
    cache.close()


def test_a_cache_in_memory_without_a_folder_keeps_results_between_builds():
    cache = Cache(None, in_memory=True)
    first = cache.map(boxed, [(1,)])
    cache.commit()
    assert cache.map(boxed, [(1,)])[0] is first[0]
    assert made("boxed") == [(1,)]


def test_commit_forgets_in_memory_what_the_last_build_did_not_use():
    cache = Cache(None, in_memory=True)
    cache.map(boxed, [(1,), (2,)])
    cache.commit()
    cache.map(boxed, [(2,)])
    cache.commit()  # (1,) not used by this build
    CALLS.clear()
    cache.map(boxed, [(1,), (2,)])
    assert made("boxed") == [(1,)]


def test_commit_forgets_in_memory_but_the_file_still_has_it(tmp_path):
    cache = Cache(tmp_path / "cache", in_memory=True)
    first = cache.map(boxed, [(1,), (2,)])
    cache.commit()
    cache.map(boxed, [(2,)])
    cache.commit()
    again = cache.map(boxed, [(1,), (2,)])
    assert again == [[1], [2]]
    assert again[0] is not first[0]  # read back from the file, not held in memory
    assert again[1] is first[1]
    assert made("boxed") == [(1,), (2,)]
    cache.close()


# Plain values remembered in files of their own

PLAIN = {b"key": (b"card", "entry", 3), b"other": ()}


def test_a_plain_value_remembered_is_recalled_by_the_next_build(tmp_path):
    with Cache(tmp_path / "cache") as cache:
        assert cache.recall_plain("parts") is None
        cache.remember_plain("parts", PLAIN)
        cache.commit()
    with Cache(tmp_path / "cache") as cache:
        assert cache.recall_plain("parts") == PLAIN
        assert cache.recall_plain("other parts") is None
        many = {n: (str(n), b"card") for n in range(2 * cache_module._PLAIN_CHUNK + 1)}
        cache.remember_plain("many parts", many)  # written in three pieces
    with Cache(tmp_path / "cache") as cache:
        assert cache.recall_plain("many parts") == many


def test_a_plain_value_written_again_keeps_the_pieces_whose_keys_it_read(tmp_path, monkeypatch):
    size = cache_module._PLAIN_CHUNK
    many = {n: (str(n), b"card") for n in range(3 * size)}
    with Cache(tmp_path / "cache") as cache:
        cache.remember_plain("parts", many)
    marshalled = []
    dumps = cache_module.marshal.dumps
    monkeypatch.setattr(cache_module.marshal, "dumps",
                        lambda value, *rest: marshalled.append(len(value)) or dumps(value, *rest))
    # why: a key's value never changes; an edited paper's parts have a new key, in its place
    edited = {(key if key != size + 1 else "new"): value for key, value in many.items()}
    with Cache(tmp_path / "cache") as cache:
        assert cache.recall_plain("parts") == many
        cache.remember_plain("parts", edited)
    assert marshalled == [size]  # the second piece alone
    monkeypatch.undo()
    with Cache(tmp_path / "cache") as cache:
        assert cache.recall_plain("parts") == edited


def plain_file(tmp_path):
    (found,) = (tmp_path / "cache" / cache_module.PLAIN).iterdir()
    return found


def test_a_plain_value_garbled_or_of_other_code_or_another_name_is_not_recalled(tmp_path,
                                                                            monkeypatch):
    with Cache(tmp_path / "cache") as cache:
        cache.remember_plain("parts", PLAIN)
    kept = plain_file(tmp_path)
    data = bytearray(kept.read_bytes())
    data[-2] ^= 1
    kept.write_bytes(bytes(data))
    assert Cache(tmp_path / "cache").recall_plain("parts") is None
    with Cache(tmp_path / "cache") as cache:
        cache.remember_plain("parts", PLAIN)
    monkeypatch.setattr(cache_module, "code_version", lambda: b"other code")
    assert Cache(tmp_path / "cache").recall_plain("parts") is None
    monkeypatch.undo()
    kept.rename(kept.with_name(cache_module._plain_file("other parts")))
    assert Cache(tmp_path / "cache").recall_plain("other parts") is None


def test_a_plain_value_that_cannot_be_written_is_only_not_kept(tmp_path):
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / cache_module.PLAIN).write_text("a file where its folder would be")
    with Cache(tmp_path / "cache") as cache:
        cache.remember_plain("parts", PLAIN)
        assert cache.recall_plain("parts") is None
        assert cache.map(double, [(2,)]) == [4]


def test_a_cache_in_memory_recalls_the_very_plain_value_it_was_given(tmp_path):
    cache = Cache(tmp_path / "cache", in_memory=True)
    cache.remember_plain("parts", PLAIN)
    cache.commit()
    assert cache.recall_plain("parts") is PLAIN
    cache.write_remembered()
    (tmp_path / "cache" / cache_module.PLAIN).rename(tmp_path / "gone")
    assert cache.recall_plain("parts") is PLAIN
    assert Cache(None, in_memory=True).recall_plain("parts") is None
    cache.close()


def test_a_cache_in_memory_writes_its_plain_values_only_when_told_or_closed(tmp_path):
    cache = Cache(tmp_path / "cache", in_memory=True)
    cache.remember_plain("parts", PLAIN)
    cache.commit()
    assert not (tmp_path / "cache" / cache_module.PLAIN).exists()
    cache.write_remembered()
    assert Cache(tmp_path / "cache").recall_plain("parts") == PLAIN
    cache.remember_plain("parts", {b"key": ("edited",)})
    cache.commit()
    assert Cache(tmp_path / "cache").recall_plain("parts") == PLAIN
    cache.close()
    assert Cache(tmp_path / "cache").recall_plain("parts") == {b"key": ("edited",)}


def test_commit_forgets_the_plain_values_of_other_builds_once_they_are_most(tmp_path):
    with Cache(tmp_path / "cache") as cache:
        for names in (["a rows", "a parts"], ["b rows", "b parts"], ["c rows"]):
            for name in names:
                cache.remember_plain(name, PLAIN)
            cache.commit()
            if names[0] == "b rows":  # two files of another build beside its own two: kept
                assert cache.recall_plain("a parts") == PLAIN
        assert [cache.recall_plain(name) for name in ("a rows", "b parts", "c rows")] == \
            [None, None, PLAIN]


def test_commit_removes_what_a_build_stopped_while_writing_a_plain_value_left_a_day_on(tmp_path):
    folder = tmp_path / "cache" / cache_module.PLAIN
    folder.mkdir(parents=True)
    (folder / "tmpold").write_bytes(b"half")
    os.utime(folder / "tmpold", (0, 0))
    (folder / "tmpnew").write_bytes(b"being written")
    with Cache(tmp_path / "cache") as cache:
        cache.remember_plain("parts", PLAIN)
        cache.commit()
    assert sorted(path.name for path in folder.iterdir()) == \
        sorted(["tmpnew", cache_module._plain_file("parts")])


# Pruning the file


def test_commit_keeps_unused_results_while_they_are_few(tmp_path):
    folder = tmp_path / "cache"
    with Cache(folder) as cache:
        cache.map(double, [(n,) for n in range(500)])
        cache.commit()
        cache.map(double, [(n,) for n in range(1000, 1010)])
        cache.commit()
    assert rows(folder) == 510


def test_commit_forgets_unused_results_once_they_are_most_of_the_file(tmp_path):
    folder = tmp_path / "cache"
    with Cache(folder) as cache:
        cache.map(double, [(n,) for n in range(1100)])
        cache.commit()
        assert rows(folder) == 1100
        cache.map(double, [(n,) for n in range(2000, 2010)])
        cache.map(triple, [(0,)])
        cache.commit()  # 1111 rows > 2 * 11 used + 1000
    assert rows(folder) == 11
    CALLS.clear()
    with Cache(folder) as cache:
        assert cache.map(double, [(2000,), (0,)]) == [4000, 0]
    assert made() == [(0,)]


def test_commit_counts_results_found_as_used(tmp_path):
    folder = tmp_path / "cache"
    with Cache(folder) as cache:
        cache.map(double, [(n,) for n in range(1100)])
        cache.commit()
    with Cache(folder) as cache:
        cache.map(double, [(n,) for n in range(1050)])  # all found, none made
        cache.map(double, [(n,) for n in range(5000, 5010)])
        cache.commit()
    assert rows(folder) == 1110  # 1110 <= 2 * 1060 + 1000: nothing forgotten
    with Cache(folder) as cache:
        cache.map(double, [(n,) for n in range(20)])
        cache.commit()  # 1110 > 2 * 20 + 1000
    assert rows(folder) == 20


# Garbled storage never gives a wrong result


def fill(folder, count=50):
    """A cache file holding text_of's results for 0..count-1."""
    with Cache(folder) as cache:
        cache.map(text_of, [(n,) for n in range(count)])
        cache.commit()
    CALLS.clear()


def correct_after(folder, count=50):
    """map on a new Cache gives every right result, and warns at most in words."""
    warnings = []
    with Cache(folder, warn=warnings.append) as cache:
        results = cache.map(text_of, [(n,) for n in range(count)])
        cache.commit()
    assert results == [text(n) for n in range(count)]
    assert all(isinstance(line, str) and "warning" in line for line in warnings)
    return warnings


def test_a_value_with_one_byte_changed_is_made_again(tmp_path):
    folder = tmp_path / "cache"
    fill(folder)
    with sqlite3.connect(folder / FILE) as db:
        keys_values = db.execute("SELECT key, value FROM results").fetchall()
        for key, value in keys_values[:10]:
            garbled = bytearray(value)
            garbled[len(garbled) // 2] ^= 0x01
            db.execute("UPDATE results SET value = ? WHERE key = ?", (bytes(garbled), key))
    correct_after(folder)
    assert len(made("text_of")) == 10
    CALLS.clear()
    correct_after(folder)  # made again and kept right this time
    assert made("text_of") == []


def test_a_value_replaced_by_that_of_another_result_is_made_again(tmp_path):
    folder = tmp_path / "cache"
    fill(folder)
    with sqlite3.connect(folder / FILE) as db:
        (value,) = db.execute("SELECT value FROM results LIMIT 1").fetchone()
        db.execute("UPDATE results SET value = ?", (value,))
    correct_after(folder)
    assert len(made("text_of")) == 49


def test_bytes_that_hash_right_but_do_not_unpickle_are_made_again(tmp_path):
    folder = tmp_path / "cache"
    fill(folder)
    junk = b"\x80\x05not a pickle"
    with sqlite3.connect(folder / FILE) as db:
        db.execute("UPDATE results SET value = ?, digest = ?",
                   (junk, hashlib.sha256(junk).digest()))
    correct_after(folder)
    assert len(made("text_of")) == 50


def test_values_of_another_type_in_the_file_are_made_again(tmp_path):
    folder = tmp_path / "cache"
    fill(folder)
    with sqlite3.connect(folder / FILE) as db:
        db.execute("UPDATE results SET value = 'text', digest = 42")
    correct_after(folder)
    assert len(made("text_of")) == 50


def test_a_table_of_another_shape_is_started_afresh(tmp_path):
    folder = tmp_path / "cache"
    fill(folder)
    with sqlite3.connect(folder / FILE) as db:
        db.execute("DROP TABLE results")
        db.execute("CREATE TABLE results (key BLOB PRIMARY KEY, other TEXT)")
    correct_after(folder)
    CALLS.clear()
    correct_after(folder)
    assert made("text_of") == []


def test_a_file_of_garbage_gives_right_results_and_is_started_afresh(tmp_path):
    folder = tmp_path / "cache"
    fill(folder)
    (folder / FILE).write_bytes(random.Random(1).randbytes(20_000))
    warnings = correct_after(folder)
    assert len(warnings) == 1 and "started afresh" in warnings[0]
    CALLS.clear()
    assert correct_after(folder) == []  # the fresh file kept what the build above made
    assert made("text_of") == []


def test_a_truncated_file_gives_right_results(tmp_path):
    folder = tmp_path / "cache"
    fill(folder, 400)
    size = (folder / FILE).stat().st_size
    for keep in (size // 2, size // 3, 100, 0):
        with open(folder / FILE, "r+b") as file:
            file.truncate(keep)
        correct_after(folder, 400)


def test_a_folder_where_the_file_should_be_makes_everything_anew(tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / FILE).mkdir()
    warnings = correct_after(folder)
    assert len(made("text_of")) == 50 and len(warnings) == 1


def test_a_file_where_the_cache_folder_should_be_makes_everything_anew(tmp_path):
    folder = tmp_path / "cache"
    folder.write_text("not a folder")
    warnings = correct_after(folder)
    assert len(made("text_of")) == 50 and len(warnings) == 1
    assert folder.read_text() == "not a folder"


def test_random_one_byte_changes_to_the_file_never_give_a_wrong_result(tmp_path):
    folder = tmp_path / "cache"
    fill(folder, 300)
    pristine = (folder / FILE).read_bytes()
    rng = random.Random(20250424)
    for _ in range(60):
        garbled = bytearray(pristine)
        at = rng.randrange(len(garbled))
        garbled[at] ^= 1 << rng.randrange(8)
        (folder / FILE).write_bytes(bytes(garbled))
        correct_after(folder, 300)


def test_random_bytes_overwritten_in_the_file_never_give_a_wrong_result(tmp_path):
    folder = tmp_path / "cache"
    fill(folder, 300)
    pristine = (folder / FILE).read_bytes()
    rng = random.Random(7)
    for _ in range(30):
        garbled = bytearray(pristine)
        at = rng.randrange(len(garbled) - 64)
        garbled[at:at + 64] = rng.randbytes(64)
        (folder / FILE).write_bytes(bytes(garbled))
        correct_after(folder, 300)


def test_a_file_damaged_while_a_cache_has_it_open_gives_right_results(tmp_path):
    folder = tmp_path / "cache"
    fill(folder, 300)
    warnings = []
    with Cache(folder, warn=warnings.append) as cache:
        cache.map(text_of, [(0,)])  # opens the file
        with open(folder / FILE, "r+b") as file:
            file.seek(0)
            file.write(b"garbage" * 200)
        results = cache.map(text_of, [(n,) for n in range(300)])
        cache.commit()
    assert results == [text(n) for n in range(300)]


# A cache that cannot be written


def read_only_connect(monkeypatch):
    """sqlite3.connect as it behaves on a file and folder we may read but not write."""
    connect = sqlite3.connect

    def connect_read_only(path, *args, **kwargs):
        return connect(f"file:{path}?mode=ro", *args, uri=True, **kwargs)

    monkeypatch.setattr(cache_module.sqlite3, "connect", connect_read_only)


def test_a_read_only_cache_gives_what_it_holds_and_makes_the_rest(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    fill(folder, 10)
    before = (folder / FILE).read_bytes()
    read_only_connect(monkeypatch)
    warnings = []
    with Cache(folder, warn=warnings.append) as cache:
        assert cache.map(text_of, [(n,) for n in range(12)]) == [text(n) for n in range(12)]
        assert cache.map(text_of, [(20,)]) == [text(20)]
        cache.commit()
    assert made("text_of") == [(10,), (11,), (20,)]
    assert len(warnings) == 1 and "read-only" in warnings[0]
    monkeypatch.undo()
    assert (folder / FILE).read_bytes() == before


def test_a_read_only_cache_is_not_pruned_and_does_not_fail(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    with Cache(folder) as cache:
        cache.map(double, [(n,) for n in range(1100)])
        cache.commit()
    read_only_connect(monkeypatch)
    with Cache(folder) as cache:
        assert cache.map(double, [(5000,)]) == [10000]
        cache.commit()
    monkeypatch.undo()
    assert rows(folder) == 1100


def test_a_read_only_place_without_a_cache_file_makes_everything(tmp_path, monkeypatch):
    read_only_connect(monkeypatch)
    warnings = []
    with Cache(tmp_path / "cache", warn=warnings.append) as cache:
        assert cache.map(double, [(1,), (2,)]) == [2, 4]
        assert cache.map(double, [(1,), (2,)]) == [2, 4]
        cache.commit()
    assert made() == [(1,), (2,), (1,), (2,)]
    assert len(warnings) == 1


def test_a_damaged_read_only_cache_gives_right_results(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    fill(folder)
    with sqlite3.connect(folder / FILE) as db:
        db.execute("UPDATE results SET value = x'00'")
    read_only_connect(monkeypatch)
    correct_after(folder)
    assert len(made("text_of")) == 50


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through any file mode")
def test_a_cache_folder_without_write_permission_gives_right_results(tmp_path):
    folder = tmp_path / "cache"
    fill(folder, 10)
    (folder / FILE).chmod(0o444)
    folder.chmod(0o555)
    try:
        with Cache(folder) as cache:
            assert cache.map(text_of, [(n,) for n in range(12)]) == [text(n) for n in range(12)]
            cache.commit()
    finally:
        folder.chmod(0o755)


def test_the_code_version_follows_the_python_version(monkeypatch):
    before = cache_module.code_version()
    monkeypatch.setattr(cache_module.sys, "version", "9.99.0 (another Python)")
    assert cache_module.code_version() != before


def test_a_new_cache_file_has_pages_that_hold_most_results_whole(tmp_path):
    fill(tmp_path / "cache")
    with sqlite3.connect(tmp_path / "cache" / FILE) as db:
        assert db.execute("PRAGMA page_size").fetchone() == (cache_module.PAGE_BYTES,)


def test_a_cache_file_of_another_page_size_is_used_as_it_is(tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    with sqlite3.connect(folder / FILE) as db:
        db.execute("PRAGMA page_size = 4096")
        db.execute("CREATE TABLE results (key BLOB PRIMARY KEY, digest BLOB NOT NULL, "
                   "value BLOB NOT NULL) WITHOUT ROWID")
    assert twice(folder, double, [(1,), (2,)]) == [2, 4]
    assert made() == []  # kept by the first cache, found by the second
    with sqlite3.connect(folder / FILE) as db:
        assert db.execute("PRAGMA page_size").fetchone() == (4096,)


BUILD_AND_LIST_MODULES = """
import json, pathlib, sys
started = set(sys.modules)
from generator.building.pipeline import BuildOptions, build
build(BuildOptions(content=pathlib.Path(sys.argv[1]), out=pathlib.Path(sys.argv[2])))
print(json.dumps(sorted({name.split(".")[0] for name in set(sys.modules) - started})))
"""


def test_the_key_names_every_library_a_build_imports_and_what_each_needs(tmp_path):
    done = subprocess.run([sys.executable, "-c", BUILD_AND_LIST_MODULES, str(GOLDEN_CONTENT),
                           str(tmp_path / "site")], cwd=REPO, capture_output=True, text=True,
                          check=True)
    modules = set(json.loads(done.stdout.splitlines()[-1])) - set(sys.stdlib_module_names)
    providers = metadata.packages_distributions()
    needed = {dist for module in modules for dist in providers.get(module, ())}
    pending = list(needed)
    while pending:  # why: a library's own requirements shape its output too
        for text in metadata.requires(pending.pop()) or ():
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                name = metadata.distribution(requirement.name).metadata["Name"]
                if name not in needed:
                    needed.add(name)
                    pending.append(name)
    assert {"Jinja2", "babel", "lunr"} <= needed, "the build's imports were not seen"
    assert sorted(n.lower() for n in needed) == sorted(n.lower() for n in cache_module.LIBRARIES)


def test_a_result_whose_record_field_is_none_lends_its_key_to_no_other_none(tmp_path):
    """A checked paper that failed has no Paper: its None must not stand for every None."""
    from generator.building.cache import _digest, _stand_for
    from generator.content.papers import Checked
    seen = {}
    _stand_for(Checked(None, (), 1), b"k" * 32, seen)
    assert id(None) not in seen
    assert _digest(None, {}) == _digest(None, seen)


class RecordingDb:
    """A cache's SQLite connection that records the keys of the rows written to it."""

    def __init__(self, db):
        self.db, self.written = db, []

    def executemany(self, sql, rows):
        rows = list(rows)
        self.written.append([row[0] for row in rows])
        return self.db.executemany(sql, rows)

    def __getattr__(self, name):
        return getattr(self.db, name)

    def __enter__(self):
        return self.db.__enter__()

    def __exit__(self, *exc):
        return self.db.__exit__(*exc)


def test_results_are_written_in_the_order_of_their_keys(tmp_path):
    """The table's own order: rows placed at random split its pages all over the file (a cold
    10,000-paper build spent ~1.2 s writing its results, against ~0.4 s in key order)."""
    with Cache(tmp_path / "cache") as cache:
        cache._open()
        cache._db = recording = RecordingDb(cache._db)
        assert cache.map(double, [(n,) for n in range(50)]) == [2 * n for n in range(50)]
    written, = recording.written
    assert len(written) == 50 and written == sorted(written)
