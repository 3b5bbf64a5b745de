/* Search in the browser: the header box on every page (results as you type) and the search
   page (all results, facets, state in the URL). The index is fetched on first focus and queried
   in a Web Worker. Everything from the index is inserted as text; highlights are <mark> nodes. */
(function () {
  "use strict";
  var form = document.getElementById("site-search");
  // why: one manifest of the search's scripts and data files, written by the build
  var manifest = document.getElementById("search-config");
  if (!form || !manifest || !window.Worker || !window.fetch) { return; }
  var config = JSON.parse(manifest.textContent);

  /* ---- words: every one comes from the page, in the site's language -------------------- */
  var messages = JSON.parse((document.getElementById("interface-messages") || {}).textContent || "{}");
  var lang = document.documentElement.lang || "en";
  var plurals = window.Intl && Intl.PluralRules ? new Intl.PluralRules(lang) : null;
  var numbers = window.Intl && Intl.NumberFormat ? new Intl.NumberFormat(lang) : null;

  /** The message `key` with its %(name)s placeholders filled from `values`. */
  function say(key, values) {
    return fill(messages[key] || "", values || {});
  }
  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) {
      return name in values ? String(values[name]) : all;
    });
  }
  /** The form of the plural message `key` for `n` (the build gives one per CLDR category of the
      language, Intl.PluralRules picks it), with %(num)s as the language writes n. */
  function count(key, n, values) {
    var forms = messages[key] || {};
    var form = forms[plurals ? plurals.select(n) : "other"] || forms.other || "";
    return fill(form, Object.assign({ num: number(n) }, values || {}));
  }
  /** A count as the site's language writes it. */
  function number(n) { return numbers ? numbers.format(n) : String(n); }

  /* ---- the worker ---------------------------------------------------------------------- */
  var scripts = config.scripts;
  var engine = {
    worker: null, warmed: null, ready: null, next: 1, waiting: {},
    /** The worker, made once; a worker that failed before start() is made again by start(). */
    spawn: function () {
      if (this.worker) { return this.worker; }
      var self = this, worker = new Worker(config.worker);
      worker.onmessage = function (event) {
        var msg = event.data;
        if (msg.type === "scripts") { self.scriptsIn(); return; } // why: loaded or not, init tries
        if (msg.type === "ready") { self.loaded(msg); return; }
        if (msg.type === "error" && msg.id === undefined) { self.fail(new Error(msg.message)); return; }
        var done = self.waiting[msg.id];
        delete self.waiting[msg.id];
        if (done) { done(msg); }
      };
      worker.onerror = function (event) {
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
    warm: function () {
      if (this.warmed) { return this.warmed; }
      var self = this;
      this.warmed = new Promise(function (resolve) { self.scriptsIn = resolve; });
      this.spawn().postMessage(Object.assign({ type: "scripts" }, scripts));
      return this.warmed;
    },
    start: function () {
      if (this.ready) { return this.ready; }
      var self = this;
      this.ready = new Promise(function (resolve, reject) { self.loaded = resolve; self.fail = reject; });
      // why: init asks for the index before it loads any script still missing; a worker not
      // yet warm is not sent the scripts first, which would hold the index back until they are in
      this.spawn().postMessage(Object.assign({ type: "init", index: config.index, meta: config.meta,
        docs: config.docs }, scripts));
      this.ready.then(function () {
        // why: lets people and tests see that search is ready
        document.querySelectorAll("input[type=search]").forEach(function (i) { i.dataset.ready = "true"; });
      }, function () {});
      return this.ready;
    },
    scriptsIn: function () {},
    loaded: function () {},
    fail: function () {},
    search: function (q, filters, limit, offset) {
      var self = this;
      return this.start().then(function () {
        return new Promise(function (resolve) {
          var id = self.next++;
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
    var idle = window.requestIdleCallback || function (run) { return setTimeout(run, 1000); };
    var warm = function () { idle(function () { engine.warm(); }, { timeout: 5000 }); };
    if (document.readyState === "complete") { warm(); } else { window.addEventListener("load", warm); }
  }

  /* ---- drawing results ----------------------------------------------------------------- */
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text) { node.textContent = text; }
    return node;
  }

  function highlighted(parent, text, ranges) {
    var at = 0;
    (ranges || []).forEach(function (r) {
      if (r[0] < at) { return; }
      parent.appendChild(document.createTextNode(text.slice(at, r[0])));
      parent.appendChild(el("mark", "", text.slice(r[0], r[1])));
      at = r[1];
    });
    parent.appendChild(document.createTextNode(text.slice(at)));
    return parent;
  }

  function resultItem(r, compact) {
    var item = el("li", compact ? "result compact" : "card result");
    var heading = el(compact ? "p" : "h2", compact ? "result-title" : "card-title");
    var link = highlighted(el("a"), r.title, r.titleMarks);
    link.href = r.url;
    heading.appendChild(link);
    item.appendChild(heading);
    item.appendChild(el("p", "authors", r.authors.join(", ")));
    var meta = [r.venue].concat(r.tags).filter(Boolean).join(" \u00b7 ");
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
    var around = (messages.showingResultsFor || "%(query)s").split("%(query)s");
    notice.appendChild(document.createTextNode(around[0]));
    searched.forEach(function (part) {
      notice.appendChild(part.corrected ? el("em", "", part.text) : document.createTextNode(part.text));
    });
    notice.appendChild(document.createTextNode(around.slice(1).join("")));
  }

  function statusText(total, q) {
    if (total === 0) { return q ? say("noMatch", { query: q }) : say("noMatchFilters"); }
    return count("matches", total);
  }

  /* ---- keyboard: arrows move through result links, Esc clears -------------------------- */
  function keyboard(input, list, onEscape) {
    function links() { return Array.prototype.slice.call(list.querySelectorAll("li a")); }
    function move(event, step) {
      var all = links();
      var at = all.indexOf(document.activeElement);
      var to = at + step;
      if (!all.length || (at === -1 && step < 0)) { return; }
      event.preventDefault();
      if (to < 0) { input.focus(); } else if (to < all.length) { all[to].focus(); }
    }
    [input, list].forEach(function (target) {
      target.addEventListener("keydown", function (event) {
        if (event.key === "ArrowDown") { move(event, 1); }
        else if (event.key === "ArrowUp") { move(event, -1); }
        else if (event.key === "Escape") { event.preventDefault(); onEscape(); input.focus(); }
      });
    });
  }

  document.addEventListener("keydown", function (event) {
    var typing = /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName) || event.target.isContentEditable;
    if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      (document.getElementById("search-input") || form.elements.q).focus();
    }
  });

  function debounce(fn, ms) {
    var timer = 0;
    return function () { window.clearTimeout(timer); timer = window.setTimeout(fn, ms); };
  }

  window.DigestSearch = { engine: engine, el: el, resultItem: resultItem, statusText: statusText,
    showSearched: showSearched, say: say, count: count, number: number,
    keyboard: keyboard, debounce: debounce, config: config };

  /* ---- the header box ------------------------------------------------------------------ */
  var input = form.elements.q;
  var panel = document.getElementById("site-search-panel");
  var list = document.getElementById("site-search-results");
  var status = document.getElementById("site-search-status");
  var notice = document.getElementById("site-search-notice");
  var all = document.getElementById("site-search-all");
  var latest = 0;

  function pageUrl(q) { return config.page + (q ? "?q=" + encodeURIComponent(q) : ""); }

  function clear() {
    input.value = ""; list.textContent = ""; status.textContent = ""; showSearched(notice, null); panel.hidden = true;
  }

  var update = debounce(function () {
    var q = input.value;
    var ticket = ++latest;
    if (!q.trim()) { list.textContent = ""; status.textContent = ""; showSearched(notice, null); panel.hidden = true; return; }
    engine.search(q, {}, 6).then(function (reply) {
      if (ticket !== latest) { return; }
      list.textContent = "";
      panel.hidden = false;
      if (reply.type === "error") { status.textContent = say("searchFailed"); return; }
      reply.results.forEach(function (r) { list.appendChild(resultItem(r, true)); });
      showSearched(notice, reply.searched);
      status.textContent = statusText(reply.total, q);
      all.href = pageUrl(q);
      all.hidden = reply.total <= reply.results.length;
      all.textContent = count("allResults", reply.total);
    }, function () { status.textContent = say("indexFailed"); panel.hidden = false; });
  }, 120);

  input.addEventListener("focus", function () { engine.start().catch(function () {}); });
  warmWhenIdle();
  input.addEventListener("input", update);
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    window.location.href = pageUrl(input.value);
  });
  document.addEventListener("click", function (event) {
    if (!form.contains(event.target)) { panel.hidden = true; }
  });
  keyboard(input, list, clear);
}());
