"""building/lightpapers.py: a paper a rebuild keeps is stood in for by its row, read whole only
where a page to make shows it; the site is the one a clean build makes."""

import dataclasses
import marshal
import multiprocessing
import pickle
import sqlite3
from concurrent.futures import ProcessPoolExecutor

import pytest

import generator.building.pipeline as pipeline_module
from factories import REPO, paper_source, starting_content
from generator.building.cache import FILE, Cache, ResultsGone
from generator.building.lightpapers import (HEAVY, LIGHT, LightPaper, checked_papers, paper_row,
                                            rows_of, stand_in)
from generator.building.pipeline import BuildOptions, Made, StageTimer, build
from generator.content.papers import Checked, check_file
from generator.model.records import Paper, SourceFile

RICH = paper_source(
    title="Sparse $\\ell_1$ Things", authors=["Zoë Müller", "Ada Lovelace"], date="2025-03-01",
    venue="ICLR 2025", tags=["llm", "New Tag"], tldr="Short.",
    abstract="We bound $O(n^2)$ and \\unknownmacro things.",
    links={"arxiv": "2401.00001", "code": "https://example.org/code"},
    citation={"booktitle": "Proceedings", "pages": "1--9"}, extra={"poster": 12},
    body="Notes with $x^2$ and [a link](https://example.org/).")


def kept_checking(tmp_path, text=RICH):
    """A paper file checked through a cache that keeps it: the cache, the checking, its key."""
    path = tmp_path / "content" / "papers" / "rich.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    cache = Cache(tmp_path / "cache")
    items = [(SourceFile(path, path.read_bytes()), None)]
    [checked] = cache.map(check_file, items, keep=Checked.ok)
    cache.commit()
    return cache, checked, cache.keys(check_file, None, items)[0]


def test_every_field_of_a_paper_is_in_its_row_or_read_whole():
    assert sorted(LIGHT + HEAVY) == sorted(field.name for field in dataclasses.fields(Paper))
    assert not set(LIGHT) & set(HEAVY)


def test_a_stand_in_is_its_paper_field_by_field_reading_the_rest_only_when_asked(tmp_path):
    cache, checked, key = kept_checking(tmp_path)
    row = marshal.loads(marshal.dumps(paper_row(checked)))  # as Cache.remember_plain keeps it
    standing = stand_in(rows_of({key: row})[key], key, cache.file())
    paper = standing.paper
    assert isinstance(paper, LightPaper) and checked.warnings  # the unknown macro
    for field in dataclasses.fields(Checked):
        if field.name != "paper":
            assert getattr(standing, field.name) == getattr(checked, field.name), field.name
    for name in LIGHT:
        assert getattr(paper, name) == getattr(checked.paper, name), name
    assert not set(HEAVY) & set(vars(paper))  # nothing read whole yet
    for name in HEAVY:
        assert getattr(paper, name) == getattr(checked.paper, name), name
    assert set(HEAVY) <= set(vars(paper))  # read once, then held


def process_reads(paper):
    return paper.abstract_html, paper.links


def test_a_stand_in_sent_to_another_process_goes_as_its_row_and_is_read_whole_there(tmp_path):
    cache, checked, key = kept_checking(tmp_path)
    paper = stand_in(paper_row(checked), key, cache.file()).paper
    assert b"example.org/code" not in pickle.dumps(paper)  # a link: read whole there
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        assert pool.submit(process_reads, paper).result() == (checked.paper.abstract_html,
                                                              checked.paper.links)
    assert not set(HEAVY) & set(vars(paper))


def test_a_stand_in_whose_whole_record_is_gone_says_so_when_read(tmp_path):
    cache, checked, key = kept_checking(tmp_path)
    paper = stand_in(paper_row(checked), key, cache.file()).paper
    with sqlite3.connect(tmp_path / "cache" / FILE) as db:
        db.execute("DELETE FROM results")
    assert paper.title == checked.paper.title
    with pytest.raises(ResultsGone):
        paper.abstract  # noqa: B018


def test_rows_not_remembered_or_garbled_stand_in_for_nothing():
    assert rows_of(None) == rows_of(b"not rows") == rows_of([]) == {}


def test_only_papers_kept_in_a_cache_file_alone_are_stood_in_for(tmp_path):
    cache, checked, key = kept_checking(tmp_path)
    items = [(SourceFile(tmp_path / "content/papers/rich.md", RICH.encode()), None)]
    rows = {key: paper_row(checked)}
    [stood] = checked_papers(cache, check_file, items, rows, keep=Checked.ok)[0]
    assert isinstance(stood.paper, LightPaper)
    in_memory = Cache(tmp_path / "cache", in_memory=True)
    [read] = checked_papers(in_memory, check_file, items, rows, keep=Checked.ok)[0]
    assert type(read.paper) is Paper and read == checked


