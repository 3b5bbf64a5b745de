import gc
import pickle
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

import generator.memo as memo_module
import generator.output as output_module
import generator.papers as papers_module
import generator.pipeline as pipeline_module
from factories import REPO, paper_source, write_content
from generator.errors import BuildFailed
from generator.freshness import Inputs, Scan, fingerprint
from generator.papers import load_papers
from generator.pipeline import BuildOptions, StageTimer, build, collect_garbage


def content_with(tmp_path, count=3, **extra):
    files = {f"p{i}": paper_source(title=f"Paper {i}", tags=["llm"]) for i in range(count)}
    files.update(extra)
    return write_content(tmp_path, files)


def test_cached_papers_equal_freshly_checked_ones(tmp_path):
    content = content_with(tmp_path)
    fresh = load_papers(content)
    assert load_papers(content, tmp_path / "cache") == fresh
    assert load_papers(content, tmp_path / "cache") == fresh


def test_a_cached_paper_is_not_checked_again(tmp_path, monkeypatch):
    content = content_with(tmp_path)
    load_papers(content, tmp_path / "cache")
    monkeypatch.setattr(papers_module, "check_file", lambda path: pytest.fail(f"checked {path}"))
    assert len(load_papers(content, tmp_path / "cache")) == 3


def test_an_edited_paper_is_checked_again(tmp_path):
    content = content_with(tmp_path)
    load_papers(content, tmp_path / "cache")
    (content / "papers/p1.md").write_text(paper_source(title="Edited"))
    assert [p.title for p in load_papers(content, tmp_path / "cache")] == ["Paper 0", "Edited", "Paper 2"]


def test_errors_are_never_cached(tmp_path):
    content = content_with(tmp_path, bad=paper_source(title=None))
    for _ in range(2):
        with pytest.raises(BuildFailed, match="missing required 'title'"):
            load_papers(content, tmp_path / "cache")


def test_new_generator_code_makes_the_cache_stale(tmp_path, monkeypatch):
    content = content_with(tmp_path)
    load_papers(content, tmp_path / "cache")
    monkeypatch.setattr(memo_module, "code_version", lambda: "another")
    checked = []
    real = papers_module.check_file
    monkeypatch.setattr(papers_module, "check_file", lambda path: checked.append(path) or real(path))
    load_papers(content, tmp_path / "cache")
    assert len(checked) == 3


def cached_keys(cache):
    """(keys in the bundle, keys with a file of their own) of a content folder's cache."""
    [folder] = (cache / "papers").iterdir()
    bundle = papers_module._read_bundle(str(folder / papers_module.BUNDLE))
    return set(bundle), {f.name for f in folder.iterdir() if f.name != papers_module.BUNDLE}


def test_the_cache_forgets_papers_that_are_gone(tmp_path):
    content = content_with(tmp_path)
    load_papers(content, tmp_path / "cache")
    (content / "papers/p2.md").unlink()
    load_papers(content, tmp_path / "cache")
    bundled, own = cached_keys(tmp_path / "cache")
    assert len(bundled) == 2 and own == set()


def test_a_first_build_writes_the_bundle_and_no_file_per_paper(tmp_path, monkeypatch):
    content = content_with(tmp_path, count=12)
    monkeypatch.setattr(papers_module, "PARALLEL_FROM", 2)
    monkeypatch.setattr(papers_module.PaperCache, "put", lambda *args: pytest.fail("put"))
    load_papers(content, tmp_path / "cache", workers=2)
    bundled, own = cached_keys(tmp_path / "cache")
    assert len(bundled) == 12 and own == set()


def test_a_bundle_written_from_the_workers_chunks_reads_back_as_the_papers(tmp_path, monkeypatch):
    content = content_with(tmp_path, count=30, bad="no front matter here\n")
    monkeypatch.setattr(papers_module, "PARALLEL_FROM", 2)
    with pytest.raises(BuildFailed):
        load_papers(content, tmp_path / "cache", workers=2)  # checked in workers' chunks
    assert len(cached_keys(tmp_path / "cache")[0]) == 30  # the error is never kept
    (content / "papers/bad.md").unlink()
    for i in range(10):  # a third differ: written again, the rest pickled here
        (content / f"papers/p{i}.md").write_text(paper_source(title=f"Edited {i}"))
    load_papers(content, tmp_path / "cache", workers=2)
    fresh = load_papers(content)
    monkeypatch.setattr(papers_module, "check_file", lambda path: pytest.fail(f"checked {path}"))
    assert load_papers(content, tmp_path / "cache") == fresh


