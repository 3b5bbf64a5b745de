import json

from factories import make_paper, make_site, theme
from generator.model.urls import Urls
from generator.outputs.bibtex import bibtex_entry
from generator.outputs.csljson import csl_item, item_line
from generator.outputs.interface import interface
from generator.outputs.lists import list_entry_json
from generator.outputs.render import render_card
from generator.outputs.paperparts import paper_parts, parts_inputs


def test_parts_are_made_from_each_paper_its_key_and_the_sites_settings_in_reading_order():
    site = make_site([make_paper("old", title="Zebra", tags=["llm"]), make_paper("new", title="Apple")],
                     language="zh")
    assert [(paper.slug, key, rest) for paper, key, *rest in parts_inputs(site)] == [
        ("new", "lovelace2025apple", [site.config.base_url, site.config.home_excerpt_words, "zh", 1]),
        ("old", "lovelace2025zebra", [site.config.base_url, site.config.home_excerpt_words, "zh", 1])]


def test_a_papers_parts_are_what_each_file_of_the_site_makes_of_it():
    site = make_site([make_paper("x", title="Card <Title> $x^2$", tags=["llm"],
                                 ids={"arxiv": "2406.16257"})])
    templates = theme().templates
    (inputs,) = parts_inputs(site)
    paper, key, base_url, words, language, author_pages = inputs
    parts = paper_parts(templates, *inputs)
    page = "https://example.org/digest/papers/x/"
    assert parts.card == render_card(templates, paper, base_url, words, language, author_pages)
    assert parts.bibtex == bibtex_entry(paper, key, page)
    assert json.loads(parts.csl) == csl_item(paper, key, page) and parts.csl == item_line(
        csl_item(paper, key, page))
    assert parts.listed == list_entry_json(paper, key, Urls(base_url), interface(templates, language),
                                           author_pages)
    assert json.loads(parts.listed)["key"] == key == "lovelace2024card"  # the arXiv id's year
