"""Quick pages: the page of each paper a save changed, and the pages of lists that show it,
shown by the preview server before the full build is done (docs/explanation/preview-server.md).

A full rebuild of a large digest takes seconds (every build is a full build in meaning; see
docs/explanation/build-and-cache.md). The curator who saves a paper is looking at that paper,
or at a list that shows it, so the server first makes its page again from the last build with
only the saved papers replaced (their related papers as the last build found them, and their
neighbours too if they changed lists; their citation keys found again if a new title, first
author or year changed them), and the pages of home, of its tags and of its authors that show
its row, when that row changed and every saved paper stays in the lists it was in
(in_the_same_lists: the same day, tags and authors), put in reading order again if a title
moved it (reordered), with every page between where it was and where it is: those pages are
then exactly what the full build makes; the pages of the papers that link to it
(papers_showing); and the search page if it shows it among the papers added last. It serves
them from memory and reloads the tabs showing them; then it runs the full build, which
replaces every quick page and reloads the tabs showing a page it made otherwise, or any other
file it changed (serve/livereload.py). Hugo's server does the same ("fast render mode").
Anything else a save may change (a new, renamed, removed or draft paper, site.yaml, a
template, a paper that does not build) waits for the full build as before.
"""

from __future__ import annotations

import bisect
from dataclasses import replace
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from ..content.documents import PAPERS_DIR, read_content_file
from ..content.papers import check_file
from ..model.citation import assign_keys
from ..model.groupings import AUTHORS, TAGS
from ..model.records import Group, Paper, PaperParts, Site, SourceFile
from ..model.site import reading_key
from ..model.urls import Urls
from ..outputs.kinds import groupings, quick_page_jobs
from ..outputs.pages import paper_link
from ..outputs.paperparts import paper_parts, parts_input
from .pipeline import Made


def quick_pages(made: Made, changed: set[str]) -> dict[str, bytes]:
    """The output path and bytes of the page of each paper among the `changed` paths, made from
    the last build `made` with those papers read again, and of each page of a list that shows
    one whose row changed or that moved (and of the pages between) and of each paper that
    links to one (papers_showing), when every saved paper stays in the lists it was in
    (in_the_same_lists); none unless every changed path is a paper of that build that still
    builds, and stays in the site."""
    folder = (made.options.content / PAPERS_DIR).resolve()
    files = [Path(path) for path in changed]
    place = {paper.slug: n for n, paper in enumerate(made.site.papers)}
    if not files or any(f.suffix != ".md" or f.parent.resolve() != folder or f.stem not in place
                        for f in files):
        return {}
    papers, parts = list(made.site.papers), list(made.parts)
    for file in files:
        try:
            checked = check_file(SourceFile(file, read_content_file(file)), made.config.macros)
        except OSError:
            return {}
        if checked.paper is None or (checked.paper.draft and not made.options.drafts):
            return {}
        papers[place[file.stem]] = checked.paper
    site = replace(made.site, papers=tuple(papers))
    if any(site.papers[place[f.stem]].cite_base != made.site.papers[place[f.stem]].cite_base
           for f in files):  # why: its citation key is on its page (~0.01-0.05 s at 10,000)
        site = replace(site, cite_keys=assign_keys(site.papers))
    for file in files:
        n = place[file.stem]
        parts[n] = paper_parts(made.theme.templates, *parts_input(site, site.papers[n]))
    slugs = [f.stem for f in files]
    moved = [slug for slug in slugs if not in_order(site.papers, place[slug])]
    rows = [slug for slug in slugs
            if parts[place[slug]].card != made.parts[place[slug]].card or slug in moved]
    # why: every saved paper, its row changed or not: one whose authors or tags changed would
    # show in the others' lists (its authors' lines) as the last build had it
    same_lists = all(in_the_same_lists(made.site.papers[place[slug]], site.papers[place[slug]])
                     for slug in slugs)
    listed = rows if same_lists else []
    if listed and moved:
        site, parts = reordered(site, parts, slugs)
    # why: in the lists it was in, it is where the full build puts it, and so are the papers
    # beside it; else they wait for the full build too
    showing = papers_showing(made.site, site, made.related, slugs) if same_lists else []
    jobs = quick_page_jobs(site, made.theme, parts, made.related, slugs, listed, made.site,
                           showing)
    return {job.path: job.made().data for job in jobs}


