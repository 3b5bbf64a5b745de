"""axe-core's WCAG 2.2 AA rules (target size included) on every page kind, desktop and phone,
light and dark; and every control's border at 3:1 or more against what is behind it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browserkit import RESULT_LINKS, TIMEOUT_MS
from generator.outputs.kinds import KINDS
from sitecheck import BASE_PATH, REPO, page_url_path, shipped_author_page, site_model

AXE = REPO / "node_modules/axe-core/axe.min.js"
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
OPENED_AS = {"404": "no-such-page/", "author": shipped_author_page("orion-weller")}
"""How a reader reaches a kind's page, where it is not its first page's own path: the 404 as
the server answers a wrong address, an author's section from an author's link."""
SEARCH_STATES = {"search, results": "search/?q=models", "search, filtered": "search/?q=models&tag=llm"}


def kind_pages() -> dict[str, str]:
    """A page of every kind the registry (generator/outputs/kinds.py) has, as a reader opens
    it, and the search page's other states: a new kind is checked without being named here."""
    model = site_model()
    first = {kind.name: page_url_path(kind.pages(model)[0].path, "") for kind in KINDS}
    return {**first, **{name: OPENED_AS[name] for name in first if name in OPENED_AS},
            **SEARCH_STATES}


PAGES = kind_pages()


@pytest.fixture(scope="module", params=[(v, s) for v in VIEWPORTS for s in ("light", "dark")],
                ids=lambda p: f"{p[0]}-{p[1]}")
def looks(request, browser, origin):
    """A browser context in each viewport and colour scheme."""
    viewport, scheme = request.param
    context = browser.new_context(base_url=origin, viewport=VIEWPORTS[viewport], color_scheme=scheme)
    context.set_default_timeout(TIMEOUT_MS)
    yield context
    context.close()


def page_kinds(*names: str) -> list:
    """The page kinds named (all by default) as parameters of `shown`, each kind's tests kept
    on one test process (pytest-xdist's loadgroup), where its pages are opened once."""
    return [pytest.param(PAGES[name], id=name, marks=pytest.mark.xdist_group(f"axe: {name}"))
            for name in names or PAGES]


@pytest.fixture(scope="module", params=page_kinds())
def shown(request, looks, site):
    """A page kind opened once in each viewport and scheme, for every check of it.
    why: opening a page costs chromium ~0.5 s of CPU; the checks only read it."""
    path = request.param
    if path == "saved/" and not (site / "saved/index.html").is_file():
        pytest.skip("this build has no saved page (saved/index.html)")
    page = looks.new_page()
    page.goto(BASE_PATH + path)
    if "q=" in path:
        expect(page.locator(RESULT_LINKS).first).to_be_visible()
        if "tag=" in path:  # why: the narrow layout's facets too, opened
            toggle = page.locator("#search-filters-toggle")
            if toggle.is_visible():
                toggle.click()
    yield page
    page.close()


def test_axe_finds_no_wcag_22_aa_violation(shown):
    if not shown.evaluate("typeof axe !== 'undefined'"):
        shown.add_script_tag(path=str(AXE))
    result = shown.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags},"
                            " resultTypes: ['violations']})", WCAG_AA)
    bad = [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:4]}"
           for v in result["violations"]]
    assert not bad, "\n".join(bad)


BORDER_CONTRASTS = """() => {
  const rgb = c => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const behind = el => { for (let e = el.parentElement; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor); if (c.length < 4 || c[3] > 0) return c.slice(0, 3); }
    return [255, 255, 255]; };
  return [...document.querySelectorAll("input, button, select, textarea, .chip")].filter(el => {
    const s = getComputedStyle(el), c = rgb(s.borderTopColor);
    return el.getClientRects().length && parseFloat(s.borderTopWidth) > 0 && !(c.length > 3 && c[3] === 0);
  }).map(el => [el.id || el.className || el.tagName, ratio(rgb(getComputedStyle(el).borderTopColor).slice(0, 3), behind(el))]);
}"""


@pytest.mark.parametrize("shown", page_kinds("home", "search, filtered", "paper"), indirect=True)
def test_every_control_border_has_3_to_1_contrast(shown):
    contrasts = shown.evaluate(BORDER_CONTRASTS)
    assert contrasts, "no bordered control found"
    low = [(name, round(r, 2)) for name, r in contrasts if r < 3]
    assert not low, f"control borders under 3:1: {low}"


SMALL_TARGETS = """() => {
  // why: WCAG 2.5.8 exempts a link in a sentence (its size is the line's); a list of links is no sentence
  const inSentence = el => {
    if (getComputedStyle(el).display !== "inline") return false;
    const block = el.closest("p, li, dd, td");
    if (!block) return false;
    const copy = block.cloneNode(true);
    copy.querySelectorAll("a, button").forEach(a => a.remove());
    // why: Chinese writes a sentence without spaces; two runs of Han characters make one
    return /[A-Za-z]{3,}.*\\s.*[A-Za-z]{3,}|[\\u3400-\\u9fff]{2,}.*[\\u3400-\\u9fff]{2,}/.test(copy.textContent);
  };
  return [...document.querySelectorAll("a[href], button, input, [role=option]")].filter(el => {
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return r.width && r.height && s.visibility !== "hidden" && !el.closest(".skip, [hidden]")
      && (r.width < 24 || r.height < 24) && !inSentence(el);
  }).map(el => `${el.tagName.toLowerCase()}.${el.className || ""} "${el.textContent.trim().slice(0, 30)}"`
                + ` ${Math.round(el.getBoundingClientRect().width)}x${Math.round(el.getBoundingClientRect().height)}`);
}"""


def test_every_target_is_24_px_or_more(shown):
    small = shown.evaluate(SMALL_TARGETS)
    assert not small, "targets under 24 x 24 px:\n" + "\n".join(small)
