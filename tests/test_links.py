import pytest

from generator.content.links import LinkProblem, build_links, is_http_url, resolve


@pytest.mark.parametrize("kind, value, url, found", [
    ("arxiv", "2406.16257", "https://arxiv.org/abs/2406.16257", "2406.16257"),
    ("arxiv", "2406.16257v2", "https://arxiv.org/abs/2406.16257v2", "2406.16257v2"),
    ("arxiv", "hep-th/9901001", "https://arxiv.org/abs/hep-th/9901001", "hep-th/9901001"),
    ("arxiv", "https://arxiv.org/abs/2406.16257", "https://arxiv.org/abs/2406.16257", "2406.16257"),
    ("openreview", "oe51Q5Uo37", "https://openreview.net/forum?id=oe51Q5Uo37", "oe51Q5Uo37"),
    ("openreview", "https://openreview.net/forum?id=oe51Q5Uo37",
     "https://openreview.net/forum?id=oe51Q5Uo37", "oe51Q5Uo37"),
    ("doi", "10.1000/xyz123", "https://doi.org/10.1000/xyz123", "10.1000/xyz123"),
    ("code", "https://github.com/a/b", "https://github.com/a/b", None),
])
def test_resolve_turns_ids_and_urls_into_urls_and_ids(kind, value, url, found):
    assert resolve(kind, value) == (url, found)


@pytest.mark.parametrize("kind, value", [
    ("code", "javascript:alert(1)"), ("code", "github.com/a/b"), ("pdf", "ftp://x.org/a.pdf"),
    ("project", "data:text/html,<script>"), ("arxiv", "not an id"), ("code", "https://a b.org"),
])
def test_resolve_rejects_anything_but_ids_and_http_urls(kind, value):
    with pytest.raises(LinkProblem, match=f"links.{kind} must be"):
        resolve(kind, value)


def test_build_links_puts_the_pdf_first_and_derives_it_from_arxiv():
    links = build_links({"code": "https://github.com/a/b", "arxiv": "https://arxiv.org/abs/2406.16257"})
    assert [(l.kind, l.label, l.url) for l in links] == [
        ("pdf", "PDF", "https://arxiv.org/pdf/2406.16257"),
        ("arxiv", "arXiv", "https://arxiv.org/abs/2406.16257"),
        ("code", "Code", "https://github.com/a/b"),
    ]


def test_build_links_derives_the_pdf_from_an_openreview_id():
    links = build_links({"openreview": "https://openreview.net/forum?id=oP7arLOWix"})
    assert [(l.kind, l.url) for l in links] == [
        ("pdf", "https://openreview.net/pdf?id=oP7arLOWix"),
        ("openreview", "https://openreview.net/forum?id=oP7arLOWix")]


def test_build_links_prefers_arxivs_pdf_to_openreviews():
    links = build_links({"arxiv": "https://arxiv.org/abs/2406.16257",
                         "openreview": "https://openreview.net/forum?id=oe51Q5Uo37"})
    assert links[0].url == "https://arxiv.org/pdf/2406.16257"


def test_build_links_derives_no_pdf_from_a_url_without_an_id():
    links = build_links({"openreview": "https://openreview.net/group?id=ICLR.cc"})
    assert [l.kind for l in links] == ["openreview"]


def test_build_links_keeps_an_explicit_pdf():
    links = build_links({"arxiv": "https://arxiv.org/abs/1", "pdf": "https://x.org/p.pdf"})
    assert [l.url for l in links if l.kind == "pdf"] == ["https://x.org/p.pdf"]


def test_is_http_url():
    assert is_http_url("https://x.org/a?b=c")
    assert not is_http_url("//x.org/a")
    assert not is_http_url("mailto:a@b.c")


@pytest.mark.parametrize("value", ["10.1000/abc\x01", "10.1000/a b", "10.1000/<script>"])
def test_a_doi_outside_crossrefs_pattern_and_not_a_url_is_refused(value):
    with pytest.raises(LinkProblem):
        resolve("doi", value)


@pytest.mark.parametrize("kind, url", [("arxiv", "https://arxiv.org/abs/</script>x"),
                                       ("doi", "https://doi.org/10.1000/a\"b<c>")])
def test_an_id_taken_from_a_url_must_be_an_id_of_its_kind(kind, url):
    assert resolve(kind, url) == (url, None)


def test_a_url_with_a_control_character_is_not_a_url():
    assert not is_http_url("https://example.org/a\x01b")


@pytest.mark.parametrize("value", ["http://[x", "https://[::1/a", "http://]x["])
def test_a_url_with_a_broken_ipv6_host_is_not_a_url(value):
    assert not is_http_url(value)
    with pytest.raises(LinkProblem):
        resolve("project", value)


def test_a_papers_page_is_shown_with_its_sites_name_or_its_host():
    links = build_links({"page": "https://aclanthology.org/2022.acl-short.8/",
                         "doi": "10.18653/v1/2022.acl-short.8"})
    assert [(link.kind, link.label) for link in links] == [("page", "ACL Anthology"),
                                                             ("doi", "DOI")]
    [pmlr] = build_links({"page": "https://proceedings.mlr.press/v97/roeder19a.html"})
    [other] = build_links({"page": "https://www.example.org/paper/12"})
    assert (pmlr.label, other.label) == ("PMLR", "example.org")