def site_files(out):
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def options(content, out, cache=None, workers=1):
    return BuildOptions(content=content, out=out, project=REPO, cache=cache, workers=workers)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_rebuild_stands_in_for_the_papers_it_keeps_and_makes_the_clean_site(tmp_path, workers):
    content = starting_content(tmp_path)
    build(options(content, tmp_path / "site", tmp_path / "cache", workers))
    (content / "papers" / "p2.md").write_text(paper_source(
        title="Sparse Things, Revised", tags=["llm"], date="2025-03-01"))
    made: list[Made] = []
    build(options(content, tmp_path / "site", tmp_path / "cache", workers), made=made.append)
    light = {paper.slug for paper in made[0].site.papers if isinstance(paper, LightPaper)}
    assert light == {"p1", "p3"}
    build(options(content, tmp_path / "clean"))
    assert site_files(tmp_path / "site") == site_files(tmp_path / "clean")


def test_a_rebuild_that_finds_a_paper_gone_from_the_cache_builds_again_reading_every_paper(
        tmp_path, monkeypatch):
    """p3's page shows p2 as the paper before it: p2's new title makes p3's page again, which
    reads p3 whole; another build with the same cache forgot it after it was stood in for."""
    content = starting_content(tmp_path)
    build(options(content, tmp_path / "site", tmp_path / "cache"))
    (content / "papers" / "p2.md").write_text(paper_source(
        title="Sparse Things, Revised", tags=["llm"], date="2025-03-01", body="Notes with $x^2$."))
    real = pipeline_module.checked_papers

    def then_forget(*args, **kwargs):
        checked, rows = real(*args, **kwargs)
        with sqlite3.connect(tmp_path / "cache" / FILE) as db:
            for c in checked:
                if isinstance(c.paper, LightPaper) and c.paper.slug == "p3":
                    db.execute("DELETE FROM results WHERE key = ?", (c.paper.__dict__["_key"],))
        return checked, rows

    monkeypatch.setattr(pipeline_module, "checked_papers", then_forget)
    lines = []
    build(options(content, tmp_path / "site", tmp_path / "cache"), StageTimer(lines.append))
    assert any("was gone from" in line and "building again, reading them here" in line
               for line in lines)
    monkeypatch.undo()
    build(options(content, tmp_path / "clean"))
    assert site_files(tmp_path / "site") == site_files(tmp_path / "clean")


def test_search_terms_gone_of_a_paper_stood_in_for_are_made_in_a_second_build(tmp_path):
    """The build that remembered a paper's row kept its search terms, so a paper stood in for
    has its terms read aside without asking the cache file first; gone, the build starts
    again and makes them."""
    content = starting_content(tmp_path)
    build(options(content, tmp_path / "site", tmp_path / "cache", workers=2))
    with sqlite3.connect(tmp_path / "cache" / FILE) as db:
        for key, value in db.execute("SELECT key, value FROM results").fetchall():
            if type(pickle.loads(value)).__name__ == "tuple":  # a paper's search terms
                db.execute("DELETE FROM results WHERE key = ?", (key,))
    (content / "papers" / "p2.md").write_text(paper_source(
        title="Sparse Things, Revised", tags=["llm"], date="2025-03-01"))
    lines = []
    build(options(content, tmp_path / "site", tmp_path / "cache", workers=2),
          StageTimer(lines.append))
    assert any("2 of the results kept in" in line and "building again" in line for line in lines)
    build(options(content, tmp_path / "clean"))
    assert site_files(tmp_path / "site") == site_files(tmp_path / "clean")


def test_a_draft_stood_in_for_when_drafts_are_first_built_has_its_search_terms_made(tmp_path):
    """The build that remembered a draft's row made no search terms for it, having left it out;
    with --drafts the next build finds them missing where they are read, and starts again."""
    content = starting_content(tmp_path)
    (content / "papers" / "p4.md").write_text(paper_source(title="A Draft", draft=True))
    build(options(content, tmp_path / "site", tmp_path / "cache", workers=2))
    lines = []
    drafts = dataclasses.replace(options(content, tmp_path / "site", tmp_path / "cache", 2),
                                 drafts=True)
    build(drafts, StageTimer(lines.append))
    assert any("1 of the results kept in" in line and "building again" in line for line in lines)
    build(dataclasses.replace(options(content, tmp_path / "clean"), drafts=True))
    assert site_files(tmp_path / "site") == site_files(tmp_path / "clean")
