/* Search in the browser: the header box on every page (results as you type) and the search
   page (all results, facets, state in the URL). The index is fetched on first focus and queried
   in a Web Worker. Everything from the index is inserted as text; highlights are <mark> nodes. */
(() => {
  "use strict";
  const form = document.getElementById("site-search");
  // why: one manifest of the search's scripts and data files, and the words (shared/digest.js)
  const shared = window.Digest;
  if (!form || !shared || !window.Worker || !window.fetch) { return; }
  const config = shared.settings.search;
  const say = shared.say, count = shared.count, number = shared.number;
  const el = shared.el;

  /* ---- the worker ---------------------------------------------------------------------- */
  const scripts = config.scripts;
  const engine = {
    worker: null, warmed: null, ready: null, next: 1, waiting: {},
    /** The worker, made once; a worker that failed before start() is made again by start(). */
    spawn() {
      if (this.worker) { return this.worker; }
      const self = this, worker = new Worker(config.worker);
      worker.onmessage = (event) => {
        const msg = event.data;
        if (msg.type === "scripts") { self.scriptsIn(); return; } // why: loaded or not, init tries
        if (msg.type === "ready") { self.loaded(msg); return; }
        if (msg.type === "error" && msg.id === undefined) { self.fail(new Error(msg.message)); return; }
        const done = self.waiting[msg.id];
        delete self.waiting[msg.id];
        if (done) { done(msg); }
      };
      worker.onerror = (event) => {
        if (self.ready) { self.fail(new Error(event.message)); return; }
        // why: e.g. its script gone with a deploy; a first focus tries a new worker, and says so
        worker.terminate();
        self.worker = null;
        self.warmed = null;
        self.scriptsIn();
      };
      this.worker = worker;
      return worker;
    },
    /** The worker, loading lunr.js and our scripts but not the index; resolves once they are in
        (or failed to load: the first focus then tries again). */
    warm() {
      if (this.warmed) { return this.warmed; }
      const self = this;
      this.warmed = new Promise((resolve) => { self.scriptsIn = resolve; });
      this.spawn().postMessage(Object.assign({ type: "scripts" }, scripts));
      return this.warmed;
    },
    start() {
      if (this.ready) { return this.ready; }
      const self = this;
      this.ready = new Promise((resolve, reject) => { self.loaded = resolve; self.fail = reject; });
      // why: the worker's reads are not in the page's resource timing; the preview server's
      // reload script reads this to reload a tab whose index changed (generator/serve/)
      shared.readAside = (shared.readAside || []).concat([config.index, config.meta, config.docs]);
      // why: init asks for the index before it loads any script still missing; a worker not
      // yet warm is not sent the scripts first, which would hold the index back until they are in
      this.spawn().postMessage(Object.assign({ type: "init", index: config.index, meta: config.meta,
        docs: config.docs }, scripts));
      this.ready.then(() => {
        // why: lets people and tests see that search is ready
        document.querySelectorAll("#site-search-input, #search-input").forEach((i) => { i.dataset.ready = "true"; });
      }, () => {});
      return this.ready;
    },
    scriptsIn: () => {},
    loaded: () => {},
    fail: () => {},
    search(q, filters, limit, offset) {
      const self = this;
      return this.start().then(() => {
        return new Promise((resolve) => {
          const id = self.next++;
          self.waiting[id] = resolve;
          self.worker.postMessage({ type: "search", id: id, q: q, filters: filters, limit: limit, offset: offset || 0 });
        });
      });
    }
  };

  /** The worker and its scripts, not the index, once the page has loaded and the browser is
      idle: a first focus then waits only for the index (which is fetched only then). */
  function warmWhenIdle() {
    if (navigator.connection && navigator.connection.saveData) { return; }
    const idle = window.requestIdleCallback || ((run) => setTimeout(run, 1000));
    const warm = () => { idle(() => { engine.warm(); }, { timeout: 5000 }); };
    if (document.readyState === "complete") { warm(); } else { window.addEventListener("load", warm); }
  }

  /* ---- drawing results ----------------------------------------------------------------- */
  function highlighted(parent, text, ranges) {
    let at = 0;
    (ranges || []).forEach((r) => {
      if (r[0] < at) { return; }
      parent.appendChild(document.createTextNode(text.slice(at, r[0])));
      parent.appendChild(el("mark", "", text.slice(r[0], r[1])));
      at = r[1];
    });
    parent.appendChild(document.createTextNode(text.slice(at)));
    return parent;
  }

  function resultItem(r, compact) {
    const item = el("li", compact ? "result compact" : "card result");
    const heading = el(compact ? "p" : "h2", compact ? "result-title" : "card-title");
    const link = highlighted(el("a"), r.title, r.titleMarks);
    link.href = r.url;
    heading.appendChild(link);
    item.appendChild(heading);
    item.appendChild(el("p", "authors", r.authors.join(", ")));
    const meta = [r.venue].concat(r.tags).filter(Boolean).join(" \u00b7 ");
    if (meta) { item.appendChild(el("p", "meta", meta)); }
    item.appendChild(highlighted(el("p", "excerpt"), r.snippet, r.snippetMarks));
    return item;
  }

  /** "Showing results for *retrieval* augmented" when the worker corrected a word (`searched`,
      the query as searched), else nothing; the corrected words in <em>. The notice stays in
      the page, empty, so that screen readers announce it when it fills (aria-live). */
  function showSearched(notice, searched) {
    notice.textContent = "";
    if (!searched) { return; }
    // why: the query goes where the language puts it, as nodes (its corrected words in <em>)
    const query = document.createDocumentFragment();
    searched.forEach((part) => {
      query.appendChild(part.corrected ? el("em", "", part.text) : document.createTextNode(part.text));
    });
    notice.append.apply(notice, shared.around("showingResultsFor", "query", query));
  }

  function statusText(total, q) {
    if (total === 0) { return q ? say("noMatch", { query: q }) : say("noMatchFilters"); }
    return count("matches", total);
  }

  /* ---- keyboard: arrows move through result links, Esc clears -------------------------- */
  function keyboard(input, list, onEscape) {
    function links() { return Array.prototype.slice.call(list.querySelectorAll("li a")); }
    function move(event, step) {
      const all = links();
      const at = all.indexOf(document.activeElement);
      const to = at + step;
      if (!all.length || (at === -1 && step < 0)) { return; }
      event.preventDefault();
      if (to < 0) { input.focus(); } else if (to < all.length) { all[to].focus(); }
    }
    [input, list].forEach((target) => {
      target.addEventListener("keydown", (event) => {
        if (event.key === "ArrowDown") { move(event, 1); }
        else if (event.key === "ArrowUp") { move(event, -1); }
        else if (event.key === "Escape") { event.preventDefault(); onEscape(); input.focus(); }
      });
    });
  }

  document.addEventListener("keydown", (event) => {
    const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName) || event.target.isContentEditable;
    if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      (document.getElementById("search-input") || form.elements.q).focus();
    }
  });

  function debounce(fn, ms) {
    let timer = 0;
    return () => { window.clearTimeout(timer); timer = window.setTimeout(fn, ms); };
  }

  window.DigestSearch = { engine: engine, el: el, resultItem: resultItem, statusText: statusText,
    showSearched: showSearched, say: say, count: count, number: number, list: shared.list,
    keyboard: keyboard, debounce: debounce, config: config };

  /* ---- the header box: a WAI-ARIA 1.2 combobox ------------------------------------------
     Focus never leaves the box: the arrow keys move aria-activedescendant through the options,
     Enter opens the active one (or, with none active, the search page), Escape closes and clears. */
  const input = form.elements.q;
  const panel = el("div", "search-panel");
  const notice = el("p", "search-notice");
  const status = el("p", "meta");
  const list = el("ol", "results");
  const all = el("a", "all-results");
  // why: made here, not in every page: without this script the box is a plain search form
  panel.id = "site-search-panel";
  panel.hidden = true;
  notice.id = "site-search-notice";
  notice.setAttribute("aria-live", "polite");
  status.id = "site-search-status";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  list.id = "site-search-results";
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", say("papersFound"));
  all.id = "site-search-all";
  all.href = config.page;
  all.hidden = true;
  panel.append(notice, status, list, all);
  form.append(panel);
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-expanded", "false");
  input.setAttribute("aria-controls", list.id);
  let latest = 0;
  let active = -1;

  function pageUrl(q) { return config.page + (q ? "?q=" + encodeURIComponent(q) : ""); }

  function options() { return Array.prototype.slice.call(list.querySelectorAll("[role=option]")); }

  function setOpen(open) {
    panel.hidden = !open;
    input.setAttribute("aria-expanded", open ? "true" : "false");
    if (!open) { activate(-1); }
  }

  function activate(at) {
    const opts = options();
    active = at;
    opts.forEach((option, n) => { option.setAttribute("aria-selected", n === at ? "true" : "false"); });
    if (at < 0 || at >= opts.length) { input.removeAttribute("aria-activedescendant"); return; }
    input.setAttribute("aria-activedescendant", opts[at].id);
    opts[at].scrollIntoView({ block: "nearest" });
  }

  function optionItem(r, n) {
    const item = resultItem(r, true);
    item.id = "site-search-option-" + n;
    item.setAttribute("role", "option");
    item.setAttribute("aria-selected", "false");
    // why: an option's content is presentational; its link is for the mouse, never a tab stop
    item.querySelector("a").tabIndex = -1;
    return item;
  }

  function clear() {
    latest += 1; // why: an answer still on its way would open the panel again
    input.value = ""; list.textContent = ""; status.textContent = ""; showSearched(notice, null); setOpen(false);
  }

  function show(reply, q) {
    list.textContent = "";
    setOpen(true);
    if (reply.type === "error") { status.textContent = say("searchFailed"); return; }
    reply.results.forEach((r, n) => { list.appendChild(optionItem(r, n)); });
    showSearched(notice, reply.searched);
    status.textContent = statusText(reply.total, q);
    all.href = pageUrl(q);
    all.hidden = reply.total <= reply.results.length;
    all.textContent = count("allResults", reply.total);
  }

  const update = debounce(() => {
    const q = input.value;
    const ticket = ++latest;
    if (!q.trim()) { list.textContent = ""; status.textContent = ""; showSearched(notice, null); setOpen(false); return; }
    engine.search(q, {}, 6).then((reply) => {
      if (ticket === latest) { show(reply, q); }
    }, () => { status.textContent = say("indexFailed"); setOpen(true); });
  }, 120);

  function onKey(event) {
    const shown = options().length;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!shown) { return; }
      event.preventDefault();
      if (panel.hidden) { setOpen(true); }
      const step = event.key === "ArrowDown" ? 1 : -1;
      // why: past either end the box itself is active again, as in the APG's list autocomplete
      const to = active + step;
      activate(to < -1 ? shown - 1 : (to >= shown ? -1 : to));
    } else if (event.key === "Enter" && active >= 0 && !panel.hidden) {
      event.preventDefault();
      window.location.href = options()[active].querySelector("a").href;
    } else if (event.key === "Escape") {
      event.preventDefault();
      clear();
    }
  }

  input.addEventListener("focus", () => { engine.start().catch(() => {}); });
  warmWhenIdle();
  input.addEventListener("input", () => { activate(-1); update(); });
  input.addEventListener("keydown", onKey);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    window.location.href = pageUrl(input.value);
  });
  // why: a click on an option's padding (not its link) opens it too
  list.addEventListener("click", (event) => {
    const option = event.target.closest("[role=option]");
    if (option && !event.target.closest("a")) { window.location.href = option.querySelector("a").href; }
  });
  document.addEventListener("click", (event) => {
    if (!form.contains(event.target)) { setOpen(false); }
  });
})();
