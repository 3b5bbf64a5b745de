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
    assert [(g.tag.name, [p.slug for p in g.papers]) for g in site.tags] == [
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
