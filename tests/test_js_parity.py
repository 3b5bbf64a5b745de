"""The Python and JavaScript twins agree: what the build does in Python and the browser does again
in JavaScript gives the same answers. The packed index's digits (generator/search/packed.py,
static/search/read.js), the folding of accents (generator/search/terms.py's fold(),
static/search/query.js's fold()), the numbered page links (generator/outputs/lists.py's
page_numbers(), static/reading/list-controls.js's pageNumbers()) and a row of the list
(templates/_partials/paper_card.html, static/reading/rows.js's row()). JavaScript runs in node
where it can, in chromium where it needs a page."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import unicodedata

from factories import REPO
from generator.model import slugs
from generator.outputs.lists import page_numbers
from generator.search import packed, terms
from sitecheck import BASE_PATH

STATIC = REPO / "static"


def node(script: str, data) -> object:
    """What `script` (node, given `data` as the JSON `input`) prints as JSON."""
    assert shutil.which("node"), "node is needed for the JavaScript tests"
    program = f"const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n{script}"
    result = subprocess.run(["node", "-e", program], input=json.dumps(data), capture_output=True,
                            text=True, timeout=60, cwd=REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


# --- the packed index's digits --------------------------------------------------------------------

def test_the_packed_digits_are_declared_once_in_javascript_as_packed_py_has_them():
    digits = node("const r = require('./static/search/read.js');"
                  "console.log(JSON.stringify([r.FINAL, r.MORE]))", None)
    assert digits == [packed.FINAL, packed.MORE]
    # why: search/index.js takes them from read.js rather than declaring them again
    index_js = (STATIC / "search/index.js").read_text(encoding="utf-8")
    assert not re.search(r"\b(FINAL|MORE)\s*=\s*0x", index_js)


# --- folding accents ------------------------------------------------------------------------------

def _sample() -> list[str]:
    """Single characters of the scripts names and words come in (Latin with its accents and
    ligatures, Greek, Cyrillic, Vietnamese, full- and half-width forms, kana, Hangul, CJK,
    mathematical letters), each as Python's Unicode has it, and a few whole names."""
    blocks = [(0x00C0, 0x024F), (0x0250, 0x02AF), (0x0370, 0x03FF), (0x0400, 0x04FF),
              (0x1E00, 0x1EFF), (0x1F00, 0x1FFF), (0x2100, 0x214F), (0xFB00, 0xFB06),
              (0xFF00, 0xFFEF), (0x3040, 0x30FF), (0x3300, 0x33FF), (0xAC00, 0xAC40),
              (0x4E00, 0x4E40), (0xF900, 0xF940), (0x1D400, 0x1D4FF), (0x20000, 0x20010)]
    # why: only characters Python's Unicode (older than node's) has; a newer one has no
    # decomposition in Python, which is not a difference of the twins
    chars = [chr(c) for a, b in blocks for c in range(a, b + 1)
             if unicodedata.category(chr(c)) not in ("Cn", "Cs", "Co")]
    names = ["Schölkopf", "Arandjelović", "Søren Kierkegaard", "Łukasz Kaiser", "Đặng Văn Lâm",
             "Æsa Œuvre", "Straße", "İlker Yıldırım", "Ĳsselmeer ﬁnal ﬂow", "Ἀριστοτέλης",
             "Пётр Йорк", "知识蒸馏 多模态", "ｶﾞｸｼｭｳ", "トランスフォーマー", "한국어", "e\u0301te\u0301",
             "ℌilbert ℵ₀ x²", "Þórr Guðmundsson", "Ŋgũgĩ", "Ħal Far", "①②", "\U00020000\U00020001"]
    return chars + names


def test_javascript_folds_every_sampled_text_as_python_does():
    sample = _sample()
    folded = node("const { fold } = require('./static/search/query.js');"
                  "console.log(JSON.stringify(input.map(fold)))", sample)
    differ = [(text, terms.fold(text), js) for text, js in zip(sample, folded) if terms.fold(text) != js]
    assert not differ, differ[:20]


def test_the_letters_nfkd_keeps_whole_are_folded_alike_in_both():
    table = terms._UNFOLDED
    letters = [chr(c) for c in table]
    folded = node("const { fold } = require('./static/search/query.js');"
                  "console.log(JSON.stringify(input.map(fold)))", letters)
    assert folded == [letter.translate(table) for letter in letters]


