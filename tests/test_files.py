"""generator.building.files: a job's bytes are made, or kept in the live site where it holds them."""

import hashlib

import pytest

import generator.building.files as files_module
import generator.building.workers as workers_module
from generator.building.workers import Workers
from generator.building.cache import Cache
from generator.building.files import make_files
from generator.building.writer import KeptFile, LiveSite, OutputRefused, write_site
from generator.model.records import FileJob, OutputFile

MADE = []


def page(text):
    MADE.append(text)
    return f"<p>{text}</p>".encode()


@pytest.fixture(autouse=True)
def _forget_what_was_made():
    MADE.clear()
    STATES.clear()


def jobs(*texts):
    return [FileJob(f"{text}.html", page, (text,)) for text in texts] + \
        [FileJob(".nojekyll", bytes, (b"",))]


STATES = {}
"""The state each test's last write left its site in."""


def built(tmp_path, texts, cache, before=None, as_left=False):
    """The files of a build of pages `texts` into tmp_path/site, and its manifest; `as_left`:
    the last build's state of the site is given, so that its files are not read."""
    made, out = {}, tmp_path / "site"
    live = LiveSite(out, STATES[out]) if as_left else LiveSite(out)
    files = list(make_files(jobs(*texts), cache, live, None, before, made))
    STATES[out] = write_site(files, out).state
    return files, made


def live_as_left(tmp_path):
    return LiveSite(tmp_path / "site", STATES[tmp_path / "site"])


def test_every_job_is_made_into_the_first_site(tmp_path):
    files, _ = built(tmp_path, ["a", "b"], Cache(tmp_path / "cache"))
    assert files == [OutputFile("a.html", b"<p>a</p>"), OutputFile("b.html", b"<p>b</p>"),
                     OutputFile(".nojekyll", b"")]
    assert MADE == ["a", "b"]


def later(*texts):
    """make_files' `then`: the jobs of pages `texts`."""
    def asked():
        MADE.append("asked")
        return [FileJob(f"{text}.html", page, (text,)) for text in texts]
    return asked


def test_the_jobs_given_later_are_asked_for_after_the_first_jobs_keys_and_made_too(
        tmp_path, monkeypatch):
    cache, made = Cache(tmp_path / "cache"), {}
    monkeypatch.setattr(cache, "keys", lambda make, *rest: MADE.append(("keys", make.__name__))
                        or Cache.keys(cache, make, *rest))
    files = list(make_files(jobs("a", "b"), cache, LiveSite(tmp_path / "site"), None, None, made,
                            later("c")))
    assert [file.path for file in files] == ["a.html", "b.html", ".nojekyll", "c.html"]
    assert MADE == [("keys", "page"), ("keys", "bytes"), "asked", ("keys", "page"), "a", "b", "c"]
    assert made.keys() == {"a.html", "b.html", ".nojekyll", "c.html"}
    STATES[tmp_path / "site"] = write_site(files, tmp_path / "site").state
    MADE.clear()
    again = list(make_files(jobs("a", "b"), cache, live_as_left(tmp_path), None, made, {},
                            later("c", "d")))
    assert [file.path for file in again if isinstance(file, KeptFile)] == [
        "a.html", "b.html", ".nojekyll", "c.html"]
    assert MADE[-1] == "d"


def test_the_manifest_holds_each_files_key_and_a_hash_of_its_bytes_not_the_bytes(tmp_path):
    made = {}
    big = [FileJob("big.html", page, ("x" * 100_000,))]
    list(make_files(big, Cache(tmp_path / "cache"), LiveSite(tmp_path / "site"), made=made))
    key, digest = made["big.html"]
    assert len(key) == 32 and digest == hashlib.sha256(page("x" * 100_000)).digest()


@pytest.mark.parametrize("as_left", [True, False])
def test_a_job_whose_bytes_the_live_site_holds_is_kept_not_made(tmp_path, as_left):
    _, before = built(tmp_path, ["a", "b"], Cache(tmp_path / "cache"))
    MADE.clear()
    files, made = built(tmp_path, ["a", "c"], Cache(tmp_path / "cache"), before, as_left)
    assert files[0] == KeptFile("a.html") and MADE == ["c"]
    assert made["a.html"] == before["a.html"] and "b.html" not in made
    assert (tmp_path / "site" / "a.html").read_bytes() == b"<p>a</p>"
    assert not (tmp_path / "site" / "b.html").exists()


