import datetime as dt

from factories import make_config, make_paper
from generator.model.site import build_site, reading_order, updated_time


def test_reading_order_is_newest_first_then_by_title_then_by_file_name():
    papers = [make_paper("a", title="Beta", date=dt.date(2025, 1, 1)),
              make_paper("b", title="alpha", date=dt.date(2025, 1, 1)),
              make_paper("d", title="Gamma", date=dt.date(2025, 3, 1)),
              make_paper("c", title="gamma", date=dt.date(2025, 3, 1))]
    assert [p.slug for p in reading_order(papers)] == ["c", "d", "b", "a"]


def test_build_site_groups_papers_by_tag_in_paper_order():
    papers = [make_paper("a", tags=["llm"], date=dt.date(2025, 1, 1)),
              make_paper("b", tags=["llm", "audio"], date=dt.date(2025, 2, 1))]
    site = build_site(papers, make_config(), dt.datetime(2025, 5, 1, tzinfo=dt.timezone.utc))
    assert site.papers == reading_order(papers)
    assert [(g.name, [p.slug for p in g.papers]) for g in site.tags] == [
        ("audio", ["b"]), ("llm", ["b", "a"])]


def test_updated_time_honours_source_date_epoch():
    assert updated_time([], {"SOURCE_DATE_EPOCH": "1745452800"}) == dt.datetime(
        2025, 4, 24, tzinfo=dt.timezone.utc)


def test_updated_time_without_epoch_is_the_newest_paper_day_not_now():
    papers = [make_paper("a", date=dt.date(2025, 1, 2)), make_paper("b", date=dt.date(2025, 3, 4))]
    assert updated_time(papers, {}) == dt.datetime(2025, 3, 4, tzinfo=dt.timezone.utc)


def test_a_source_date_epoch_past_the_year_9999_is_an_error():
    import pytest

    from generator.model.errors import BuildFailed
    with pytest.raises(BuildFailed, match="SOURCE_DATE_EPOCH:1: must be seconds since 1970"):
        updated_time([], {"SOURCE_DATE_EPOCH": "999999999999999999"})


def test_build_site_groups_papers_by_author_sorted_by_slug_newest_first():
    papers = [make_paper("a", authors=("Émile Borel", "Ada Lovelace"), date=dt.date(2025, 1, 1)),
              make_paper("b", authors=("Ada Lovelace",), date=dt.date(2025, 2, 1))]
    site = build_site(papers, make_config(), dt.datetime(2025, 5, 1, tzinfo=dt.timezone.utc))
    assert [(a.slug, a.name, [p.slug for p in a.papers]) for a in site.authors] == [
        ("ada-lovelace", "Ada Lovelace", ["b", "a"]), ("emile-borel", "Émile Borel", ["a"])]


def test_spellings_with_one_slug_are_one_author_named_as_on_their_newest_paper():
    papers = [make_paper("old", authors=("Zoe Muller",), date=dt.date(2025, 1, 1)),
              make_paper("new", authors=("Zoë Müller",), date=dt.date(2025, 2, 1)),
              make_paper("both", authors=("Zoë Müller", "Zoe Muller", "Zoë Müller"),
                         date=dt.date(2024, 1, 1))]
    site = build_site(papers, make_config(), dt.datetime(2025, 5, 1, tzinfo=dt.timezone.utc))
    [author] = site.authors
    assert (author.slug, author.name, author.other_names) == ("zoe-muller", "Zoë Müller",
                                                              ("Zoe Muller",))
    assert [p.slug for p in author.papers] == ["new", "old", "both"]


def test_a_name_with_no_letters_gets_no_author_page():
    site = build_site([make_paper("a", authors=("—", "Ada Lovelace"))], make_config(),
                      dt.datetime(2025, 5, 1, tzinfo=dt.timezone.utc))
    assert [a.slug for a in site.authors] == ["ada-lovelace"]