def test_papers_checked_since_the_bundle_have_files_of_their_own(tmp_path, monkeypatch):
    content = content_with(tmp_path, count=120)
    load_papers(content, tmp_path / "cache")
    bundle_file = next((tmp_path / "cache/papers").iterdir()) / papers_module.BUNDLE
    written = bundle_file.stat().st_ino
    (content / "papers/p1.md").write_text(paper_source(title="Edited"))
    load_papers(content, tmp_path / "cache")  # 2 of 120 differ: not worth writing it again
    bundled, own = cached_keys(tmp_path / "cache")
    assert bundle_file.stat().st_ino == written and len(own) == 1 and len(bundled) == 120
    monkeypatch.setattr(papers_module, "check_file", lambda path: pytest.fail(f"checked {path}"))
    assert [p.title for p in load_papers(content, tmp_path / "cache")][:2] == ["Paper 0", "Edited"]


def test_the_bundle_is_written_again_once_enough_papers_differ(tmp_path):
    content = content_with(tmp_path, count=120)
    load_papers(content, tmp_path / "cache")
    for i in range(2):
        (content / f"papers/p{i}.md").write_text(paper_source(title=f"Edited {i}"))
    load_papers(content, tmp_path / "cache")  # 4 of 120 differ
    bundled, own = cached_keys(tmp_path / "cache")
    assert len(bundled) == 120 and own == set()
    assert [p.title for p in load_papers(content, tmp_path / "cache")][:2] == ["Edited 0", "Edited 1"]


def test_an_unreadable_bundle_is_a_miss(tmp_path):
    content = content_with(tmp_path)
    fresh = load_papers(content)
    load_papers(content, tmp_path / "cache")
    next((tmp_path / "cache/papers").iterdir()).joinpath(papers_module.BUNDLE).write_bytes(b"junk")
    assert load_papers(content, tmp_path / "cache") == fresh


def test_parallel_checking_gives_the_same_papers_in_the_same_order(tmp_path, monkeypatch):
    content = content_with(tmp_path, count=12)
    monkeypatch.setattr(papers_module, "PARALLEL_FROM", 2)
    assert load_papers(content, None, workers=2) == load_papers(content, None, workers=1)


