/* What a reader keeps in their own browser: saved papers and the day of their last visit.
   Save buttons (<button data-save="SLUG" aria-pressed hidden>) are shown and wired here, rows
   of papers added since the reader's previous visit get a "new" badge, and other scripts draw
   rows from list.json with row(). Nothing is sent anywhere: the storage is localStorage, and the
   only requests are for this site's own files. Without JavaScript none of it appears. */
(() => {
  "use strict";
  const manifest = document.getElementById("reading-config");
  if (!manifest) { return; }
  const config = JSON.parse(manifest.textContent);

  /* ---- words: every one comes from the page, in the site's language ---------------------- */
  const wordsSource = document.getElementById("interface-messages");
  const messages = wordsSource ? JSON.parse(wordsSource.textContent) : {};
  const lang = document.documentElement.lang || "en";
  const plurals = window.Intl && Intl.PluralRules ? new Intl.PluralRules(lang) : null;
  const numbers = window.Intl && Intl.NumberFormat ? new Intl.NumberFormat(lang) : null;

  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, (all, name) => (name in values ? String(values[name]) : all));
  }
  /** The message `key` with its %(name)s placeholders filled from `values`. */
  function say(key, values) { return fill(messages[key] || "", values || {}); }
  /** A count as the site's language writes it. */
  function number(n) { return numbers ? numbers.format(n) : String(n); }
  /** The form of the plural message `key` for `n` (one per CLDR category of the language, picked
      by Intl.PluralRules), with %(num)s as the language writes n. */
  function count(key, n, values) {
    const forms = messages[key] || {};
    const form = forms[plurals ? plurals.select(n) : "other"] || forms.other || "";
    return fill(form, { num: number(n), ...(values || {}) });
  }
  /** Names joined as the language joins them: 'a, b and c', 'a、b和c' (CLDR's list pattern). */
  function list(names) {
    const pattern = messages.listPattern || {};
    const join = (form, a, b) => (pattern[form] || "{0}, {1}").replace("{0}", a).replace("{1}", b);
    if (names.length < 2) { return names.join(""); }
    if (names.length === 2) { return join("2", names[0], names[1]); }
    let text = join("end", names[names.length - 2], names[names.length - 1]);
    for (let n = names.length - 3; n > 0; n--) { text = join("middle", names[n], text); }
    return join("start", names[0], text);
  }
  /** Nodes for the message `key` with `node` where its %(name)s placeholder is. */
  function around(key, name, node) {
    const parts = (messages[key] || `%(${name})s`).split(`%(${name})s`);
    return [parts[0], node, parts.slice(1).join("")].filter((part) => part !== "");
  }

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

  /** Shows and wires the save buttons below `root` (once each). */
  function wireToggles(root) {
    if (!storage.works()) { return; } // why: a button that cannot keep anything stays hidden
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
    root.querySelectorAll("[data-paper][data-added]").forEach((row) => {
      const title = row.querySelector(".card-title");
      if (row.dataset.added > since && title && !title.querySelector(".badge-new")) {
        const badge = el("span", "badge badge-new", say("new"));
        badge.title = say("newTitle");
        title.append(" ", badge);
      }
    });
  }

  /* ---- rows drawn from list.json, laid out as the build's paper_card.html ---------------- */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function link(href, text) {
    const a = el("a", "", text);
    a.href = href;
    return a;
  }

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

  const docChunks = new Map();
  /** The search's document of paper `ref` (its position in list.json): the abstract as text. */
  function documentOf(ref) {
    const chunk = Math.floor(ref / config.docs_chunk);
    if (!docChunks.has(chunk)) {
      docChunks.set(chunk, fetch(`${config.docs}${chunk}.json`).then((r) => r.json()));
    }
    return docChunks.get(chunk).then((docs) => docs[ref % config.docs_chunk]);
  }

  function metaLine(paper) {
    const meta = el("p", "meta card-meta");
    const authors = el("span", "short-authors");
    paper.authors.forEach((author, n) => {
      if (n) { authors.append(", "); }
      authors.append(author.url ? link(author.url, author.name) : author.name);
    });
    if (paper.more) {
      authors.append(` +${paper.more}`, el("span", "visually-hidden", ` ${say("moreAuthors")}`));
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

  function saveButton(paper) {
    const save = el("button", "save-toggle");
    save.type = "button";
    save.dataset.save = paper.slug;
    save.setAttribute("aria-pressed", "false");
    save.hidden = true;
    save.append(el("span", "save-label", say("save")), el("span", "visually-hidden", ` ${paper.text}`));
    return save;
  }

  function tagList(paper, tagsBySlug) {
    const list = el("ul", "tags");
    list.setAttribute("aria-label", say("tags"));
    paper.tags.forEach((slug) => {
      const tag = tagsBySlug.get(slug);
      if (!tag) { return; }
      const item = el("li");
      const a = link(tag.url, tag.name);
      a.className = "tag";
      item.append(a);
      list.append(item);
    });
    return list;
  }

  /** The abstract, fetched from the search's documents the first time the row is opened. */
  function folded(paper, ref) {
    const details = el("details", "card-more");
    details.append(el("summary", "", say("abstract")));
    const body = el("div", "abstract");
    const more = el("p", "links");
    more.append(link(paper.url, say("onPaperPage")));
    details.append(body, more);
    details.addEventListener("toggle", () => {
      if (!details.open || body.dataset.filled) { return; }
      body.dataset.filled = "true";
      body.textContent = say("abstractLoading");
      documentOf(ref).then((doc) => {
        body.textContent = "";
        if (paper.abstract_lang) { body.lang = paper.abstract_lang; } // why: not the loading words
        String(doc.text).split(/\n\s*\n/).forEach((part) => body.append(el("p", "", part)));
      }, () => { body.textContent = say("abstractFailed"); });
    });
    return details;
  }

  /** One paper of list.json (`ref` its position) as a row; `tagsBySlug` from list.json's tags. */
  function row(paper, ref, tagsBySlug) {
    const article = el("article", "card");
    article.dataset.paper = paper.slug;
    article.dataset.added = paper.added;
    const title = el("h2", "card-title");
    const a = link(paper.url, "");
    a.innerHTML = paper.title; // why: the build's own escaped title HTML (math as MathML)
    if (paper.lang) { a.lang = paper.lang; }
    title.append(a);
    if (paper.draft) { title.append(" ", el("span", "badge", say("draft"))); }
    article.append(title, metaLine(paper), saveButton(paper));
    if (paper.tags.length) { article.append(tagList(paper, tagsBySlug)); }
    article.append(folded(paper, ref));
    return article;
  }

  /** Makes rows drawn by script (or the build) into live rows: save buttons and new badges. */
  function enliven(root) {
    wireToggles(root);
    markNew(root);
  }

  window.addEventListener("storage", (event) => {
    if (event.key === config.store + "saved") { changed(); } // why: saved in another tab
  });

  window.DigestReading = { config, saved, storage, loadList, row, enliven, el, since,
    say, count, number, list };
  enliven(document);
})();
