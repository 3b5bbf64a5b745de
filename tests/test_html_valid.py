"""Every HTML page of the built site passes the Nu Html Checker (vnu.jar from npm's vnu-jar)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

import sitecheck
from factories import paper_source, write_content
from generator.outputs.kinds import KINDS
from sitecheck import BASE_URL

VNU_TIMEOUT = 300
GOLDEN_SITE = Path(__file__).parent / "golden/site"

pytestmark = pytest.mark.nu


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The shipped digest as shipped (zh-CN), and in English beside it under site/en/."""
    root = tmp_path_factory.mktemp("vnu")
    built = sitecheck.build(root / "site", BASE_URL)
    sitecheck.build(built / "en", BASE_URL, content=sitecheck.content_in("en", root / "content-en"))
    return built


@pytest.fixture(scope="module")
def paginated(tmp_path_factory) -> Path:
    """A digest of a few papers, two to a page: numbered page links on every page."""
    root = tmp_path_factory.mktemp("paginated")
    papers = {f"p{n}": paper_source(title=f"Paper {n}", date=f"2025-01-{n + 1:02d}", tags=["llm"])
              for n in range(9)}
    site_yaml = "title: Paginated\nbase_url: https://example.org/p/\npage_size: 2\n"
    return sitecheck.build(root / "site", "https://example.org/p/",
                           write_content(root, papers, site_yaml))


def _vnu_messages(pages: list[Path]) -> list[dict]:
    java = shutil.which("java")
    assert java, ("the HTML validity test needs a Java runtime ('java' on PATH) to run vnu.jar; "
                  "`make system-packages` installs default-jre-headless (CI does this)")
    assert sitecheck.VNU_JAR.is_file(), (f"{sitecheck.VNU_JAR} is missing; run `npm ci` "
                                         "(or `make test-install`) in the project folder")
    done = subprocess.run([java, "-jar", str(sitecheck.VNU_JAR), "--errors-only", "--format", "json",
                           *map(str, pages)], capture_output=True, text=True, timeout=VNU_TIMEOUT)
    # vnu writes its JSON report to stderr (stdout in some versions); exit 1 means "errors found".
    report = next((stream for stream in (done.stderr, done.stdout) if stream.lstrip().startswith("{")),
                  None)
    assert report is not None, (f"vnu.jar gave no JSON report (exit {done.returncode}):\n"
                                f"stdout: {done.stdout[-2000:]}\nstderr: {done.stderr[-2000:]}")
    return json.loads(report)["messages"]


def _where(message: dict, site: Path) -> str:
    url = message.get("url", "")
    path = Path(unquote(urlsplit(url).path)) if url.startswith("file:") else Path(url)
    shown = path.relative_to(site) if site in path.parents else path
    line = message.get("lastLine", message.get("firstLine", "?"))
    return f"{shown}:{line}"


def test_every_page_is_valid_html(site, paginated):
    # why: the golden site switches on what the real digest leaves off (citation_* tags, a
    # Twitter account), so that markup is validated too; a paginated digest, page links.
    pages = (sitecheck.html_pages(site) + sitecheck.html_pages(GOLDEN_SITE)
             + [p for p in sitecheck.html_pages(paginated) if "papers" not in p.parts])
    assert len(pages) > 50, f"only {len(pages)} pages built"
    model = sitecheck.site_model()
    validated = {p.relative_to(site).as_posix() for p in pages if site in p.parents}
    unchecked = [kind.name for kind in KINDS if not {p.path for p in kind.pages(model)} & validated]
    assert unchecked == [], "no page of these kinds (generator/outputs/kinds.py) is validated"
    checked = "".join(page.read_text(encoding="utf-8") for page in pages)
    for markup in ('data-copy="copyBibtex"', "reading/copy-text.js", "application/ld+json",
                   'name="citation_title"', 'property="og:title"', 'data-paper=',
                   'id="list-controls"', '<section class="author" id="author-', 'id="saved-needs-script"', 'aria-current="page"',
                   '<details class="card-more">', '<html lang="zh-CN">', '<html lang="en">'):
        assert markup in checked, f"no validated page has {markup}"
    messages = _vnu_messages(pages)
    errors = [m for m in messages if m.get("type") in ("error", "non-document-error")]
    report = "\n".join(f"{_where(m, site.resolve())}: {m.get('type')}: {m.get('message')}\n"
                       f"    {m.get('extract', '').strip()!r}" for m in errors)
    if errors:
        print(report)
    assert not errors, f"{len(errors)} vnu error(s):\n{report}"