def test_cached_parallel_build_and_clean_build_give_identical_bytes(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1745452800")
    monkeypatch.setattr(papers_module, "PARALLEL_FROM", 2)
    monkeypatch.setattr(output_module, "PARALLEL_FROM", 2)  # pages rendered by workers too
    monkeypatch.setattr(pipeline_module, "FORK_FROM", 2)  # the index built alongside
    content = REPO / "content"

    def files(out):
        return {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}

    build(BuildOptions(content=content, out=tmp_path / "clean", project=REPO))
    for _ in range(2):  # the second build reads every paper back from the cache
        shutil.rmtree(tmp_path / "cached", ignore_errors=True)  # why: else it has nothing to do
        timer = StageTimer()
        build(BuildOptions(content=content, out=tmp_path / "cached", project=REPO,
                           cache=tmp_path / "cache", workers=2), timer)
        assert [stage for stage, _, _ in timer.stages] == ["papers", "plan", "files", "search", "write"]
    assert files(tmp_path / "cached") == files(tmp_path / "clean")


def test_a_resident_cache_keeps_papers_in_memory_for_the_next_load(tmp_path, monkeypatch):
    content = content_with(tmp_path)
    monkeypatch.setattr(papers_module, "_RESIDENT", {})
    monkeypatch.setattr(papers_module, "_BUNDLES_READ", set())
    load_papers(content, tmp_path / "cache", resident=True)
    shutil.rmtree(tmp_path / "cache")  # what is in memory is not read again
    checked = []
    real = papers_module.check_file
    monkeypatch.setattr(papers_module, "check_file", lambda path: checked.append(path) or real(path))
    assert len(load_papers(content, tmp_path / "cache", resident=True)) == 3 and checked == []
    shutil.rmtree(tmp_path / "cache", ignore_errors=True)
    load_papers(content, tmp_path / "cache")  # not resident: read from disk or checked
    assert len(checked) == 3


def test_a_build_leaves_nothing_frozen_out_of_garbage_collection(tmp_path):
    # why: a build freezes what it has loaded, for speed; a preview server builds again and
    # again in one process and must still collect what earlier builds left
    gc.unfreeze()
    build(BuildOptions(content=content_with(tmp_path), out=tmp_path / "site", project=REPO,
                       cache=tmp_path / "cache"))
    assert gc.get_freeze_count() == 0


def test_a_preview_server_that_collects_between_builds_does_not_grow(tmp_path):
    # why: a build freezes what it loaded, the garbage of the build before with it, which
    # then waits for a full collection: the preview server makes one when idle
    content = content_with(tmp_path)
    options = BuildOptions(content=content, out=tmp_path / "site", project=REPO,
                           cache=tmp_path / "cache", resident=True)
    tracked = []
    for number in range(6):
        (content / "papers" / "p0.md").write_text(paper_source(title=f"Edit {number}"))
        build(options)
        collect_garbage()
        tracked.append(len(gc.get_objects()))
    assert tracked[-1] - tracked[2] < 100, tracked  # uncollected, ~300 more each build


def test_a_resident_cache_reads_the_bundle_once(tmp_path, monkeypatch):
    content = content_with(tmp_path)
    monkeypatch.setattr(papers_module, "_RESIDENT", {})
    monkeypatch.setattr(papers_module, "_BUNDLES_READ", set())
    load_papers(content, tmp_path / "cache")  # writes the bundle
    read = []
    for name in ("load_pickled", "_read_bundle"):  # a paper's own file, the bundle
        real = getattr(papers_module, name)
        monkeypatch.setattr(papers_module, name, lambda path, real=real: read.append(path) or real(path))
    load_papers(content, tmp_path / "cache", resident=True)
    assert [Path(path).name for path in read] == [papers_module.BUNDLE]
    (content / "papers/p1.md").write_text(paper_source(title="Edited"))
    read.clear()
    titles = [p.title for p in load_papers(content, tmp_path / "cache", resident=True)]
    assert titles == ["Paper 0", "Edited", "Paper 2"]
    assert papers_module.BUNDLE not in [Path(path).name for path in read]


def test_every_cached_rebuild_after_edits_equals_a_clean_build(tmp_path, monkeypatch):
    """Papers, pages and the staged site are all reused between cached builds; after each kind
    of edit the site must be byte for byte what a build from scratch makes."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1745452800")
    monkeypatch.setattr(papers_module, "PARALLEL_FROM", 2)
    monkeypatch.setattr(output_module, "PARALLEL_FROM", 2)
    root = tmp_path / "project"
    for folder in ("content", "templates", "static"):
        shutil.copytree(REPO / folder, root / folder)
    (root / "node_modules/lunr").mkdir(parents=True)
    shutil.copy(REPO / "node_modules/lunr/lunr.min.js", root / "node_modules/lunr")
    papers = sorted((root / "content/papers").glob("*.md"))
    edits = [
        lambda: papers[0].write_text(papers[0].read_text().replace("title: ", "title: Edited ", 1)),
        lambda: papers[1].write_text(papers[1].read_text().replace("tags:\n", "tags:\n- new tag\n", 1)),
        lambda: papers[2].unlink(),
        lambda: papers[3].with_name("a-new-paper.md").write_text(
            paper_source(title="A New Paper", date="2025-05-01", tags=["new tag"])),
        lambda: (root / "content/site.yaml").write_text(
            (root / "content/site.yaml").read_text() + "page_size: 4\n"),
        lambda: (root / "templates/_partials/paper_card.html").write_text(
            (root / "templates/_partials/paper_card.html").read_text() + "<!-- card -->\n"),
    ]

    def files(out):
        return {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}

    cached = BuildOptions(content=root / "content", out=tmp_path / "cached", project=root,
                          cache=tmp_path / "cache", workers=2)
    build(cached)
    for number, edit in enumerate(edits):
        edit()
        build(cached)
        clean = tmp_path / f"clean{number}"
        build(BuildOptions(content=root / "content", out=clean, project=root))
        assert files(tmp_path / "cached") == files(clean), f"after edit {number}"


def test_with_the_input_fingerprints_hashes_cached_papers_are_not_read_again(tmp_path, monkeypatch):
    content = content_with(tmp_path)
    fresh = load_papers(content, tmp_path / "cache")
    scan = Scan()
    fingerprint(Inputs(content, REPO, ""), None, scan)
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail(f"read {self}"))
    assert load_papers(content, tmp_path / "cache", hashes=scan.hashes) == fresh
