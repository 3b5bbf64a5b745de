"""BibTeX entries built from a paper's structured fields, never from cleaned-up text.

Choices, so a reference manager gets what it expects:
- `@article` with `journal` when the paper's `citation:` names a journal; `@inproceedings`
  with `booktitle` (the proceedings' full name from `citation:`, else the venue) when it has a
  venue, else `@misc` (with `eprint`/`archivePrefix` and a `howpublished` line for an arXiv
  preprint). What else `citation:` holds (series, editor, publisher, address, volume,
  number, pages) follows, as its source gave it.
- The title is wrapped in a second pair of braces: a digest cannot tell a proper noun
  ("Bayesian", "Transformer") from a title-cased word, and a style that lowercases
  "Bayesian" is wrong while one that keeps "Attacks" capitalised is merely a style.
- A title written in TeX (math, macros) is kept as written, so `$\\ell_1$` stays math for
  LaTeX; a bare `&`, `%`, `#`, `_` or `^` outside math is escaped, and math written outside
  math ('\\alpha-Nets') is put in `$` (model/mathmode.py): LaTeX refuses either outside math
  mode. Other titles are plain text.
- Unicode is kept as it is: biber and current LaTeX read UTF-8, and converting to
  accent macros cannot express most scripts. Only the ten characters that mean
  something to TeX are escaped, with macros whose braces stay balanced for BibTeX, and
  the ligatures ('--', "''", '!`') are broken with '{}', so the text reads back as it is.
- Keys are ASCII: first author's last name, year, first significant title word.
- `url` is the paper's own page at the proceedings, else its arXiv, OpenReview or DOI page,
  else its PDF; the digest's page only when it has none of these (model/citation.work_url).
- An OpenReview id the `url` does not give (it is the arXiv page when there is both) is an
  `openreview` field, and a PDF the `url` does not give (a PMLR paper's) a `pdf` field: BibTeX
  styles ignore a field they do not know, and without them an import of all.bib would lose
  the id or the PDF.
"""

from __future__ import annotations

import re
from typing import Sequence

from ..model import urls as paths
from ..model.citation import openreview_beside, own_pdf, publication_year, work_url
from ..model.mathmode import math_in_math
from ..model.records import FileJob, Paper, PaperParts, Site

