"""Assembling the site: papers in reading order, tags and authors grouped, citation keys,
one 'updated' time."""

from __future__ import annotations

import datetime as dt
from operator import attrgetter
from typing import Iterable, Mapping

from . import urls as paths
from .citation import assign_keys
from .errors import BuildFailed, ContentError
from .records import AuthorGroup, Paper, Site, SiteConfig, Tag, TagGroup
from .slugs import author_slug, name_order


def build_site(papers: Iterable[Paper], config: SiteConfig, updated: dt.datetime) -> Site:
    """The papers in reading order (see reading_order), grouped by tag and by author, with
    citation keys and the number of pages the authors are listed on."""
    ordered = reading_order(papers)
    authors = group_by_author(ordered)
    return Site(config=config, papers=ordered, tags=group_by_tag(ordered), updated=updated,
                cite_keys=assign_keys(ordered), authors=authors,
                author_pages=paths.bucket_count(len(authors), paths.AUTHORS_PER_PAGE))


def reading_order(papers: Iterable[Paper]) -> tuple[Paper, ...]:
    """Newest first, then by title, then by file name: the order of every list of papers."""
    return tuple(sorted(papers, key=lambda p: (-p.date.toordinal(), p.title_text.casefold(), p.slug)))


def group_by_tag(papers: tuple[Paper, ...]) -> tuple[TagGroup, ...]:
    """One group per tag slug, sorted by tag name (see slugs.name_order), each keeping the
    papers' order."""
    groups: dict[str, tuple[Tag, list[Paper]]] = {}
    for paper in papers:
        for tag in paper.tags:
            groups.setdefault(tag.slug, (tag, []))[1].append(paper)
    ordered = sorted(groups.values(), key=lambda group: (name_order(group[0].name), group[0].slug))
    return tuple(TagGroup(tag, tuple(members)) for tag, members in ordered)


def group_by_author(papers: tuple[Paper, ...]) -> tuple[AuthorGroup, ...]:
    """One group per author slug, sorted by slug, each keeping the papers' order. Spellings
    that share a slug are one author (see model.slugs.author_slug); a name with no letters,
    which has no slug, has no page."""
    names: dict[str, list[str]] = {}
    members: dict[str, list[Paper]] = {}
    for paper in papers:
        for name in paper.authors:
            slug = author_slug(name)
            if not slug:
                continue
            spellings, listed = names.setdefault(slug, []), members.setdefault(slug, [])
            if name not in spellings:
                spellings.append(name)
            # why: one paper may name an author twice, or in two spellings
            if not listed or listed[-1] is not paper:
                listed.append(paper)
    return tuple(AuthorGroup(slug, names[slug][0], tuple(names[slug][1:]), tuple(members[slug]))
                 for slug in sorted(names))


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
