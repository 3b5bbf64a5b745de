import datetime as dt
from xml.etree import ElementTree as ET

from factories import make_paper, make_site
from generator.outputs.sitemap import SITEMAP_NS, crawler_jobs, sitemap
from generator.outputs.xmlout import xml_document

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def files_of(jobs):
    return [job.made() for job in jobs]


def test_crawler_files_list_every_page_with_absolute_urls():
    site = make_site([make_paper("x", tags=["llm"], date=dt.date(2025, 3, 1))])
    files = {f.path: f.data for f in files_of(crawler_jobs(site))}
    root = ET.fromstring(files["sitemap.xml"])
    locs = {u.find("s:loc", NS).text: u.find("s:lastmod", NS).text for u in root}
    assert locs == {
        "https://example.org/digest/": "2025-05-01",
        "https://example.org/digest/tags/": "2025-05-01",
        "https://example.org/digest/authors/": "2025-05-01",
        "https://example.org/digest/authors/0/": "2025-03-01",
        "https://example.org/digest/search/": "2025-05-01",
        "https://example.org/digest/papers/x/": "2025-03-01",
        "https://example.org/digest/tags/llm/": "2025-03-01",
    }
    assert b"Sitemap: https://example.org/digest/sitemap.xml" in files["robots.txt"]
    assert files[".nojekyll"] == b""


def test_cname_is_written_only_when_site_yaml_names_a_domain():
    site = make_site([make_paper("x")])
    assert "CNAME" not in {f.path for f in files_of(crawler_jobs(site))}
    files = {f.path: f.data for f in files_of(crawler_jobs(make_site([make_paper("x")], cname="digest.example.org")))}
    assert files["CNAME"] == b"digest.example.org\n"


def test_sitemap_lists_every_page_of_a_paginated_list():
    papers = [make_paper(f"p{i}", tags=["llm"], date=dt.date(2025, 3, 1 + i)) for i in range(5)]
    site = make_site(papers, page_size=2)
    root = ET.fromstring({f.path: f.data for f in files_of(crawler_jobs(site))}["sitemap.xml"])
    locs = {u.find("s:loc", NS).text for u in root}
    assert {"https://example.org/digest/page/1/", "https://example.org/digest/tags/llm/page/1/"} <= locs
    assert "https://example.org/digest/page/2/" not in locs  # why: the first page is page 2


def test_sitemap_is_laid_out_as_elementtree_lays_out_its_tree():
    entries = [("https://example.org/a&b/<c>/", "2025-03-01"), ("https://example.org/é/", "2025-03-02")]
    root = ET.Element("urlset", {"xmlns": SITEMAP_NS})
    for loc, lastmod in entries:
        url = ET.SubElement(root, "url")
        ET.SubElement(url, "loc").text = loc
        ET.SubElement(url, "lastmod").text = lastmod
    assert sitemap(entries) == xml_document(root)
