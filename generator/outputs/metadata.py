"""What a page's <head> tells search engines, social cards and reference managers."""

from __future__ import annotations

import json
from typing import Any

from markupsafe import Markup

from ..model import urls as paths
from ..model.citation import publication_year
from ..model.languages import og_locale
from ..model.records import Paper, SiteConfig
from ..model.urls import Urls

# why: inside <script> the HTML parser ends the element at the first '</script', whatever
# the JSON means; '<', '>' and '&' as \u escapes are the same JSON and cannot end it.
_SCRIPT_SAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                "\u2028": "\\u2028", "\u2029": "\\u2029"}
SAME_AS_KINDS = ("arxiv", "openreview", "doi")


def script_json(data: Any) -> Markup:
    """JSON that is safe as the text of a <script> element, keys sorted."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    for char, escape in _SCRIPT_SAFE.items():
        text = text.replace(char, escape)
    return Markup(text)


def page_meta(config: SiteConfig, path: str, title: str, description: str,
              paper: Paper | None = None) -> dict[str, Any]:
    """Canonical URL, description, OpenGraph and Twitter tags; JSON-LD and Highwire for papers."""
    urls = Urls(config.base_url)
    canonical = "" if path == paths.NOT_FOUND else urls.absolute(path)
    description = description or config.description or config.subtitle or config.title
    og = [("og:title", title or config.title), ("og:description", description),
          ("og:type", "article" if paper else "website"), ("og:site_name", config.title),
          ("og:locale", og_locale(config.language))]
    if canonical:
        og.append(("og:url", canonical))
    twitter = [("twitter:card", "summary")] + ([("twitter:site", config.twitter)]
                                               if config.twitter else [])
    citation = citation_tags(paper) if paper and config.citation_tags else []
    return {"canonical": canonical, "description": description, "og": og, "names": twitter + citation,
            "noindex": path == paths.NOT_FOUND,
            "json_ld": script_json(scholarly_article(paper, canonical)) if paper else ""}


def scholarly_article(paper: Paper, url: str) -> dict[str, Any]:
    """schema.org ScholarlyArticle of a paper, for JSON-LD."""
    data: dict[str, Any] = {
        "@context": "https://schema.org", "@type": "ScholarlyArticle",
        "headline": paper.title_text, "url": url,
        "author": [{"@type": "Person", "name": name} for name in paper.authors],
        "datePublished": str(publication_year(paper)),
    }  # why: no "abstract": it is the page's own text, and here it was a tenth of the page
    if paper.tags:
        data["keywords"] = [tag.name for tag in paper.tags]
    same_as = [link.url for link in paper.links if link.kind in SAME_AS_KINDS]
    if same_as:
        data["sameAs"] = same_as
    if paper.venue:
        data["publication"] = {"@type": "PublicationEvent", "name": paper.venue}
    return data


def citation_tags(paper: Paper) -> list[tuple[str, str]]:
    """Highwire Press `citation_*` meta tags, as Google Scholar and Zotero read them."""
    tags = [("citation_title", paper.title_text)]
    tags += [("citation_author", name) for name in paper.authors]
    tags.append(("citation_publication_date", str(publication_year(paper))))
    if paper.venue:
        tags.append(("citation_conference_title", paper.venue))
    tags += [("citation_pdf_url", link.url) for link in paper.links if link.kind == "pdf"]
    if "doi" in paper.ids:
        tags.append(("citation_doi", paper.ids["doi"]))
    return tags
