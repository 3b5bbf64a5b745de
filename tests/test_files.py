"""generator.build.files: a job's bytes are made, or kept in the live site where it holds them."""

import pytest

import generator.build.workers as workers_module
from generator.build.workers import Workers
from generator.build.cache import Cache
from generator.build.files import make_files
from generator.build.writer import KeptFile, OutputRefused, write_site
from generator.model.records import FileJob, OutputFile

MADE = []


def page(text):
    MADE.append(text)
    return f"<p>{text}</p>".encode()


@pytest.fixture(autouse=True)
def _forget_what_was_made():
    MADE.clear()


def jobs(*texts):
    return [FileJob(f"{text}.html", page, (text,)) for text in texts] + \
        [FileJob(".nojekyll", bytes, (b"",))]


def built(tmp_path, texts, cache):
    files = list(make_files(jobs(*texts), cache, tmp_path / "site"))
    write_site(files, tmp_path / "site")
    return files


def test_every_job_is_made_into_the_first_site(tmp_path):
    files = built(tmp_path, ["a", "b"], Cache(tmp_path / "cache"))
    assert files == [OutputFile("a.html", b"<p>a</p>"), OutputFile("b.html", b"<p>b</p>"),
                     OutputFile(".nojekyll", b"")]
    assert MADE == ["a", "b"]


def test_a_job_whose_bytes_the_live_site_holds_is_kept_not_made(tmp_path):
    built(tmp_path, ["a", "b"], Cache(tmp_path / "cache"))
    MADE.clear()
    files = built(tmp_path, ["a", "c"], Cache(tmp_path / "cache"))
    assert files[0] == KeptFile("a.html") and MADE == ["c"]
    assert (tmp_path / "site" / "a.html").read_bytes() == b"<p>a</p>"
    assert not (tmp_path / "site" / "b.html").exists()


@pytest.mark.parametrize("damage", ["edited", "deleted"])
def test_a_live_file_changed_by_hand_is_made_again(tmp_path, damage):
    built(tmp_path, ["a", "b"], Cache(tmp_path / "cache"))
    if damage == "edited":
        (tmp_path / "site" / "a.html").write_bytes(b"<p>A</p>")
    else:
        (tmp_path / "site" / "a.html").unlink()
    MADE.clear()
    built(tmp_path, ["a", "b"], Cache(tmp_path / "cache"))
    assert MADE == ["a"]
    assert (tmp_path / "site" / "a.html").read_bytes() == b"<p>a</p>"


def test_without_a_cache_every_job_is_made(tmp_path):
    built(tmp_path, ["a"], Cache(None))
    MADE.clear()
    assert built(tmp_path, ["a"], Cache(None))[0] == OutputFile("a.html", b"<p>a</p>")
    assert MADE == ["a"]


def test_the_cache_keeps_a_hash_of_the_bytes_not_the_bytes(tmp_path):
    cache = Cache(None, in_memory=True)
    list(make_files([FileJob("big.html", page, ("x" * 100_000,))], cache, tmp_path / "site"))
    assert [len(value) for value in cache._memory.values()] == [32]


def test_a_kept_file_gone_from_the_site_before_the_write_is_refused(tmp_path):
    built(tmp_path, ["a"], Cache(tmp_path / "cache"))
    files = list(make_files(jobs("a"), Cache(tmp_path / "cache"), tmp_path / "site"))
    (tmp_path / "site" / "a.html").unlink()
    with pytest.raises(OutputRefused, match="a.html"):
        write_site(files, tmp_path / "site")


def test_jobs_are_made_in_workers_as_here(tmp_path, monkeypatch):
    here = list(make_files(jobs(*"abcdef"), Cache(None), tmp_path / "site"))
    monkeypatch.setattr(workers_module, "PARALLEL_FROM", 2)
    with Workers(2) as workers:
        assert list(make_files(jobs(*"abcdef"), Cache(None), tmp_path / "site", workers)) == here
