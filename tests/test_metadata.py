import json
from html.parser import HTMLParser

from factories import make_paper, make_site, pages_of
from generator.content.latex import read_title
from generator.model import urls as paths
from generator.outputs.metadata import citation_tags, page_meta, scholarly_article, script_json
from generator.model.records import Link

HOSTILE = '</script><script>alert(1)</script> <!-- & "x"'
LINKS = (Link("arxiv", "arXiv", "https://arxiv.org/abs/2406.16257"),
         Link("openreview", "OpenReview", "https://openreview.net/forum?id=oe51"),
         Link("pdf", "PDF", "https://arxiv.org/pdf/2406.16257"),
         Link("code", "Code", "https://github.com/a/b"),
         Link("doi", "DOI", "https://doi.org/10.1000/x"))


class Scripts(HTMLParser):
    """[type, text] of each inline <script>, as an HTML parser splits the page."""

    def __init__(self):
        super().__init__()
        self.scripts, self.inside = [], False

    def handle_starttag(self, tag, attrs):
        if tag == "script" and "src" not in dict(attrs):
            self.inside = dict(attrs).get("type", "")
            self.scripts.append([self.inside, ""])

    def handle_endtag(self, tag):
        self.inside = False

    def handle_data(self, data):
        if self.inside is not False:
            self.scripts[-1][1] += data


def test_script_json_cannot_close_its_script_element():
    text = script_json({"t": HOSTILE, "u": "\u2028"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"t": HOSTILE, "u": "\u2028"}


def test_hostile_title_stays_inside_the_json_ld_and_reads_back_exactly():
    paper = make_paper("x", title=HOSTILE, authors=(HOSTILE,), abstract_text=HOSTILE, tags=["<b>"])
    page = pages_of(make_site([paper]))["papers/x/index.html"]
    parser = Scripts()
    parser.feed(page)
    # the JSON-LD (the settings and messages are a script file of their own): the hostile title
    # opened no other script
    assert [kind for kind, _ in parser.scripts] == ["application/ld+json"]
    [text] = [text for kind, text in parser.scripts if kind == "application/ld+json"]
    data = json.loads(text)
    # why: the title is read as LaTeX ('--' is an en dash), the abstract's text is given as is
    assert data["headline"] == read_title(HOSTILE).text == HOSTILE.replace("--", "–")
    assert data["author"] == [{"@type": "Person", "name": HOSTILE}]


def test_scholarly_article_names_authors_date_keywords_and_same_as():
    paper = make_paper("x", authors=("A B", "C D"), venue="ICLR 2025", tags=["llm"], links=LINKS)
    data = scholarly_article(paper, "https://example.org/digest/papers/x/")
    assert data["@context"] == "https://schema.org" and data["@type"] == "ScholarlyArticle"
    assert data["datePublished"] == "2025" and data["keywords"] == ["llm"]
    assert data["sameAs"] == ["https://arxiv.org/abs/2406.16257",
                              "https://openreview.net/forum?id=oe51", "https://doi.org/10.1000/x"]
    assert data["publication"] == {"@type": "PublicationEvent", "name": "ICLR 2025"}


def test_citation_tags_are_what_google_scholar_reads():
    paper = make_paper("x", title="T", authors=("A B", "C D"), venue="ICLR 2025", links=LINKS,
                       ids={"doi": "10.1000/x"})
    assert citation_tags(paper) == [
        ("citation_title", "T"), ("citation_author", "A B"), ("citation_author", "C D"),
        ("citation_publication_date", "2025"), ("citation_conference_title", "ICLR 2025"),
        ("citation_pdf_url", "https://arxiv.org/pdf/2406.16257"), ("citation_doi", "10.1000/x")]


def test_citation_tags_appear_only_when_site_yaml_switches_them_on():
    paper = make_paper("x", links=LINKS)
    off = pages_of(make_site([paper]))["papers/x/index.html"]
    on = pages_of(make_site([paper], citation_tags=True))["papers/x/index.html"]
    assert "citation_title" not in off
    assert '<meta name="citation_title" content="A Paper">' in on
    assert '<meta name="citation_pdf_url" content="https://arxiv.org/pdf/2406.16257">' in on


def test_every_page_gets_social_tags_and_papers_are_articles():
    site = make_site([make_paper("x", tags=["llm"])], twitter="@digest")
    home = page_meta(site.config, paths.HOME, "", "")
    assert dict(home["og"]) == {"og:title": "Test Digest", "og:description": "Papers for tests.",
                                "og:type": "website", "og:site_name": "Test Digest",
                                "og:url": "https://example.org/digest/", "og:locale": "en_US"}
    assert home["names"] == [("twitter:card", "summary"), ("twitter:site", "@digest")]
    paper = page_meta(site.config, paths.paper_file("x"), "A Paper", "We study.", site.papers[0])
    assert dict(paper["og"])["og:type"] == "article" and paper["json_ld"]
    missing = page_meta(site.config, paths.NOT_FOUND, "Page not found", "")
    assert missing["canonical"] == "" and missing["noindex"] and "og:url" not in dict(missing["og"])


def test_pages_carry_meta_tags_in_their_head():
    pages = pages_of(make_site([make_paper("x", tags=["llm"])]))
    for path, page in pages.items():
        if not path.endswith(".html"):
            continue
        head = page[: page.index("</head>")]
        assert '<html lang="en">' in page and '<meta name="description" content="' in head, path
        assert '<meta property="og:title"' in head and '<meta name="twitter:card"' in head, path
