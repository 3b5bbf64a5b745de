/* What a reader keeps in their own browser: saved papers and the day of their last visit.
   Save buttons (<button data-save="SLUG" aria-pressed hidden>) are shown and wired here, rows
   of papers added since the reader's previous visit get a "new" badge, and other scripts draw
   rows from list.json with row(). Nothing is sent anywhere: the storage is localStorage, and the
   only requests are for this site's own files. Without JavaScript none of it appears. */
(() => {
  "use strict";
  const shared = window.Digest; // why: settings and words (shared/digest.js)
  if (!shared) { return; }
  const { say, count, number, list, around, el, link } = shared;
  const config = shared.settings.reading;

  /* ---- storage: one key per kind of thing, under the site's own name (several digests can
     share an origin, as GitHub project sites do) ---------------------------------------------- */
  const storage = {
    read(name, fallback) {
      try {
        const text = window.localStorage.getItem(config.store + name);
        return text === null ? fallback : JSON.parse(text);
      } catch (error) {
        return fallback; // why: storage off (a privacy setting) or a value garbled by hand
      }
    },
    write(name, value) {
      try {
        window.localStorage.setItem(config.store + name, JSON.stringify(value));
        return true;
      } catch (error) {
        return false;
      }
    },
    works() {
      try {
        const probe = config.store + "probe";
        window.localStorage.setItem(probe, "1");
        window.localStorage.removeItem(probe);
        return true;
      } catch (error) {
        return false;
      }
    }
  };

  /* ---- saved papers: [{slug, title, saved}], most recently saved first ------------------- */
  const saved = {
    list() {
      const value = storage.read("saved", []);
      return Array.isArray(value) ? value.filter((item) => item && typeof item.slug === "string") : [];
    },
    has(slug) { return saved.list().some((item) => item.slug === slug); },
    set(slug, title, on) {
      const others = saved.list().filter((item) => item.slug !== slug);
      const next = on ? [{ slug, title, saved: new Date().toISOString() }, ...others] : others;
      storage.write("saved", next);
      changed();
    },
    clear() {
      storage.write("saved", []);
      changed();
    }
  };

  /** Every save button shows the new state, and pages that list saved papers hear of it. */
  function changed() {
    refreshToggles(document);
    document.dispatchEvent(new CustomEvent("digest:saved"));
  }

  function titleOf(button) {
    const row = button.closest("[data-paper]");
    const heading = row ? row.querySelector(".card-title a") : document.querySelector("h1");
    return heading ? heading.textContent.trim() : button.dataset.save;
  }

  function refreshToggles(root) {
    const slugs = new Set(saved.list().map((item) => item.slug));
    root.querySelectorAll("button[data-save]").forEach((button) => {
      button.setAttribute("aria-pressed", String(slugs.has(button.dataset.save)));
    });
  }

  /** Gives each row below `root` its save button: made here, not by the build, as without
      JavaScript it could do nothing (and it was ~15% of every list's bytes). */
  function addToggles(root) {
    root.querySelectorAll("article.card[data-paper]").forEach((row) => {
      if (row.querySelector(".save-toggle")) { return; }
      const title = row.querySelector(".card-title a");
      const button = saveButton(row.dataset.paper, title ? title.textContent.trim() : row.dataset.paper);
      (row.querySelector(".card-meta") || row.firstElementChild).after(button);
    });
    root.querySelectorAll("article.paper[data-paper] .links").forEach((links) => {
      if (links.querySelector(".save-toggle")) { return; }
      const button = el("button", "button save-toggle", say("save"));
      button.type = "button";
      button.dataset.save = links.closest("[data-paper]").dataset.paper;
      button.setAttribute("aria-pressed", "false");
      button.hidden = true;
      links.append(button);
    });
  }

  /** Shows and wires the save buttons below `root` (once each). */
  function wireToggles(root) {
    if (!storage.works()) { return; } // why: a button that cannot keep anything stays hidden
    addToggles(root);
    root.querySelectorAll("button[data-save]").forEach((button) => {
      if (button.dataset.wired) { return; }
      button.dataset.wired = "true";
      button.hidden = false;
      button.addEventListener("click", () => {
        const on = button.getAttribute("aria-pressed") !== "true";
        saved.set(button.dataset.save, titleOf(button), on);
      });
    });
    refreshToggles(root);
  }

  /* ---- "new since your last visit": the day of this visit and of the one before ----------- */
  function today() {
    const now = new Date();
    const pad = (n) => String(n).padStart(2, "0");
    return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  }

  /** The day of the reader's previous visit ("" on a first visit). A visit is a day: reloads
      and other pages on the same day keep the badges the day began with. */
  function previousVisit() {
    const visits = storage.read("visits", {});
    const day = today();
    const known = visits && typeof visits.current === "string" ? visits : { current: "", last: "" };
    const next = known.current === day ? known : { last: known.current, current: day };
    storage.write("visits", next);
    return typeof next.last === "string" ? next.last : "";
  }

  const since = previousVisit();

  function markNew(root) {
    if (!since) { return; }
    root.querySelectorAll("[data-paper]").forEach((row) => {
      const title = row.querySelector(".card-title");
      const added = row.querySelector(".added time");
      if (added && added.dateTime > since && title && !title.querySelector(".badge-new")) {
        const badge = el("span", "badge badge-new", say("new"));
        badge.title = say("newTitle");
        title.append(" ", badge);
      }
    });
  }

  /* ---- rows drawn from list.json, laid out as the build's paper_card.html ---------------- */
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

  const paperPages = new Map();
  /** The paper page at `url`, parsed, fetched once (a failed fetch is tried again later). */
  function paperPage(url) {
    if (!paperPages.has(url)) {
      const page = fetch(url).then((response) => {
        if (!response.ok) { throw new Error(`${url}: HTTP ${response.status}`); }
        return response.text();
      }).then((html) => new DOMParser().parseFromString(html, "text/html"));
      page.catch(() => { paperPages.delete(url); });
      paperPages.set(url, page);
    }
    return paperPages.get(url);
  }

  /** The links of a paper page (PDF, arXiv, code…) as a row shows them. */
  function rowLinks(page) {
    const links = el("p", "links");
    page.querySelectorAll("article.paper .links a[href]").forEach((source) => {
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
    const title = details.closest("[data-paper]") && details.closest("[data-paper]").querySelector(".card-title a");
    if (!details.open || details.dataset.filled || !title) { return; }
    details.dataset.filled = "true";
    const url = title.getAttribute("href");
    const body = el("div", "abstract", say("abstractLoading"));
    const pointer = el("p", "on-paper-page");
    pointer.append(link(url, say("onPaperPage")));
    details.append(body);
    paperPage(url).then((page) => {
      const abstract = page.querySelector("article.paper .abstract");
      if (!abstract) { throw new Error(`${url}: no abstract`); }
      body.replaceChildren(...Array.from(abstract.childNodes, (node) => document.importNode(node, true)));
      if (abstract.lang) { body.lang = abstract.lang; } // why: not the loading words'
      body.after(rowLinks(page), pointer);
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
    if (paper.more) {
      authors.append(` +${paper.more} ${say("moreAuthors")}`);
    }
    meta.append(authors);
    if (paper.venue) { meta.append(" · ", el("span", "", paper.venue)); }
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

  function saveButton(slug, title) {
    const save = el("button", "save-toggle");
    save.type = "button";
    save.dataset.save = slug;
    save.setAttribute("aria-pressed", "false");
    save.hidden = true;
    save.append(el("span", "save-label", say("save")), el("span", "visually-hidden", ` ${title}`));
    return save;
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

  /** A row's folded part: opened, it shows the paper's abstract (see unfold). */
  function folded() {
    const details = el("details", "card-more");
    details.append(el("summary", "", say("abstract")));
    return details;
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
    article.append(title, metaLine(paper), saveButton(paper.slug, paper.text));
    if (paper.tags.length) { article.append(tagList(paper, tagsBySlug)); }
    article.append(folded());
    return article;
  }

  /* ---- BibTeX cut from all.bib: a tag's papers (here), the saved ones (reading/saved-page.js) ----- */
  async function fetchText(url) {
    const response = await fetch(url);
    if (!response.ok) { throw new Error(`${url}: HTTP ${response.status}`); }
    return response.text();
  }

  /** all.bib's entries whose keys are in `keys`, in all.bib's order, as all.bib joins them. */
  function bibEntries(text, keys) {
    const entries = text.split(/\n(?=@)/).map((entry) => entry.replace(/\n*$/, "\n"));
    return entries.filter((entry) => keys.has((entry.match(/^@[^{]+\{([^,]+),/) || [])[1])).join("\n");
  }

  function download(name, type, text) {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const a = el("a");
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  /** A tag's BibTeX link (<a href="all.bib" data-bib-tag="SLUG">) downloads the entries of the
      tag's papers only, as <slug>.bib; without JavaScript, or should that fail, all.bib. */
  document.addEventListener("click", (event) => {
    const a = event.target.closest && event.target.closest("a[data-bib-tag]");
    if (!a || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) { return; }
    event.preventDefault();
    const tag = a.dataset.bibTag;
    Promise.all([loadList(), fetchText(config.bib)]).then(([data, text]) => {
      const keys = new Set(data.papers.filter((paper) => paper.tags.includes(tag)).map((paper) => paper.key));
      download(`${tag}.bib`, "application/x-bibtex", bibEntries(text, keys));
    }).catch(() => { window.location.href = a.href; });
  });

  /** Makes rows drawn by script (or the build) into live rows: save buttons and new badges. */
  function enliven(root) {
    wireToggles(root);
    markNew(root);
  }

  window.addEventListener("storage", (event) => {
    if (event.key === config.store + "saved") { changed(); } // why: saved in another tab
  });

  window.DigestReading = { config, saved, storage, loadList, row, enliven, el, since,
    say, count, number, list, fetchText, bibEntries, download };
  enliven(document);
})();
