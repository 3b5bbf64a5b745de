/* Rows of papers drawn in the browser from list.json, laid out as the build's
   templates/_partials/paper_card.html lays out its rows (tests/test_js_parity.py holds the two
   alike), and what every row does when it is opened: its abstract and links are fetched
   from the paper's own page, once. reading.js gives the rows their save buttons and badges. */
(() => {
  "use strict";
  const shared = window.Digest;
  if (!shared) { return; }
  const { say, around, el, link } = shared;
  const config = shared.settings.reading;

  let listData = null;
  /** list.json, fetched once, when a reader first sorts, filters or opens the saved page. */
  function loadList() {
    if (!listData) {
      listData = fetch(config.list).then((response) => {
        if (!response.ok) { throw new Error(`${config.list}: HTTP ${response.status}`); }
        return response.json();
      });
      listData.catch(() => { listData = null; });
    }
    return listData;
  }

  const pages = new Map();
  /** The page at `url` (of this site), parsed, fetched once (a failed fetch is tried again). */
  function page(url) {
    if (!pages.has(url)) {
      const parsed = fetch(url).then((response) => {
        if (!response.ok) { throw new Error(`${url}: HTTP ${response.status}`); }
        return response.text();
      }).then((html) => new DOMParser().parseFromString(html, "text/html"));
      parsed.catch(() => { pages.delete(url); });
      pages.set(url, parsed);
    }
    return pages.get(url);
  }

  /** The links of a paper page (PDF, arXiv, code…) as a row shows them. */
  function rowLinks(paperPage) {
    const links = el("p", "links");
    paperPage.querySelectorAll("article.paper .links a[href]").forEach((source) => {
      const a = link(source.getAttribute("href"), source.textContent);
      a.className = Array.from(source.classList).filter((name) => name.startsWith("link-"))
        .concat("link").join(" ");
      a.rel = "noopener";
      links.append(a);
    });
    return links;
  }

  /** A row's folded part, the first time it is opened: its paper's abstract and links, from
      the paper's own page (a row is a pointer: the abstract is not repeated in every list). */
  function unfold(details) {
    const row = details.closest("[data-paper]");
    const title = row && row.querySelector(".card-title a");
    if (!details.open || details.dataset.filled || !title) { return; }
    details.dataset.filled = "true";
    const url = title.getAttribute("href");
    const body = el("div", "abstract", say("abstractLoading"));
    const pointer = el("p", "on-paper-page");
    pointer.append(link(url, say("onPaperPage")));
    details.append(body);
    page(url).then((paperPage) => {
      const abstract = paperPage.querySelector("article.paper .abstract");
      if (!abstract) { throw new Error(`${url}: no abstract`); }
      body.replaceChildren(...Array.from(abstract.childNodes, (node) => document.importNode(node, true)));
      if (abstract.lang) { body.lang = abstract.lang; } // why: not the loading words'
      body.after(rowLinks(paperPage), pointer);
    }).catch(() => {
      body.textContent = say("abstractFailed");
      body.after(pointer);
    });
  }
  // why: "toggle" does not bubble; caught on its way down, it serves every row, built or drawn
  document.addEventListener("toggle", (event) => {
    if (event.target instanceof HTMLDetailsElement && event.target.matches(".card-more")) {
      unfold(event.target);
    }
  }, true);

  function metaLine(paper) {
    const meta = el("p", "meta card-meta");
    const authors = el("span", "short-authors");
    paper.authors.forEach((author, n) => {
      if (n) { authors.append(", "); }
      authors.append(author.url ? link(author.url, author.name) : author.name);
    });
    if (paper.more) { authors.append(` +${paper.more} ${say("moreAuthors")}`); }
    meta.append(authors);
    if (paper.venue) { meta.append(` · ${paper.venue}`); }
    if (paper.presentation) {
      meta.append(" ", el("span", "badge", say(paper.presentation) || paper.presentation));
    }
    const added = el("span", "added");
    const time = el("time", "", paper.added_human);
    time.dateTime = paper.added;
    added.append(...around("added", "date", time));
    meta.append(" · ", added);
    return meta;
  }

  function tagList(paper, tagsBySlug) {
    const list = el("ul", "tags");
    list.setAttribute("aria-label", say("tags"));
    paper.tags.forEach((slug) => {
      const tag = tagsBySlug.get(slug);
      if (!tag) { return; }
      const item = el("li");
      item.append(link(tag.url, tag.name));
      list.append(item);
    });
    return list;
  }

  /** One paper of list.json as a row; `tagsBySlug` from list.json's tags. */
  function row(paper, tagsBySlug) {
    const article = el("article", "card");
    article.dataset.paper = paper.slug;
    const title = el("h2", "card-title");
    const a = link(paper.url, "");
    a.innerHTML = paper.title; // why: the build's own escaped title HTML (math as MathML)
    if (paper.lang) { a.lang = paper.lang; }
    title.append(a);
    if (paper.draft) { title.append(" ", el("span", "badge", say("draft"))); }
    article.append(title, metaLine(paper));
    if (paper.tags.length) { article.append(tagList(paper, tagsBySlug)); }
    const details = el("details", "card-more");
    details.append(el("summary", "", say("abstract")));
    article.append(details);
    return article;
  }

  window.DigestRows = { loadList, page, row };
})();
