"""Checks across the whole digest that no single file shows: one paper entered twice, two
spellings of one tag, a published paper a reader cannot follow anywhere or that still holds a
placeholder. `build.py check` prints them as warnings, `check --strict` as errors.

'The same paper' and 'near tags' are model.identity's rules, the ones importing uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

from ..model.errors import display_path
from ..model.identity import TagIndex, identities, shared_identity
from .papers import PLACEHOLDER, Checked

FindingKind = Literal["duplicate", "near-tags", "no-link", "placeholder", "latex"]


@dataclass(frozen=True, order=True)
class Finding:
    """Something the digest builds with but probably should not: where, what, how to fix it."""

    path: str
    line: int
    """The line of the field concerned (for a placeholder, the line it is on; for a missing
    link, the `links:` line, else the `title:` line), or 1 when nothing better is known."""
    message: str
    kind: FindingKind

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def digest_findings(checked: Sequence[Checked]) -> list[Finding]:
    """Every finding about the papers among `checked` (drafts included), sorted by file."""
    papers = [c for c in checked if c.paper is not None]
    return sorted(duplicate_papers(papers) + near_tag_spellings(papers)
                  + unlinked_papers(papers) + placeholders_left(papers) + latex_guesses(papers))


def duplicate_papers(checked: Sequence[Checked]) -> list[Finding]:
    """One finding per file that is the same paper as a file before it: sharing an arXiv,
    OpenReview or DOI id, or a title equal but for case and punctuation when no id of one kind
    differs (model.identity.shared_identity: two 'Introduction's with two arXiv ids are two)."""
    seen: dict[str, list[tuple[Checked, tuple[str, ...]]]] = {}
    findings = []
    for c in checked:
        names = identities(_links(c), c.paper.title)
        named: set[str] = set()
        for name in names:
            # why: the first earlier file that is this paper by this name; the strongest is enough
            earlier = next((e for e, theirs in seen.get(name, ()) if shared_identity(names, theirs)),
                           None)
            shown = display_path(earlier.paper.source) if earlier else ""
            if earlier and shown not in named:
                named.add(shown)
                kind = name.split(":")[0]
                line = c.title_line if kind == "title" else dict(c.id_lines).get(kind, 1)
                findings.append(Finding(
                    display_path(c.paper.source), line,
                    f"the same paper as {shown}: both have {identity_text(name)}; keep one "
                    "of the two files", "duplicate"))
            seen.setdefault(name, []).append((c, names))
    return findings


def near_tag_spellings(checked: Sequence[Checked]) -> list[Finding]:
    """One finding per pair of tags that differ only in case, separators or a plural, or where
    one is the other's initials; reported at a file of the spelling fewer papers use."""
    users: dict[str, list[Checked]] = {}
    for c in checked:
        for tag in c.paper.tags:
            users.setdefault(tag.name, []).append(c)
    names = sorted(users)
    index = TagIndex(names)
    findings = []
    for name in names:
        for other in index.near(name):
            if other < name:
                continue  # why: near_tags is symmetric, so each pair is seen twice
            rare, common = sorted((name, other), key=lambda tag: (len(users[tag]), tag))
            where = users[rare][0]
            slugs = {tag.slug for c in (where, users[common][0]) for tag in c.paper.tags
                     if tag.name in (rare, common)}
            # why: spellings of one slug already share a page (model/groupings.py's rule)
            advice = ("they share one page, named as its newest paper spells it; spell them "
                      "the same" if len(slugs) == 1 else "spell them the same so they share "
                      "one page")
            findings.append(Finding(
                display_path(where.paper.source), where.tags_line,
                f"tag '{rare}' (in {_files(users[rare])}) is near tag '{common}' (in "
                f"{_files(users[common])}); {advice}", "near-tags"))
    return findings


def unlinked_papers(checked: Sequence[Checked]) -> list[Finding]:
    """Published papers without any link: a reader has no way to the paper itself."""
    return [Finding(display_path(c.paper.source), c.links_line,
                    "no links: add links.arxiv, links.openreview, links.doi or links.pdf so a "
                    "reader can find the paper", "no-link")
            for c in checked if not c.paper.links and not c.paper.draft]


def placeholders_left(checked: Sequence[Checked]) -> list[Finding]:
    """Published papers whose title, authors or abstract still hold a `build.py new` placeholder."""
    findings = []
    for c in checked:
        paper = c.paper
        fields = {"title": [paper.title], "authors": paper.authors, "abstract": [paper.abstract]}
        for field, values in fields.items():
            if not paper.draft and any(value.startswith(PLACEHOLDER) for value in values):
                findings.append(Finding(
                    display_path(paper.source), dict(c.placeholder_lines).get(field, 1),
                    f"'{field}' still holds a placeholder "
                    f"'{PLACEHOLDER} ...'; write the paper's {field}", "placeholder"))
    return findings


def latex_guesses(checked: Sequence[Checked]) -> list[Finding]:
    """What the LaTeX reader had to guess (unknown macros, an unbalanced $): the page shows a
    best guess, which a strict check does not take for right."""
    return [Finding(w.path, w.line, w.message, "latex") for c in checked for w in c.warnings]


def _links(c: Checked) -> dict[str, str]:
    return {link.kind: link.url for link in c.paper.links}


_IDENTITY_TEXT = {"arxiv": "the arXiv id {}", "openreview": "the OpenReview id {}",
                  "doi": "the DOI {}", "title": "the title '{}' (case and punctuation aside)"}


def identity_text(name: str) -> str:
    """An identity from model.identity.identities() as a sentence says it."""
    kind, value = name.split(":", 1)
    return _IDENTITY_TEXT[kind].format(value)


def _files(users: list[Checked], shown: int = 3) -> str:
    """'a.md, b.md and 4 more': the files of a tag's papers, without flooding the terminal."""
    names = [display_path(c.paper.source) for c in users]
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more