def papers_showing(before: Site, site: Site, related: Mapping[str, tuple[str, ...]],
                   slugs: list[str]) -> list[str]:
    """The other papers whose pages show a link to one of the papers `slugs` saved again that
    changed (its title or venue) or moved: those beside it in reading order in `site` (and in
    the last build's site `before`, if it moved: they are beside others now), and those whose
    related papers, as the last build found them, hold it."""
    urls, language = Urls(site.config.base_url), site.config.language
    now = {paper.slug: n for n, paper in enumerate(site.papers)}
    was = {paper.slug: n for n, paper in enumerate(before.papers)}
    found: list[str] = []
    for slug in slugs:
        old, new = before.papers[was[slug]], site.papers[now[slug]]
        moved = now[slug] != was[slug]
        if not moved and paper_link(old, urls, language) == paper_link(new, urls, language):
            continue
        places = [(site.papers, now[slug])] + ([(before.papers, was[slug])] if moved else [])
        for papers, at in places:
            found.extend(papers[n].slug for n in (at - 1, at + 1) if 0 <= n < len(papers))
        found.extend(other for other, theirs in related.items() if slug in theirs)
    return [other for other in dict.fromkeys(found) if other not in slugs]


def in_the_same_lists(old: Paper, new: Paper) -> bool:
    """Whether a paper saved again is in the lists it was in, and as they show it: the same
    day, tags, authors and kind of presentation (home's filter). Then those lists are the last
    build's with its row made again, and put in reading order again if its title moved it."""
    return (old.date, old.tags, old.authors, old.presentation) == \
        (new.date, new.tags, new.authors, new.presentation)


def in_order(papers: tuple[Paper, ...], n: int) -> bool:
    """Whether the paper at `n` is still in reading order between the papers beside it."""
    beside = papers[max(n - 1, 0):n + 2]
    return all(reading_key(a) < reading_key(b) for a, b in zip(beside, beside[1:]))


def reordered(site: Site, parts: list[PaperParts], slugs: list[str]
              ) -> tuple[Site, list[PaperParts]]:
    """`site` (the last build's, the papers `slugs` saved again, in the lists they were in)
    with every list in reading order again, as the full build sorts them: its papers, their
    `parts` with them, and each group that holds a saved paper. Each saved paper is put back
    in its place, the others left as they were (~0.01 s at 10,000 papers)."""
    wanted = set(slugs)
    order = _in_place(site.papers, range(len(site.papers)), wanted)
    saved = {site.papers[n].slug: site.papers[n] for n in order if site.papers[n].slug in wanted}
    groups = dict(site.groups)
    for grouping in dict.fromkeys((TAGS, AUTHORS, *groupings())):  # why: as build_site's
        held = {slug for paper in saved.values() for _, slug in grouping.values(paper)}
        groups[grouping.name] = tuple(
            _reordered_group(group, saved) if group.slug in held else group
            for group in site.groups.get(grouping.name, ()))
    return (replace(site, papers=tuple(site.papers[n] for n in order), groups=groups),
            [parts[n] for n in order])


def _reordered_group(group: Group, saved: dict[str, Paper]) -> Group:
    """The group with the saved papers it holds in place of the last build's, in reading order."""
    papers = [saved.get(paper.slug, paper) for paper in group.papers]
    return replace(group, papers=tuple(papers[n] for n in _in_place(papers, range(len(papers)),
                                                                      set(saved))))


def _in_place(papers: Sequence[Paper], numbers: Iterable[int], moved: set[str]) -> list[int]:
    """The `numbers` of `papers`, in reading order, where those of the papers `moved` may be out
    of it and the others are in it: each moved one put back where it belongs."""
    numbers = list(numbers)
    order = [n for n in numbers if papers[n].slug not in moved]
    for n in numbers:
        if papers[n].slug in moved:
            bisect.insort(order, n, key=lambda m: reading_key(papers[m]))
    return order


def page_urls(made: Made, pages: dict[str, bytes]) -> list[str]:
    """The URL paths of quick `pages` (by output path), as a tab's address shows them, in their
    order: the saved papers' pages first."""
    urls = Urls(made.config.base_url)
    return [urls.path(path) for path in pages]
