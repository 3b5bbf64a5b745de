import datetime as dt
import hashlib

from markupsafe import Markup

import generator.memo as memo_module
from generator.memo import (KeptValues, hashed_source_key, read_kept, source_key, value_key,
                            write_aside)


def test_value_key_depends_on_values_not_on_which_objects_hold_them():
    shared = "x" * 100
    assert value_key({"a": shared, "b": shared}) == value_key({"a": "x" * 100, "b": "x" * 100})


def test_value_key_tells_markup_from_text_and_each_type_from_the_others():
    keys = {value_key(v) for v in ("<b>", Markup("<b>"), 1, "1", 1.0, (1,), [1], dt.date(2025, 1, 1))}
    assert len(keys) == 8


def test_value_key_depends_on_order_as_rendering_does():
    assert value_key({"a": 1, "b": 2}) != value_key({"b": 2, "a": 1})


def test_source_key_changes_with_the_name_the_bytes_and_the_code(monkeypatch):
    key = source_key("a.md", b"text")
    assert key != source_key("b.md", b"text") and key != source_key("a.md", b"text!")
    monkeypatch.setattr(memo_module, "code_version", lambda: "another")
    assert source_key("a.md", b"text") != key


def test_kept_values_are_reused_by_the_next_build_and_only_those_used_are_kept(tmp_path):
    path = tmp_path / "kept.pickle"
    first = KeptValues(path)
    assert first.get(("a", 1), lambda: "made a") == "made a"
    first.get("b", lambda: "made b")
    first.save()
    second = KeptValues(path)
    assert second.get(("a", 1), lambda: "made again") == "made a"
    second.save()
    assert KeptValues(path).get("b", lambda: "b is gone") == "b is gone"


def test_an_unreadable_kept_file_is_as_empty(tmp_path):
    path = tmp_path / "kept.pickle"
    path.write_bytes(b"not a pickle")
    kept = KeptValues(path)
    assert kept.get("a", lambda: "made") == "made"
    kept.save()
    assert KeptValues(path).get("a", lambda: "again") == "made"


def test_a_source_key_can_be_made_from_the_files_hash():
    assert hashed_source_key("a.md", hashlib.sha256(b"text").hexdigest()) == source_key("a.md", b"text")


def test_read_kept_reads_a_file_again_only_once_it_changed(tmp_path):
    path, reads = tmp_path / "kept.txt", []

    def load(where):
        reads.append(where.read_text())
        return [where.read_text()]

    write_aside(path, b"one")
    first = read_kept(path, load)
    assert read_kept(path, load) is first and reads == ["one"]
    path.with_name("other").write_bytes(b"two")  # another process, same size
    path.with_name("other").replace(path)
    assert read_kept(path, load) == ["two"] and reads == ["one", "two"]


def test_read_kept_gives_what_this_process_wrote_without_reading_it(tmp_path):
    path, value = tmp_path / "kept.txt", ["held"]
    write_aside(path, b"held", holds=value)
    assert read_kept(path, lambda where: ["read"]) is value
    path.write_bytes(b"rewritten")  # in place, by another process
    assert read_kept(path, lambda where: ["read"]) == ["read"]


def test_read_kept_of_a_missing_file_loads_it_as_missing(tmp_path):
    assert read_kept(tmp_path / "none", lambda where: "missing") == "missing"
