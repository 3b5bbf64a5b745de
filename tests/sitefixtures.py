"""Fixtures shared by the end-to-end test modules: the real content/ built as a user would.

conftest.py registers this module as a plugin, so every test module has these fixtures without
importing them. Two builds a test process makes once and every module reads (none writes into
them): under a project base path (https://example.org/iclr-digest/, as GitHub project pages
serve it) and at a domain root (https://example.org/).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import sitecheck
from generator.content.documents import load_documents
from generator.content.papers import validate
from sitecheck import BASE_PATH, BASE_URL, ROOT_URL


@pytest.fixture(scope="session")
def base_site(tmp_path_factory) -> Path:
    return sitecheck.build(tmp_path_factory.mktemp("base") / "site", BASE_URL)


@pytest.fixture(scope="session")
def root_site(tmp_path_factory) -> Path:
    return sitecheck.build(tmp_path_factory.mktemp("root") / "site", ROOT_URL)


@pytest.fixture(scope="session", params=["base", "root"])
def any_site(request, base_site, root_site) -> tuple[Path, str, str]:
    """(output folder, base_url, base path) for each of the two builds."""
    if request.param == "base":
        return base_site, BASE_URL, BASE_PATH
    return root_site, ROOT_URL, "/"


@pytest.fixture(scope="session")
def metadata() -> list[dict]:
    papers = sitecheck.load_metadata()
    assert len(papers) == 19, "the source metadata should describe 19 papers"
    return papers


@pytest.fixture(scope="session")
def source_papers() -> list:
    """The papers as the generator reads them from content/, for the texts feeds must carry."""
    return [p for p in validate(load_documents(sitecheck.CONTENT)) if not p.draft]


def tag_index(site: Path) -> dict[str, tuple[str, int]]:
    """Tag name -> (URL, count) as the tags index shows them."""
    tree = sitecheck.parse_html(site / "tags/index.html")
    listing = tree.find("ul", cls="tag-index")
    assert listing is not None, "tags/index.html has no ul.tag-index"
    shown = {}
    for item in listing.find_all("li"):
        link, count = item.find("a"), item.find(cls="count")
        assert link is not None and count is not None, f"tag entry at line {item.line}"
        assert link.text() not in shown, f"tag {link.text()!r} listed twice"
        shown[link.text()] = (link.attrs["href"], int(count.text()))
    return shown
