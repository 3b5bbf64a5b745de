"""Turning a paper's `links:` values (ids or URLs) into checked http(s) URLs."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from ..model.records import LINK_KINDS, Link

LABELS = {"arxiv": "arXiv", "openreview": "OpenReview", "pdf": "PDF", "code": "Code",
          "project": "Project page", "doi": "DOI", "page": ""}
PAGE_SITES = {
    "aclanthology.org": "ACL Anthology", "aclweb.org": "ACL Anthology",
    "proceedings.mlr.press": "PMLR", "proceedings.neurips.cc": "NeurIPS Proceedings",
    "papers.nips.cc": "NeurIPS Proceedings", "papers.neurips.cc": "NeurIPS Proceedings",
    "openaccess.thecvf.com": "CVF Open Access", "ojs.aaai.org": "AAAI", "ijcai.org": "IJCAI",
    "jmlr.org": "JMLR", "dl.acm.org": "ACM DL", "ieeexplore.ieee.org": "IEEE Xplore",
    "link.springer.com": "Springer", "sciencedirect.com": "ScienceDirect",
    "nature.com": "Nature", "isca-archive.org": "ISCA Archive",
}
"""Sites that give a paper its own page (its landing page), by host, with the name a `page`
link is shown with; a page elsewhere is shown with its host."""
_ID_PATTERNS = {
    "arxiv": re.compile(r"^(?:\d{4}\.\d{4,5}|[a-z][a-z.-]*/\d{7})(?:v\d+)?$"),
    "openreview": re.compile(r"^[A-Za-z0-9_-]{5,}$"),
    # why: Crossref's recommended pattern (it matches all but a few in a thousand DOIs); no
    # character in it means anything to HTML, XML or BibTeX
    "doi": re.compile(r"^10\.\d{4,9}/[-._;()/:A-Za-z0-9]+$"),
}
_ID_URLS = {
    "arxiv": "https://arxiv.org/abs/{}",
    "openreview": "https://openreview.net/forum?id={}",
    "doi": "https://doi.org/{}",
}
_ID_FROM_URL = {
    "arxiv": re.compile(r"^https?://(?:www\.)?arxiv\.org/(?:abs|pdf)/(.+?)(?:\.pdf)?$"),
    "openreview": re.compile(r"^https?://openreview\.net/(?:forum|pdf)\?id=([A-Za-z0-9_-]+)$"),
    "doi": re.compile(r"^https?://(?:dx\.)?doi\.org/(.+)$"),
}
EXAMPLES = {"arxiv": "'2406.16257'", "openreview": "oe51Q5Uo37", "doi": "10.1000/xyz123",
            "pdf": "https://...", "code": "https://github.com/...", "project": "https://...",
            "page": "https://aclanthology.org/..."}


class LinkProblem(ValueError):
    """A link value that is neither a valid id nor an http(s) URL."""


def is_http_url(value: str) -> bool:
    """True for an absolute http:// or https:// URL with a host and no spaces."""
    try:
        parts = urlsplit(value)
    except ValueError:  # why: urlsplit raises on a broken IPv6 host ('http://[x')
        return False
    return (parts.scheme in ("http", "https") and bool(parts.netloc)
            and not re.search(r"[\s\x00-\x1f\x7f]", value))


def resolve(kind: str, value: str) -> tuple[str, str | None]:
    """(URL, stable id or None) for one link value, or LinkProblem saying how to fix it."""
    pattern = _ID_PATTERNS.get(kind)
    if pattern and pattern.match(value):
        return _ID_URLS[kind].format(value), value
    if is_http_url(value):
        found = _ID_FROM_URL.get(kind)
        match = found.match(value) if found else None
        # why: an id taken from a URL is an id only if it is one ('/abs/</script>' is not)
        given = match.group(1) if match and pattern and pattern.match(match.group(1)) else None
        return value, given
    what = "an id or an http(s) URL" if pattern else "an http(s) URL"
    raise LinkProblem(f"links.{kind} must be {what}, e.g. {kind}: {EXAMPLES[kind]}; got '{value}'")


SHOWN_ORDER = ("pdf", *(kind for kind in LINK_KINDS if kind != "pdf"))
"""The order a paper's links are shown in: the PDF, what most readers came for, first."""
_PDF_URLS = {"arxiv": "https://arxiv.org/pdf/{}", "openreview": "https://openreview.net/pdf?id={}"}
"""Where a paper's PDF is, given its id on a site that serves one; arXiv's is tried first."""


def build_links(urls: dict[str, str]) -> tuple[Link, ...]:
    """Links in SHOWN_ORDER; a PDF link is derived from arXiv or OpenReview when none is given."""
    resolved = dict(urls)
    for kind, pdf_url in _PDF_URLS.items():
        given = _id_in(kind, resolved.get(kind, ""))
        if "pdf" not in resolved and given:
            resolved["pdf"] = pdf_url.format(given)
    return tuple(Link(kind, LABELS[kind] or page_site(resolved[kind]), resolved[kind])
                 for kind in SHOWN_ORDER if kind in resolved)


def page_site(url: str) -> str:
    """The name of the site a paper's page is on ('ACL Anthology'), else its host."""
    host = (urlsplit(url).hostname or "").removeprefix("www.")
    return next((name for site, name in PAGE_SITES.items()
                 if host == site or host.endswith("." + site)), host)


def _id_in(kind: str, url: str) -> str | None:
    """The id of `kind` in a resolved link URL, None when the URL holds none."""
    match = _ID_FROM_URL[kind].match(url)
    return match.group(1) if match and _ID_PATTERNS[kind].match(match.group(1)) else None
