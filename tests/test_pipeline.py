import time

import pytest

import generator.output as output_module
import generator.pipeline as pipeline_module
from factories import REPO, paper_source, write_content
from generator.errors import BuildFailed
from generator.output import temp_folders
from generator.pipeline import BuildOptions, StageTimer, build


def files(out):
    return {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def edit(content, number):
    (content / "papers" / "p1.md").write_text(paper_source(title=f"Edited {number}", tags=["llm"]))


@pytest.fixture
def forked(monkeypatch):
    """Staging and the search index forked, as at 10,000 papers."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1745452800")
    monkeypatch.setattr(pipeline_module, "FORK_FROM", 2)


def options(content, out, cache=None, workers=2):
    return BuildOptions(content=content, out=out, project=REPO, cache=cache, workers=workers)


def test_a_site_staged_and_indexed_alongside_is_the_site_made_here(tmp_path, forked):
    content = write_content(tmp_path, {f"p{i}": paper_source(title=f"Paper {i}", tags=["llm"])
                                       for i in range(3)})
    out, cache = tmp_path / "site", tmp_path / "cache"
    for number in range(3):  # the third build stages into the spare the second left
        edit(content, number)
        timer = StageTimer()
        build(options(content, out, cache), timer)
        assert [stage for stage, _, _ in timer.stages] == ["papers", "plan", "files", "search", "write"]
        build(options(content, tmp_path / "here", workers=1))
        assert files(out) == files(tmp_path / "here")
    assert temp_folders(out) == set()


def test_a_build_that_fails_after_staging_keeps_the_spare_and_the_site(tmp_path, forked,
                                                                      monkeypatch):
    real = output_module._mirrored

    def slow_mirror(*args):  # still linking when the build fails
        time.sleep(0.3)
        return real(*args)

    monkeypatch.setattr(output_module, "_mirrored", slow_mirror)
    content = write_content(tmp_path, {f"p{i}": paper_source(title=f"Paper {i}") for i in range(3)})
    out, cache = tmp_path / "site", tmp_path / "cache"
    for number in range(2):
        edit(content, number)
        build(options(content, out, cache))
    spares = list(cache.rglob("*.spare"))
    assert len(spares) == 1
    before = files(out)
    (content / "papers" / "p2.md").write_text("---\ntitle: [unclosed\n---\n")
    with pytest.raises(BuildFailed):
        build(options(content, out, cache))
    assert files(out) == before
    assert temp_folders(out) == set()
    assert spares[0].is_dir() and files(spares[0])  # kept for the next build to stage in
    assert not [p for p in cache.rglob(".*") if spares[0] not in p.parents]  # none half-written


def test_ready_comes_once_the_site_is_in_place_before_the_next_build_s_records(tmp_path):
    content = write_content(tmp_path, {"p1": paper_source(title="First", tags=["llm"])})
    out, cache = tmp_path / "site", tmp_path / "cache"
    seen = []

    def records():
        return sorted(p.name.split(".", 1)[1] for p in (cache / "builds").glob("*.*json"))

    def ready(report):
        page = (out / "papers/p1/index.html").read_bytes()
        seen.append((report.written > 0, b"Edited 0" in page, records()))

    build(options(content, out, cache), ready=ready)
    assert seen == [(True, False, [])]  # the site, but no record of it yet
    assert records() == ["inputs.json", "json", "pages.json"]
    edit(content, 0)
    build(options(content, out, cache), ready=ready)
    assert seen[1][:2] == (True, True)
    build(options(content, out, cache), ready=ready)
    assert len(seen) == 2  # nothing changed: no new site, no call


def test_the_spare_prepared_for_the_next_build_is_where_that_build_stages(tmp_path, forked,
                                                                          monkeypatch):
    from generator.freshness import record_path, spare_folder
    content = write_content(tmp_path, {f"p{i}": paper_source(title=f"Paper {i}", tags=["llm"])
                                       for i in range(3)})
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(options(content, out, cache))
    spare = spare_folder(record_path(cache, out))
    assert not spare.exists()  # built into nothing
    pipeline_module.prepare_next_build(options(content, out, cache))
    assert files(spare) == files(out)
    taken = []
    real = output_module.take_spare
    monkeypatch.setattr(output_module, "take_spare", lambda out, spare:
                        taken.append(spare and spare.is_dir()) or real(out, spare))
    edit(content, 1)
    build(options(content, out, cache))
    assert taken == [True]  # the edit's build staged in it
    build(options(content, tmp_path / "here", workers=1))
    assert files(out) == files(tmp_path / "here")
    pipeline_module.prepare_next_build(options(content, out))  # no cache: nowhere to keep one


def test_once_prepared_the_next_build_reads_only_the_edited_file(tmp_path, monkeypatch):
    import generator.freshness as freshness_module
    monkeypatch.setattr(freshness_module, "RACY_NS", 60 * 10**9)
    content = write_content(tmp_path, {f"p{i}": paper_source(title=f"Paper {i}") for i in range(3)})
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(options(content, out, cache))  # its files were saved just before: racy to its scan
    later = time.time_ns() + 120 * 10**9
    with monkeypatch.context() as clock:  # why: idle, once they have settled
        clock.setattr(freshness_module.time, "time_ns", lambda: later)
        pipeline_module.prepare_next_build(options(content, out, cache))
    read = []
    real = freshness_module._hash_file
    monkeypatch.setattr(freshness_module, "_hash_file", lambda path: read.append(path) or real(path))
    edit(content, 1)
    build(options(content, out, cache))
    assert [path.rpartition("/")[2] for path in read] == ["p1.md"]


def test_preparing_the_next_build_is_best_effort_and_step_by_step(tmp_path, monkeypatch):
    from generator.freshness import record_path, spare_folder
    content = write_content(tmp_path, {"p0": paper_source(title="Paper 0")})
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(options(content, out, cache))

    def failed(*args):
        raise UnicodeEncodeError("utf-8", "x", 0, 1, "any error, not only an OSError")

    monkeypatch.setattr(pipeline_module, "fingerprint", failed)
    pipeline_module.prepare_next_build(options(content, out, cache))  # no error: idle work
    assert files(spare_folder(record_path(cache, out))) == files(out)  # the next step still ran
