"""What each paper alone puts in the site's files, made in one step per paper.

A paper's card, BibTeX entry, CSL-JSON item and list.json entry depend on that paper, its
citation key and the site's settings only. Made together they are one result per paper,
which a rebuild keeps from before for every paper it did not change, in one lookup; made
apart, each file that gathers them would make all 10,000 again for one edit (~1.1 s)."""

from __future__ import annotations

from ..model import urls as paths
from ..model.records import Paper, PaperParts, Site, Templates
from ..model.urls import Urls
from .bibtex import bibtex_entry
from .csljson import csl_item, item_line
from .interface import interface
from .lists import list_entry_json
from .render import render_card


def parts_inputs(site: Site) -> list[tuple[Paper, str, str, int, str, int]]:
    """What each paper's parts are made from, as paper_parts() is given it, in the site's order."""
    return [parts_input(site, paper) for paper in site.papers]


def parts_input(site: Site, paper: Paper) -> tuple[Paper, str, str, int, str, int]:
    """What one paper's parts are made from on `site` (parts_inputs)."""
    config = site.config
    return (paper, site.cite_keys[paper.slug], config.base_url, config.home_excerpt_words,
            config.language, site.author_pages)


def paper_parts(templates: Templates, paper: Paper, cite_key: str, base_url: str,
                excerpt_words: int, language: str, author_pages: int) -> PaperParts:
    """A paper's parts on a site at `base_url`, in its `language`, whose authors are listed
    on `author_pages` pages."""
    urls = Urls(base_url)
    page_url = urls.absolute(paths.paper_file(paper.slug))
    return PaperParts(
        card=render_card(templates, paper, base_url, excerpt_words, language, author_pages),
        bibtex=bibtex_entry(paper, cite_key, page_url),
        csl=item_line(csl_item(paper, cite_key, page_url)),
        listed=list_entry_json(paper, cite_key, urls, interface(templates, language),
                               author_pages))
