"""papers.json: the digest as CSL-JSON, the format Zotero, Mendeley, pandoc and citeproc read.

Choices, made to agree with all.bib and with what Zotero imports:
- `type` is "article-journal" when the paper's `citation:` names a journal, "paper-conference"
  when there is a venue, else "article" (CSL's type for a preprint; Zotero imports it as a
  Preprint). `container-title` is the journal's or proceedings' full name from `citation:`,
  else the venue; the venue is `container-title-short` when the two differ. The rest of
  `citation:` is `collection-title` (series), `editor`, `publisher`, `publisher-place`
  (address), `volume`, `issue` (number) and `page` (its range with a hyphen, as CSL has it).
- `issued` is the year all.bib gives (model.citation.publication_year: the venue's, else the
  arXiv id's, else the day the paper joined the digest), as `date-parts` of the year only: the
  day a paper joined the digest is not a day it was published.
- `URL` is the work's own page (at the proceedings, arXiv, OpenReview or DOI), else its PDF,
  else its page in this digest (model.citation.work_url, as all.bib's `url`).
- An arXiv id is `number` as "arXiv:<id>": Zotero's "Archive ID", which it maps to CSL
  `number` with that prefix; an arXiv preprint also gets `publisher` "arXiv" (its repository).
- An OpenReview id the `URL` does not give (it is the arXiv page when there is both) is
  `archive` "OpenReview" with `archive_location` the id (Zotero's Archive, Loc. in Archive).
- `abstract` is the curator's text with its LaTeX (all.bib leaves it out); `keyword` the tags.
- Names are split into `given` and `family`, particles ('van', 'de', 'von') kept with the
  family name as Zotero stores it; a one-word name is a `literal`.
Only variables of the CSL 1.0 data schema are written; keys are sorted, items are in the
site's reading order, so the same digest gives the same bytes.
"""

from __future__ import annotations

import json
from typing import Any

from ..model import urls as paths
from ..model.citation import openreview_beside, publication_year, work_url
from ..model.records import FileJob, Paper

PARTICLES = frozenset("van von de der den del della di da du des dos das la le ter ten zu".split())
"""Words that belong to the family name that follows them ('Benjamin Van Durme')."""
SUFFIXES = frozenset("Jr. Jr Sr. Sr II III IV".split())


def csl_name(name: str) -> dict[str, str]:
    """A CSL name: 'Ada Lovelace' -> given 'Ada', family 'Lovelace'; 'Curie, Marie' as BibTeX
    reads it; particles stay with the family name; a single word is a literal name."""
    if "," in name:
        family, given = (part.strip() for part in name.split(",", 1))
        if family and given:
            return {"family": family, "given": given}
    words = name.split()
    suffix = words.pop() if len(words) > 2 and words[-1] in SUFFIXES else ""
    if len(words) < 2:
        return {"literal": " ".join(name.split())}
    start = len(words) - 1
    while start > 1 and words[start - 1].casefold() in PARTICLES:
        start -= 1
    parts = {"given": " ".join(words[:start]), "family": " ".join(words[start:])}
    return {**parts, "suffix": suffix} if suffix else parts


def csl_item(paper: Paper, key: str, page_url: str) -> dict[str, Any]:
    """One paper as a CSL-JSON item; `key` is its citation key in all.bib, `page_url` its page."""
    cited = paper.citation
    kind = "article-journal" if cited.journal else \
        "paper-conference" if paper.venue or cited.booktitle else "article"
    item: dict[str, Any] = {
        "id": key, "type": kind,
        "title": paper.title, "author": [csl_name(name) for name in paper.authors],
        "issued": {"date-parts": [[publication_year(paper)]]},
        "abstract": paper.abstract, "URL": work_url(paper, page_url),
    }
    if forum := openreview_beside(paper, item["URL"]):
        item["archive"], item["archive_location"] = "OpenReview", forum
    if container := cited.journal or cited.booktitle or paper.venue:
        item["container-title"] = container
    if paper.venue and paper.venue != container:
        item["container-title-short"] = paper.venue
    item.update(_citation_variables(paper))
    if "doi" in paper.ids:
        item["DOI"] = paper.ids["doi"]
    if "arxiv" in paper.ids:
        item["number"] = "arXiv:" + paper.ids["arxiv"]
        if not paper.venue:
            item.setdefault("publisher", "arXiv")
    if paper.tags:
        item["keyword"] = ", ".join(tag.name for tag in paper.tags)
    return item


def _citation_variables(paper: Paper) -> dict[str, Any]:
    """The CSL variables of what `citation:` holds besides the container's name."""
    cited = paper.citation
    named = {"collection-title": cited.series, "publisher": cited.publisher,
             "publisher-place": cited.address, "volume": cited.volume, "issue": cited.number,
             "page": cited.pages.replace("–", "-")}
    variables: dict[str, Any] = {name: value for name, value in named.items() if value}
    if cited.editor:
        variables["editor"] = [csl_name(name) for name in cited.editor]
    return variables


def csl_jobs(lines: tuple[str, ...]) -> list[FileJob]:
    """papers.json: the site's papers (so drafts are out exactly when the site leaves them out)
    in its order, given as their paperparts.paper_parts()' item lines: each item as its line
    of JSON, which is hashed faster and held in less memory than its dict."""
    return [FileJob(paths.PAPERS_JSON, csl_file, (lines,))]


def item_line(item: dict[str, Any]) -> str:
    """A CSL-JSON item as papers.json writes it: one line, keys sorted, not ASCII-escaped."""
    # why: json's C encoder serves only compact output (indent=None); indented, the pure-Python
    # one took ~1 s of each 10,000-paper rebuild. An item a line still diffs and reads well.
    return json.dumps(item, ensure_ascii=False, sort_keys=True)


def csl_file(lines: tuple[str, ...]) -> bytes:
    """A CSL-JSON file of items given as item_line()s: one array, an item a line, UTF-8, ending
    in a newline."""
    if not lines:
        return b"[]\n"
    # why: the brackets go on the first and last items, not around the joined text, so the
    # text (18 MB at 10,000 papers) is held twice while it is made (text, bytes), not three times
    items = list(lines)
    items[0] = "[\n" + items[0]
    items[-1] = items[-1] + "\n]\n"
    return ",\n".join(items).encode("utf-8")