def test_a_job_given_other_values_at_the_same_path_is_made_again(tmp_path):
    _, before = built(tmp_path, ["a"], Cache(tmp_path / "cache"))
    MADE.clear()
    other = [FileJob("a.html", page, ("A",))]
    files = list(make_files(other, Cache(tmp_path / "cache"), live_as_left(tmp_path), None, before))
    assert files == [OutputFile("a.html", b"<p>A</p>")] and MADE == ["A"]


def test_a_site_as_the_last_build_left_it_is_not_read_to_keep_its_files(tmp_path, monkeypatch):
    _, before = built(tmp_path, ["a", "b"], Cache(tmp_path / "cache"))
    monkeypatch.setattr(files_module, "live_digest", lambda out, path: pytest.fail("read " + path))
    files, _ = built(tmp_path, ["a", "b"], Cache(tmp_path / "cache"), before, as_left=True)
    assert files[:2] == [KeptFile("a.html"), KeptFile("b.html")]


@pytest.mark.parametrize("damage", ["edited", "deleted"])
def test_a_live_file_changed_by_hand_is_made_again(tmp_path, damage):
    _, before = built(tmp_path, ["a", "b"], Cache(tmp_path / "cache"))
    if damage == "edited":
        (tmp_path / "site" / "a.html").write_bytes(b"<p>A</p>")
    else:
        (tmp_path / "site" / "a.html").unlink()
    MADE.clear()
    built(tmp_path, ["a", "b"], Cache(tmp_path / "cache"), before, as_left=False)
    assert MADE == ["a"]
    assert (tmp_path / "site" / "a.html").read_bytes() == b"<p>a</p>"


def test_without_a_cache_every_job_is_made_and_nothing_kept(tmp_path):
    built(tmp_path, ["a"], Cache(None))
    MADE.clear()
    files, made = built(tmp_path, ["a"], Cache(None))
    assert files[0] == OutputFile("a.html", b"<p>a</p>") and MADE == ["a"] and made == {}


def test_a_kept_file_gone_from_the_site_before_the_write_is_refused(tmp_path):
    _, before = built(tmp_path, ["a"], Cache(tmp_path / "cache"))
    files = list(make_files(jobs("a"), Cache(tmp_path / "cache"), live_as_left(tmp_path), None,
                            before))
    (tmp_path / "site" / "a.html").unlink()
    with pytest.raises(OutputRefused, match="a.html"):
        write_site(files, tmp_path / "site")


def test_jobs_are_made_in_workers_as_here(tmp_path, monkeypatch):
    here = list(make_files(jobs(*"abcdef"), Cache(None), LiveSite(tmp_path / "site")))
    monkeypatch.setattr(workers_module, "PARALLEL_FROM", 2)
    with Workers(2) as workers:
        assert list(make_files(jobs(*"abcdef"), Cache(None), LiveSite(tmp_path / "site"),
                               workers)) == here


class Watched(Workers):
    """Workers that note, among the files made, when they were let go."""

    def __init__(self, count, events):
        super().__init__(count)
        self.events = events

    def let_pool_go(self):
        if self._pool is not None:
            self.events.append("workers let go")
        super().let_pool_go()


def test_the_workers_are_let_go_once_no_group_left_is_large_enough_for_them(monkeypatch, tmp_path):
    monkeypatch.setattr(files_module, "PARALLEL_FROM", 3)
    monkeypatch.setattr(workers_module, "PARALLEL_FROM", 3)
    events = []
    workers = Watched(2, events)
    texts = [f"p{n}" for n in range(6)]
    for made in make_files(jobs(*texts), Cache(None), LiveSite(tmp_path / "site"), workers):
        events.append(made.path)
    workers.close()
    assert events == [f"{text}.html" for text in texts] + ["workers let go", ".nojekyll"]


def test_the_workers_are_let_go_at_once_when_too_little_is_left_to_make(monkeypatch, tmp_path):
    monkeypatch.setattr(files_module, "PARALLEL_FROM", 3)
    monkeypatch.setattr(workers_module, "PARALLEL_FROM", 3)
    texts = [f"p{n}" for n in range(6)]
    _, manifest = built(tmp_path, texts, Cache(tmp_path / "cache"), as_left=False)
    events = []
    workers = Watched(2, events)
    workers.map(str, None, [(n,) for n in range(3)])  # the pool started
    for made in make_files(jobs(*texts[:5], "new"), Cache(tmp_path / "cache"),
                           live_as_left(tmp_path), workers, manifest):
        events.append(made.path)
    workers.close()
    assert events[0] == "workers let go" and "new.html" in events
