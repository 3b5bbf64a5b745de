"""Groupings: one rule for every field of the paper that gathers papers into pages."""

import datetime as dt

from factories import make_paper
from generator.model.groupings import AUTHORS, TAGS, group_papers
from generator.model.records import Grouping
from generator.model.site import reading_order
from generator.model.slugs import slugify

VENUES = Grouping("venues", lambda p: [(p.venue, slugify(p.venue))] if p.venue else [],
                  order=lambda group: group.slug)


def papers(*made):
    return reading_order(made)


def test_two_spellings_of_one_tags_slug_are_one_tag_named_as_its_newest_paper_spells_it():
    grouped = group_papers(papers(
        make_paper("old", tags=["web agents"], date=dt.date(2025, 1, 1)),
        make_paper("new", tags=["Web Agents"], date=dt.date(2025, 3, 1)),
        make_paper("mid", tags=["web agents", "Web Agents"], date=dt.date(2025, 2, 1))), TAGS)
    [(slug, name, others, slugs)] = [(g.slug, g.name, g.other_names, [p.slug for p in g.papers])
                                     for g in grouped]
    assert (slug, name, others) == ("web-agents", "Web Agents", ("web agents",))
    assert slugs == ["new", "mid", "old"]  # a paper once, with either spelling


def test_authors_and_tags_follow_one_rule_so_a_new_grouping_does_too():
    made = papers(make_paper("a", venue="ICLR 2025", date=dt.date(2025, 1, 1)),
                  make_paper("b", venue="iclr 2025", date=dt.date(2025, 2, 1)),
                  make_paper("c", venue="", date=dt.date(2025, 3, 1)))
    [iclr] = group_papers(made, VENUES)
    assert (iclr.slug, iclr.name, iclr.other_names) == ("iclr-2025", "iclr 2025", ("ICLR 2025",))
    assert [p.slug for p in iclr.papers] == ["b", "a"]


def test_a_value_without_a_slug_has_no_group():
    made = papers(make_paper("a", authors=("—", "Ada Lovelace")))
    assert [g.slug for g in group_papers(made, AUTHORS)] == ["ada-lovelace"]


def test_groups_come_in_their_groupings_order():
    made = papers(make_paper("a", tags=["zebra", "Alpha"]), make_paper("b", authors=("Zoe A", "Al B")))
    assert [g.name for g in group_papers(made, TAGS)] == ["Alpha", "zebra"]
    assert [g.slug for g in group_papers(made, AUTHORS)] == ["ada-lovelace", "al-b", "zoe-a"]
