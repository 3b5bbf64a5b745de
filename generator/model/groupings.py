"""Groupings: a field of the paper whose values gather papers into pages, and the one rule
for spellings. Tags and authors are groupings; a page kind may add another (see
docs/how-to/add-a-page-kind.md).

The rule: spellings whose slugs are equal are one group, named as its newest paper spells it;
the others are kept as its `other_names` ('Zoe Muller' beside 'Zoë Müller', 'llm' beside
'LLM'), and its page says them. Nothing is refused: a slug is the page's address, and two
pages at one address cannot be. `build.py check` reports two spellings of one tag, which the
curator can unify (content/digest_checks.py)."""

from __future__ import annotations

from typing import Iterable

from .records import Group, Grouping, Paper
from .slugs import name_order


def group_papers(papers: tuple[Paper, ...], grouping: Grouping) -> tuple[Group, ...]:
    """One group per slug of `grouping`'s values, each keeping the papers' order (a paper
    once, whichever spellings of it it has), sorted by the grouping's order."""
    names: dict[str, list[str]] = {}
    members: dict[str, list[Paper]] = {}
    for paper in papers:
        for name, slug in grouping.values(paper):
            if not slug:
                continue
            spellings, listed = names.setdefault(slug, []), members.setdefault(slug, [])
            if name not in spellings:
                spellings.append(name)
            if not listed or listed[-1] is not paper:
                listed.append(paper)
    groups = (Group(slug, spelt[0], tuple(spelt[1:]), tuple(members[slug]))
              for slug, spelt in names.items())
    return tuple(sorted(groups, key=grouping.order))


def _tags(paper: Paper) -> Iterable[tuple[str, str]]:
    return ((tag.name, tag.slug) for tag in paper.tags)


def _authors(paper: Paper) -> Iterable[tuple[str, str]]:
    return zip(paper.authors, paper.author_slugs)


TAGS = Grouping("tags", _tags, order=lambda group: (name_order(group.name), group.slug))
"""The curator's tags, by name (slugs.name_order)."""
AUTHORS = Grouping("authors", _authors, order=lambda group: group.slug)
"""The papers' authors, by slug (model.slugs.author_slug): names one slug apart only by case,
accents or punctuation are one author; a name with no letters has no page."""
