"""Assembling the site: papers in reading order, grouped (model/groupings.py), citation keys,
one 'updated' time."""

from __future__ import annotations

import datetime as dt
from operator import attrgetter
from typing import Iterable, Mapping

from . import urls as paths
from .citation import assign_keys
from .errors import BuildFailed, ContentError
from .groupings import AUTHORS, TAGS, group_papers
from .records import Grouping, Paper, Site, SiteConfig


def build_site(papers: Iterable[Paper], config: SiteConfig, updated: dt.datetime,
               groupings: Iterable[Grouping] = (TAGS, AUTHORS)) -> Site:
    """The papers in reading order (see reading_order), grouped by each of `groupings` (tags
    and authors always), with citation keys and the number of pages the authors are listed on."""
    ordered = reading_order(papers)
    groups = {grouping.name: group_papers(ordered, grouping)
              for grouping in dict.fromkeys((TAGS, AUTHORS, *groupings))}
    return Site(config=config, papers=ordered, updated=updated, groups=groups,
                cite_keys=assign_keys(ordered),
                author_pages=paths.bucket_count(len(groups["authors"]), paths.AUTHORS_PER_PAGE))


def reading_order(papers: Iterable[Paper]) -> tuple[Paper, ...]:
    """Newest first, then by title, then by file name: the order of every list of papers."""
    return tuple(sorted(papers, key=reading_key))


def reading_key(paper: Paper) -> tuple[int, str, str]:
    """What reading_order() sorts a paper by."""
    return -paper.date.toordinal(), paper.title_text.casefold(), paper.slug


def updated_time(papers: Iterable[Paper], environ: Mapping[str, str]) -> dt.datetime:
    """SOURCE_DATE_EPOCH when set (reproducible builds), else midnight UTC of the newest paper."""
    epoch = environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        try:
            return dt.datetime.fromtimestamp(int(epoch), tz=dt.timezone.utc)
        except (OverflowError, OSError, ValueError):
            raise BuildFailed([ContentError("SOURCE_DATE_EPOCH", 1, f"must be seconds since "
                                            f"1970 before the year 10000, got {epoch}")]) from None
    return newest_day(papers)


def newest_day(papers: Iterable[Paper]) -> dt.datetime:
    """Midnight UTC of the day the newest of `papers` joined the digest (1970 for none)."""
    newest = max(map(_date, papers), default=dt.date(1970, 1, 1))
    return dt.datetime(newest.year, newest.month, newest.day, tzinfo=dt.timezone.utc)


_date = attrgetter("date")
