"""Lighthouse's four scores on a page of each kind a reader lands on (home, a paper, a tag, an
author, search) of a 10,000-paper digest, and where the first result of a search sits on a
390 x 844 phone.

    .venv/bin/python bench/lighthouse_bench.py [--papers 10000] [--query learning]

Builds bench/synthetic.py's digest (60 tags), serves it over HTTP and runs the suite's
Lighthouse (tests/lighthousekit.py: npm's lighthouse 12.2.3 on Debian's chromium, mobile
emulation, simulated throttling), all pages in one Node process, each page's cache cleared.
The paper, tag and author pages are those the home page links to first. The suite holds the
same scores (performance at least 95, the others 100) on the 19-paper digest
(tests/test_lighthouse.py); this is the check at the size the issue of a light site set.
~3-4 min at 10,000 papers, most of it the build and Lighthouse.
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
import tempfile
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "bench"), str(REPO / "tests")]

from generator.building.pipeline import BuildOptions, build  # noqa: E402
from generator.serve.handlers import SiteHandler  # noqa: E402
from lighthousekit import CATEGORIES, run_pages  # noqa: E402
from sitecheck import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from synthetic import write_digest  # noqa: E402

BASE_PATH = "/synthetic/"  # synthetic.py's base_url
PHONE = {"width": 390, "height": 844}


def serve(folder: Path) -> tuple[ThreadingHTTPServer, str]:
    """`folder` served under BASE_PATH on a free port, in a thread; the server and its origin."""
    handler = type("Quiet", (SiteHandler,), {"base_path": BASE_PATH, "log_message": lambda *a: None})
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def first_result_on_phone(url: str) -> tuple[float, int]:
    """Top of the first result (px from the page's top) and the facets' count, on a phone."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport=PHONE)
        page.goto(url)
        first = page.locator("#search-results li h2 a").first
        first.wait_for(timeout=30_000)
        top = first.bounding_box()["y"] + page.evaluate("scrollY")
        facets = page.locator("#search-facets button[data-facet]").count()
        browser.close()
        return top, facets


def first_links(home: str) -> dict[str, str]:
    """The first paper, tag and author page the home page (its HTML) links to, by kind."""
    found = {}
    for kind, folder in (("paper", "papers"), ("tag", "tags"), ("author", "authors")):
        match = re.search(rf'href="({re.escape(BASE_PATH)}{folder}/[^"#]+)', home)
        assert match, f"the home page links to no {kind} page"
        found[kind] = match.group(1)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=10000)
    parser.add_argument("--query", default="learning")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lighthouse-bench-") as tmp:
        content = write_digest(Path(tmp) / "content", args.papers)
        build(BuildOptions(content=content, out=Path(tmp) / "site", project=REPO, workers=2))
        server, origin = serve(Path(tmp) / "site")
        try:
            home = (Path(tmp) / "site/index.html").read_text(encoding="utf-8")
            search = f"{origin}{BASE_PATH}search/?q={quote(args.query)}"
            pages = {"home": origin + BASE_PATH, **{kind: origin + path for kind, path
                                                    in first_links(home).items()},
                     "search": search}
            print(f"{args.papers} papers; Lighthouse {', '.join(CATEGORIES)}")
            for (name, url), report in zip(pages.items(), run_pages(list(pages.values()))):
                print(f"{name:7} " + "  ".join(f"{report.scores[c]:3}" for c in CATEGORIES)
                      + "   " + "  ".join(f"{k} {v:.3g}" for k, v in report.metrics.items())
                      + f"   {url.removeprefix(origin)}")
                for category, titles in report.failing.items():
                    if titles:
                        print(f"        {category} below 1: " + "; ".join(titles))
            top, facets = first_result_on_phone(search)
            print(f"phone 390x844: first result of '{args.query}' at {top:.0f} px "
                  f"({'on' if top < PHONE['height'] else 'below'} the first screen; {facets} facets behind Filters)")
        finally:
            server.shutdown()


if __name__ == "__main__":
    main()
