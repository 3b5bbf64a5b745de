"""Quick pages: the page of each paper a save changed, and the pages of lists that show it,
shown by the preview server before the full build is done (docs/explanation/preview-server.md).

A full rebuild of a large digest takes seconds (every build is a full build in meaning; see
docs/explanation/build-and-cache.md). The curator who saves a paper is looking at that paper,
or at a list that shows it, so the server first makes its page again from the last build with
only the saved papers replaced (their related papers, neighbours and citation keys as the last
build found them), and the pages of home, of its tags and of its authors that show its row,
when that row changed and every saved paper stays where and as it was in them
(lists_unmoved: then those pages are exactly what the full build makes); it serves them from
memory and reloads the tabs showing them; then it runs the full build, which replaces every
quick page and reloads every tab. Hugo's server does the same ("fast render mode"). Anything
else a save may change (a new, renamed, removed or draft paper, site.yaml, a template, a paper
that does not build) waits for the full build as before.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..content.documents import PAPERS_DIR, read_content_file
from ..content.papers import check_file
from ..model.records import Paper, SourceFile
from ..model.site import reading_key
from ..model.urls import Urls
from ..outputs.kinds import quick_page_jobs
from ..outputs.paperparts import paper_parts, parts_inputs
from .pipeline import Made


def quick_pages(made: Made, changed: set[str]) -> dict[str, bytes]:
    """The output path and bytes of the page of each paper among the `changed` paths, made from
    the last build `made` with those papers read again, and of each page of a list that shows
    one whose row changed, when every saved paper stays where and as it was in the lists
    (lists_unmoved); none unless every changed path is a paper of that build that still
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
    inputs = parts_inputs(site)
    for file in files:
        n = place[file.stem]
        parts[n] = paper_parts(made.theme.templates, *inputs[n])
    slugs = [f.stem for f in files]
    rows = [slug for slug in slugs if parts[place[slug]].card != made.parts[place[slug]].card]
    # why: every saved paper, its row changed or not: one that moved, or whose authors or tags
    # changed, would show in the others' lists (its authors' lines) as the last build had it
    listed = rows if all(lists_unmoved(made.site.papers, site.papers, place[slug])
                         for slug in slugs) else []
    jobs = quick_page_jobs(site, made.theme, parts, made.related, slugs, listed)
    return {job.path: job.made().data for job in jobs}


def lists_unmoved(before: tuple[Paper, ...], after: tuple[Paper, ...], n: int) -> bool:
    """Whether the paper at `n` of `after` (the last build's papers `before`, a few saved again)
    is in every list where and as it was: the same day, tags, authors and kind of presentation
    (home's filter), and still in reading order between the papers beside it. Then a list that
    shows it is the last build's with its row made again, as the full build will make it."""
    old, new = before[n], after[n]
    if (old.date, old.tags, old.authors, old.presentation) != \
            (new.date, new.tags, new.authors, new.presentation):
        return False
    beside = after[max(n - 1, 0):n + 2]
    return all(reading_key(a) < reading_key(b) for a, b in zip(beside, beside[1:]))


def page_urls(made: Made, pages: dict[str, bytes]) -> list[str]:
    """The URL paths of quick `pages` (by output path), as a tab's address shows them, in their
    order: the saved papers' pages first."""
    urls = Urls(made.config.base_url)
    return [urls.path(path) for path in pages]
