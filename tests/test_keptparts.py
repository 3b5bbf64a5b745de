"""building/keptparts.py: a rebuild takes the parts of the papers it did not change from those
the last build remembered, and makes only the rest."""

import dataclasses

import pytest

import generator.building.cache as cache_module
import generator.building.keptparts as keptparts
from factories import make_paper, make_site, parts_of, theme
from generator.building.cache import Cache
from generator.building.workers import Workers
from generator.outputs.csljson import csl_file
from generator.outputs.paperparts import parts_inputs


@pytest.fixture
def made(monkeypatch):
    """The papers whose parts keptparts makes, by slug, as it makes them."""
    slugs: list[str] = []
    make = keptparts.paper_parts

    def counted(templates, paper, *rest):
        slugs.append(paper.slug)
        return make(templates, paper, *rest)

    counted.__module__, counted.__qualname__ = make.__module__, make.__qualname__
    monkeypatch.setattr(keptparts, "paper_parts", counted)
    return slugs


def sites():
    papers = [make_paper(slug, title=f"Paper {slug}", tags=["llm"]) for slug in ("a", "b", "c")]
    edited = [dataclasses.replace(papers[0], title="Paper a, revised",
                                  title_html="Paper a, revised", title_text="Paper a, revised"),
              *papers[1:]]
    return make_site(papers), make_site(edited)


def test_the_parts_remembered_are_taken_and_only_a_changed_papers_are_made(tmp_path, made):
    before, after = sites()
    cache, templates = Cache(tmp_path / "cache"), theme().templates
    parts, rows = keptparts.kept_parts(cache, templates, parts_inputs(before), None, Workers())
    assert sorted(made) == ["a", "b", "c"] and parts == parts_of(before)
    made.clear()
    parts, again = keptparts.kept_parts(cache, templates, parts_inputs(after), rows, Workers())
    assert made == ["a"] and parts == parts_of(after)
    assert len(again) == 3 and len(again.keys() & rows.keys()) == 2


@pytest.mark.parametrize("remembered", [None, b"garbled", ["not", "rows"]])
def test_without_rows_remembered_every_papers_parts_are_made(tmp_path, made, remembered):
    site, _ = sites()
    parts, _ = keptparts.kept_parts(Cache(tmp_path / "cache"), theme().templates,
                                    parts_inputs(site), remembered, Workers())
    assert sorted(made) == ["a", "b", "c"] and parts == parts_of(site)


def test_a_cache_that_keeps_nothing_makes_every_part_and_remembers_none(made):
    site, _ = sites()
    parts, rows = keptparts.kept_parts(Cache(None), theme().templates, parts_inputs(site), None,
                                       Workers())
    assert parts == parts_of(site) and rows == {}


def column_key(cache, column):
    """The key of papers.json's job given `column`, as the build works it out."""
    return cache.keys(csl_file, None, [(column,)])[0]


def test_a_column_of_the_parts_is_keyed_by_the_parts_keys_not_read_again(tmp_path, monkeypatch):
    # why: more papers than a tuple hashed in place holds (cache._SMALL)
    papers = [make_paper(f"p{n}", title=f"Paper {n}") for n in range(10)]
    before = make_site(papers)
    after = make_site([dataclasses.replace(papers[0], title_html="Revised"), *papers[1:]])
    cache, templates = Cache(tmp_path / "cache"), theme().templates
    keys = {}
    for name, site in (("before", before), ("again", before), ("after", after)):
        parts, rows = keptparts.kept_parts(cache, templates, parts_inputs(site), None, Workers())
        column = keptparts.parts_column(cache, parts, rows, "csl")
        assert column == tuple(part.csl for part in parts_of(site))
        # why: the column hashed by value would fail here
        monkeypatch.setattr(cache_module, "_tuple_digest", None)
        keys[name] = column_key(cache, column)
        monkeypatch.undo()
        cache.commit()
    assert keys["before"] == keys["again"] != keys["after"]


def test_a_column_of_parts_a_cache_keeps_nothing_of_is_keyed_by_its_texts():
    site, _ = sites()
    cache = Cache(None)
    parts, rows = keptparts.kept_parts(cache, theme().templates, parts_inputs(site), None,
                                       Workers())
    column = keptparts.parts_column(cache, parts, rows, "csl")
    assert rows == {} and column == tuple(part.csl for part in parts)
    assert column_key(cache, column) == column_key(Cache(None), tuple(part.csl for part in parts))
