"""A source's keywords as the digest's tags: spelled as the digest (or an earlier paper of the
same import) spells them, and a warning when one is near another tag. Every tag is filed once
in indexes, so a whole conference's keywords cost linear time."""

from __future__ import annotations

from ..model.identity import TagIndex, normalise_tag
from ..model.slugs import slugify


class TagSpeller:
    """The tags of one import: each spelled as the digest or an earlier paper of the import
    spells it, the warnings collected, and every new tag remembered for the next paper."""

    def __init__(self, digest: list[str], added: list[str] | tuple[str, ...] = ()):
        self.digest = list(dict.fromkeys(digest))
        self.added: list[str] = []
        self.warnings: list[str] = []
        self._same: dict[str, tuple[int, str]] = {}
        """A tag's normal form and its page, each to the first tag filed with it (and when)."""
        self._near_digest = TagIndex()
        self._near_added = TagIndex()
        for tag in self.digest:
            self._file(tag, self._near_digest)
        for tag in added:
            self._file(tag, self._near_added)
            self.added.append(tag)

    def spelling(self, name: str) -> tuple[str, str]:
        """(the tag to write for `name`, a warning or ''), remembering nothing; see
        digest_spelling."""
        tag = normalise_tag(name)
        if not tag:
            return "", f"tag '{name}' has no letters or digits; left out"
        hits = [self._same[key] for key in ("name:" + tag, "page:" + _tag_page(tag))
                if key in self._same]
        if hits:
            return min(hits)[1], ""
        for index, whose in ((self._near_digest, "the digest's"),
                             (self._near_added, "this import's new")):
            if near := index.near(tag):
                names = ", ".join(f"'{other}'" for other in near)
                return tag, f"new tag '{tag}' is near {whose} {names}; kept as it is: rename " \
                            "one if they are the same topic"
        return tag, ""

    def spell(self, name: str) -> str:
        """The tag to write for `name`, '' when nothing is left of it; a new one is remembered."""
        tag, warning = self.spelling(name)
        self.warnings += [warning] if warning else []
        if tag and f"name:{normalise_tag(tag)}" not in self._same:
            self._file(tag, self._near_added)
            self.added.append(tag)
        return tag

    def _file(self, tag: str, index: TagIndex) -> None:
        index.add(tag)
        for key in ("name:" + normalise_tag(tag), "page:" + _tag_page(tag)):
            self._same.setdefault(key, (len(self._same), tag))


def digest_spelling(name: str, known: list[str], added: list[str] | None = None) -> tuple[str, str]:
    """A source's tag as the digest files it, and a warning when it is near another tag.

    'Large Language Models' becomes 'large-language-models'; a tag the digest already spells
    otherwise ('LLM' for 'llm') takes the digest's spelling; a tag only near one ('llms' by
    'llm') is kept, with a warning naming both. `added` are the tags new in this import, so
    'LLM' and 'llms' from two entries of one file are warned of as well.
    ('', warning) when nothing is left of it.
    """
    return TagSpeller(known, added or ()).spelling(name)


def _tag_page(name: str) -> str:
    # why: as papers.py names a tag's page; two spellings with one page fail the build
    return slugify(name, max_length=80, ascii_only=False)