def test_search_folds_the_letters_slugs_spell_in_ascii_as_slugs_spell_them():
    """One table (model/slugs.py's LATIN_LETTERS) for URLs, the order of names and search, so
    that 'gudmundsson' finds Guðmundsson and 'thorr' finds Þórr."""
    assert terms._UNFOLDED is slugs.LATIN_LETTERS
    assert terms.fold("Þórr Guðmundsson, ħaŋ") == "Thorr Gudmundsson, hang"
    assert slugs.author_slug("Þórr Guðmundsson") == "thorr-gudmundsson"


# --- numbered page links --------------------------------------------------------------------------

def _page_numbers_js() -> str:
    """list-controls.js's pageNumbers() and the WINDOW it reads, taken out of the script (which
    needs a page to run)."""
    source = (STATIC / "reading/list-controls.js").read_text(encoding="utf-8")
    window = re.search(r"^\s*const WINDOW = \d+;", source, re.M)
    function = re.search(r"^  function pageNumbers\(page, pages\) \{\n.*?^  \}\n", source, re.M | re.S)
    assert window and function, "list-controls.js no longer has pageNumbers() or WINDOW"
    return window[0] + "\n" + function[0]


def test_javascript_numbers_the_page_links_as_the_build_does():
    """The numbers shown are the same; what is on each page is not, by design: the build numbers
    its pages from the oldest, the newest holding one to two pages' worth, so that a page keeps
    its papers as papers are added (generator/model/urls.py's page_count() and page_items()),
    while the script cuts the reader's own order into full pages from its first row."""
    cases = [(page, pages) for pages in range(1, 41) for page in range(1, pages + 1)]
    js = node(_page_numbers_js() + "\nconsole.log(JSON.stringify(input.map(([p, n]) => pageNumbers(p, n))))",
              cases)
    differ = [(case, page_numbers(*case), got) for case, got in zip(cases, js) if page_numbers(*case) != got]
    assert not differ, differ[:10]


# --- a row of the list ----------------------------------------------------------------------------

ROW_PARTS = """(card) => {
    const title = card.querySelector(".card-title a");
    const links = (sel) => Array.from(card.querySelectorAll(sel), (a) => [a.textContent, a.getAttribute("href")]);
    const badges = Array.from(card.querySelectorAll(".card-title .badge, .card-meta .badge"), (b) => b.textContent);
    const time = card.querySelector(".card-meta .added time");
    return {
        slug: card.dataset.paper, title: title.innerHTML, href: title.getAttribute("href"), lang: title.lang,
        authors: card.querySelector(".short-authors").textContent, authorLinks: links(".short-authors a"),
        meta: card.querySelector(".card-meta").textContent.replace(/\\s+/g, " ").trim(),
        tags: links("ul.tags a"), badges, added: [time.dateTime, time.textContent],
        summary: card.querySelector("details.card-more > summary").firstChild.textContent,
    };
}"""


def test_a_row_drawn_by_script_is_the_row_the_build_drew(browser, origin):
    context = browser.new_context(base_url=origin)
    try:
        page = context.new_page()
        page.goto(BASE_PATH)
        page.wait_for_function("window.DigestRows !== undefined")
        built, drawn = page.evaluate(f"""async () => {{
            const parts = {ROW_PARTS};
            const data = await window.DigestRows.loadList();
            const tagsBySlug = new Map(data.tags.map((tag) => [tag.slug, tag]));
            const cards = Array.from(document.querySelectorAll("#paper-list article.card[data-paper]"));
            const bySlug = new Map(data.papers.map((p) => [p.slug, p]));
            return [cards.map(parts),
                    cards.map((card) => parts(window.DigestRows.row(bySlug.get(card.dataset.paper), tagsBySlug)))];
        }}""")
    finally:
        context.close()
    assert len(built) >= 5, "the shipped digest's home page should list several papers"
    assert any(row["tags"] for row in built) and any(row["authorLinks"] for row in built)
    for mine, theirs in zip(built, drawn):
        assert theirs == mine, mine["slug"]
