"""BibTeX entries built from a paper's structured fields, never from cleaned-up text.

Choices, so a reference manager gets what it expects:
- `@inproceedings` with `booktitle` when the paper has a venue, else `@misc` (with
  `eprint`/`archivePrefix` and a `howpublished` line for an arXiv preprint).
- The title is wrapped in a second pair of braces: a digest cannot tell a proper noun
  ("Bayesian", "Transformer") from a title-cased word, and a style that lowercases
  "Bayesian" is wrong while one that keeps "Attacks" capitalised is merely a style.
- Unicode is kept as it is: biber and current LaTeX read UTF-8, and converting to
  accent macros cannot express most scripts. Only the ten characters that mean
  something to TeX are escaped, with macros whose braces stay balanced for BibTeX.
- Keys are ASCII: first author's last name, year, first significant title word.
"""

from __future__ import annotations

import functools
import operator
import re
import unicodedata

from . import urls as paths
from .keyed import KeyedFile, identities
from .memo import KeptValues
from .records import OutputFile, Paper, Site
from .urls import Urls

# why: BibTeX counts braces even after a backslash, so '\{' would unbalance a field;
# the text macros keep every brace paired.
_TEX_SPECIALS = {
    "\\": r"\textbackslash{}", "{": r"\textbraceleft{}", "}": r"\textbraceright{}",
    "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}
_TEX_RE = re.compile("[" + re.escape("".join(_TEX_SPECIALS)) + "]")
_STOPWORDS = frozenset(
    "a an the on of in for to and or with without from by at via is are be do does can "
    "how what why when where which who towards toward into onto over under your our its "
    "not no beyond all".split())
_YEAR = re.compile(r"\b(19[5-9]\d|20\d\d)\b")
_ARXIV_NEW = re.compile(r"^(\d\d)(\d\d)\.\d{4,5}")
_VERBATIM_SPECIAL = re.compile(r"[{}\\\s]")
_NOT_KEY_CHAR = re.compile(r"[^a-z0-9]")
_TITLE_WORD_BREAK = re.compile(r"[\s\-–—:/]+")
_AND = re.compile(r"\band\b", re.IGNORECASE)


def tex_escape(text: str) -> str:
    """Plain text as a BibTeX field value: TeX specials escaped, whitespace collapsed."""
    return _TEX_RE.sub(lambda m: _TEX_SPECIALS[m.group()], " ".join(text.split()))


def verbatim(text: str) -> str:
    """A URL, DOI or eprint id for a verbatim field: only braces, backslashes and spaces encoded."""
    return _VERBATIM_SPECIAL.sub(lambda m: "%{:02X}".format(ord(m.group())), text)


def ascii_word(text: str) -> str:
    """Lowercase ASCII letters and digits of `text` ('Müller-Lee' -> 'mullerlee')."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return _NOT_KEY_CHAR.sub("", folded.lower())


def publication_year(paper: Paper) -> int:
    """The venue's year ('ICLR 2025'), else the arXiv id's (2409.x), else the date added."""
    found = _YEAR.search(paper.venue)
    if found:
        return int(found.group())
    arxiv = _ARXIV_NEW.match(paper.ids.get("arxiv", ""))
    if arxiv:
        return 2000 + int(arxiv.group(1))
    return paper.date.year


def base_key(paper: Paper) -> str:
    """`lastname` + year + first significant title word, all lowercase ASCII."""
    first = paper.authors[0] if paper.authors else ""
    last = first.split(",")[0] if "," in first else (first.split() or [""])[-1]
    words = map(ascii_word, _TITLE_WORD_BREAK.split(paper.title))
    word = next((w for w in words if w and w not in _STOPWORDS), "")
    return f"{ascii_word(last) or 'anon'}{publication_year(paper)}{word}"


def assign_keys(papers: tuple[Paper, ...] | list[Paper]) -> dict[str, str]:
    """slug -> citation key, unique across the site."""
    # why: on a collision the paper added first keeps the plain key and later ones get b, c, ...,
    # so adding a paper never changes the key of one someone has already cited.
    keys: dict[str, str] = {}
    taken: set[str] = set()
    for paper in sorted(papers, key=lambda p: (p.date, p.slug)):
        base = paper.cite_base or base_key(paper)
        key, n = base, 1
        while key in taken:
            n += 1
            key = base + _suffix(n)
        taken.add(key)
        keys[paper.slug] = key
    return keys


def _suffix(n: int) -> str:
    """2 -> 'b', 26 -> 'z', 27 -> 'aa': a letter suffix for the n-th paper with one key."""
    letters = ""
    while n > 0:
        n, rest = divmod(n - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def _author(name: str) -> str:
    # why: a name containing the word 'and' would split in two; braces keep it one author.
    text = tex_escape(name)
    return "{" + text + "}" if _AND.search(text) else text


def entry_fields(paper: Paper, page_url: str) -> list[tuple[str, str]]:
    """(name, already-escaped value) pairs, in a fixed order."""
    links = {link.kind: link.url for link in paper.links}
    fields = [("title", "{" + tex_escape(paper.title) + "}"),
              ("author", " and ".join(_author(a) for a in paper.authors))]
    if paper.venue:
        fields.append(("booktitle", tex_escape(paper.venue)))
    elif "arxiv" in paper.ids:
        fields.append(("howpublished", "arXiv preprint arXiv:" + tex_escape(paper.ids["arxiv"])))
    fields.append(("year", str(publication_year(paper))))
    if "arxiv" in paper.ids:
        fields += [("eprint", verbatim(paper.ids["arxiv"])), ("archivePrefix", "arXiv")]
    if "doi" in paper.ids:
        fields.append(("doi", verbatim(paper.ids["doi"])))
    url = links.get("arxiv") or links.get("openreview") or links.get("doi") or page_url
    fields.append(("url", verbatim(url)))
    if paper.tags:
        fields.append(("keywords", tex_escape(", ".join(t.name for t in paper.tags))))
    return fields


def bibtex_entry(paper: Paper, key: str, page_url: str) -> str:
    """One complete entry, ending in a newline."""
    kind = "inproceedings" if paper.venue else "misc"
    body = "".join(f"  {name} = {{{value}}},\n" for name, value in entry_fields(paper, page_url))
    return f"@{kind}{{{key},\n{body}}}\n"


def paper_entries(papers: tuple[Paper, ...], keys: dict[str, str], urls: Urls,
                  kept: KeptValues | None = None) -> dict[str, str]:
    """Each paper's entry by slug, made once for its page, all.bib and its tags' files; with
    `kept`, an entry made by an earlier build from the same paper, key and URL is reused."""
    kept = kept or KeptValues(None)
    entries = {}
    for paper in papers:
        key, page_url = keys[paper.slug], urls.absolute(paths.paper_file(paper.slug))
        make = functools.partial(bibtex_entry, paper, key, page_url)
        entries[paper.slug] = kept.get((paper.source_key, key, page_url), make) \
            if paper.source_key else make()
    return entries


def site_entries(site: Site, papers: tuple[Paper, ...]) -> str:
    """The entries of `papers`, sorted by key, separated by blank lines."""
    ordered = sorted(papers, key=lambda p: (site.cite_keys[p.slug], p.slug))
    return "\n".join(site.bibtex[p.slug] for p in ordered)


def bib_files(site: Site) -> list[OutputFile]:
    """all.bib and one tags/<tag>.bib per tag, UTF-8."""
    return [bib.made() for bib in bib_plan(site)]


def bib_plan(site: Site) -> list[KeyedFile]:
    """bib_files(), each described by its inputs and made only when asked."""
    return [_keyed(site, paths.ALL_BIB, site.papers)] + [
        _keyed(site, paths.tag_bib_file(g.tag.slug), g.papers) for g in site.tags]


def _keyed(site: Site, path: str, papers: tuple[Paper, ...]) -> KeyedFile:
    # why: in C, by map; all.bib and the tags' files cite 40,000 papers at 10,000 papers
    cited = identities(papers), tuple(map(site.cite_keys.__getitem__, map(_slug, papers)))
    return KeyedFile(path, (site.config.base_url, cited),
                     lambda: site_entries(site, papers).encode("utf-8"))


_slug = operator.attrgetter("slug")