# why: BibTeX counts braces even after a backslash, so '\{' would unbalance a field;
# the text macros keep every brace paired.
_TEX_SPECIALS = {
    "\\": r"\textbackslash{}", "{": r"\textbraceleft{}", "}": r"\textbraceright{}",
    "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}
_TEX_RE = re.compile("[" + re.escape("".join(_TEX_SPECIALS)) + "]")
# why: TeX reads '--' as a dash, "''" as a closing quote and '!`' as '¡'; '{}' between the two
# keeps the characters the title has (and an importer reads the same title back)
_LIGATURE = re.compile(r"(?<=-)(?=-)|(?<=`)(?=`)|(?<=')(?=')|(?<=[!?])(?=`)")
_VERBATIM_SPECIAL = re.compile(r"[{}\\\s]")
_AND = re.compile(r"\band\b", re.IGNORECASE)
_WRITTEN_IN_TEX = re.compile(r"\\[A-Za-z]|\$")
_BARE_SPECIAL = re.compile(r"(?<!\\)[&%#_]|(?<!\\)\^")
_MATH = re.compile(r"(?<!\\)(\$\$?)(?:[^$\\]|\\.)*(?<!\\)\1", re.S)


def tex_escape(text: str) -> str:
    """Plain text as a BibTeX field value: TeX specials escaped, ligatures broken,
    whitespace collapsed."""
    escaped = _TEX_RE.sub(lambda m: _TEX_SPECIALS[m.group()], " ".join(text.split()))
    return _LIGATURE.sub("{}", escaped)


def tex_title(title: str) -> str:
    """A title as a BibTeX field value: as written when it is TeX whose braces and dollars
    pair up (math written outside math put in `$`; a bare `&`, `%`, `#`, `_` or `^` outside
    math escaped), else plain text escaped (tex_escape)."""
    text = " ".join(title.split())
    if _WRITTEN_IN_TEX.search(text) and _pairs_up(text):
        text, at, parts = math_in_math(text), 0, []
        for math in _MATH.finditer(text):
            parts += [_bare_specials(text[at:math.start()]), math.group()]
            at = math.end()
        return "".join(parts) + _bare_specials(text[at:])
    return tex_escape(text)


def _bare_specials(text: str) -> str:
    """Text mode's specials escaped: `&`, `%`, `#`, `_` and a caret that is no accent."""
    return _BARE_SPECIAL.sub(lambda m: r"\textasciicircum{}" if m.group() == "^"
                             else "\\" + m.group(), text)


def _pairs_up(tex: str) -> bool:
    """Whether every brace closes in order and the unescaped dollars come in pairs."""
    depth, dollars, escaped = 0, 0, False
    for char in tex:
        if not escaped:
            depth += (char == "{") - (char == "}")
            dollars += char == "$"
            if depth < 0:
                return False
        escaped = char == "\\" and not escaped
    return depth == 0 and dollars % 2 == 0


def verbatim(text: str) -> str:
    """A URL, DOI or eprint id for a verbatim field: only braces, backslashes and spaces encoded."""
    return _VERBATIM_SPECIAL.sub(lambda m: "%{:02X}".format(ord(m.group())), text)


def _author(name: str) -> str:
    # why: a name containing the word 'and' would split in two; braces keep it one author.
    text = tex_escape(name)
    return "{" + text + "}" if _AND.search(text) else text


def entry_fields(paper: Paper, page_url: str) -> list[tuple[str, str]]:
    """(name, already-escaped value) pairs, in a fixed order."""
    cited = paper.citation
    fields = [("title", "{" + tex_title(paper.title) + "}"),
              ("author", " and ".join(_author(a) for a in paper.authors))]
    if cited.journal:
        fields.append(("journal", tex_escape(cited.journal)))
    elif paper.venue or cited.booktitle:
        fields.append(("booktitle", tex_escape(cited.booktitle or paper.venue)))
    elif "arxiv" in paper.ids:
        fields.append(("howpublished", "arXiv preprint arXiv:" + tex_escape(paper.ids["arxiv"])))
    fields += _citation_fields(paper)
    fields.append(("year", str(publication_year(paper))))
    if "arxiv" in paper.ids:
        fields += [("eprint", verbatim(paper.ids["arxiv"])), ("archivePrefix", "arXiv")]
    if "doi" in paper.ids:
        fields.append(("doi", verbatim(paper.ids["doi"])))
    url = work_url(paper, page_url)
    if forum := openreview_beside(paper, url):
        fields.append(("openreview", verbatim(forum)))
    fields.append(("url", verbatim(url)))
    if pdf := own_pdf(paper, url):
        fields.append(("pdf", verbatim(pdf)))
    if paper.tags:
        fields.append(("keywords", tex_escape(", ".join(t.name for t in paper.tags))))
    return fields


def _citation_fields(paper: Paper) -> list[tuple[str, str]]:
    """The series, editors, publisher, address, volume, number and pages its source gave."""
    cited = paper.citation
    fields = [("series", tex_escape(cited.series))] if cited.series else []
    if cited.editor:
        fields.append(("editor", " and ".join(_author(name) for name in cited.editor)))
    fields += [(name, tex_escape(getattr(cited, name)))
               for name in ("publisher", "address", "volume", "number") if getattr(cited, name)]
    if cited.pages:  # why: BibTeX's range is '--'; tex_escape would break it as a ligature
        fields.append(("pages", "--".join(tex_escape(part) for part in cited.pages.split("–"))))
    return fields


def bibtex_entry(paper: Paper, key: str, page_url: str) -> str:
    """One complete entry, ending in a newline."""
    kind = "article" if paper.citation.journal else \
        "inproceedings" if paper.venue or paper.citation.booktitle else "misc"
    body = "".join(f"  {name} = {{{value}}},\n" for name, value in entry_fields(paper, page_url))
    return f"@{kind}{{{key},\n{body}}}\n"


def bib_jobs(site: Site, parts: Sequence[PaperParts]) -> list[FileJob]:
    """all.bib, the entries of every paper sorted by key; `parts` are the papers'
    paperparts.paper_parts(), in the site's order. A tag's BibTeX is cut from it in the reader's
    browser (static/reading/reading.js): a file per tag held each entry again for each of its tags."""
    cited = {paper.slug: (site.cite_keys[paper.slug], part.bibtex)
             for paper, part in zip(site.papers, parts)}
    return [_job(paths.ALL_BIB, site.papers, cited)]


def _job(path: str, papers: tuple[Paper, ...], cited: dict[str, tuple[str, str]]) -> FileJob:
    ordered = sorted(cited[paper.slug] for paper in papers)
    return FileJob(path, bib_file, (tuple(entry for _, entry in ordered),))


def bib_file(entries: tuple[str, ...]) -> bytes:
    """A .bib file of `entries`, separated by blank lines, UTF-8."""
    return "\n".join(entries).encode("utf-8")

