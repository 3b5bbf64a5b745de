/* Search page: loads the index prebuilt by lunr.py into lunr.js and lists matching papers.
   Queries are built with lunr's Query API from plain words, so no input can be a syntax error.
   Results are inserted as text nodes only: nothing from the index is parsed as HTML. */
(function () {
  "use strict";
  var input = document.getElementById("search-input");
  var list = document.getElementById("search-results");
  var status = document.getElementById("search-status");
  if (!input || !list || !status || typeof lunr === "undefined") { return; }

  var index = null;
  var docs = [];
  var timer = 0;

  function words(text) {
    // Same normalisation as the build's index_text(): letters and digits only.
    return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(function (w) { return w.length > 0; });
  }

  function run(terms, required, fuzzy) {
    return index.query(function (q) {
      terms.forEach(function (term, i) {
        var presence = required ? lunr.Query.presence.REQUIRED : lunr.Query.presence.OPTIONAL;
        if (fuzzy) {
          q.term(term, { editDistance: 1, presence: presence });
        } else if (i === terms.length - 1 && !required) {
          q.term(term, { presence: presence });
          q.term(term, { wildcard: lunr.Query.wildcard.TRAILING, usePipeline: false, boost: 0.5 });
        } else {
          q.term(term, { presence: presence });
        }
      });
    });
  }

  function search(text) {
    var terms = words(text);
    if (terms.length === 0) { return []; }
    // Papers with every word first; then any word (the last one also as a prefix); then typos.
    var results = run(terms, true, false);
    var seen = {};
    results.forEach(function (r) { seen[r.ref] = true; });
    run(terms, false, false).forEach(function (r) {
      if (!seen[r.ref]) { seen[r.ref] = true; results.push(r); }
    });
    return results.length ? results : run(terms, false, true);
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text) { node.textContent = text; }
    return node;
  }

  function show(text) {
    list.textContent = "";
    if (!text.trim()) { status.textContent = ""; return; }
    var results = search(text);
    status.textContent = results.length === 0 ? "No papers match \u201c" + text + "\u201d."
      : results.length + (results.length === 1 ? " paper matches." : " papers match.");
    results.forEach(function (result) {
      var doc = docs[Number(result.ref)];
      if (!doc) { return; }
      var item = el("li", "card");
      var title = el("h2", "card-title");
      var link = el("a", "", doc.title);
      link.href = doc.url;
      title.appendChild(link);
      item.appendChild(title);
      item.appendChild(el("p", "authors", doc.authors.join(", ")));
      if (doc.venue) { item.appendChild(el("p", "meta", doc.venue)); }
      item.appendChild(el("p", "excerpt", doc.excerpt));
      if (doc.tags.length) { item.appendChild(el("p", "meta", doc.tags.join(" \u00b7 "))); }
      list.appendChild(item);
    });
  }

  function update() {
    var text = input.value;
    var url = new URL(window.location.href);
    if (text) { url.searchParams.set("q", text); } else { url.searchParams.delete("q"); }
    window.history.replaceState(null, "", url.toString());
    show(text);
  }

  function load() {
    status.textContent = "Loading the search index\u2026";
    return Promise.all([fetch(input.dataset.index), fetch(input.dataset.docs)])
      .then(function (responses) {
        return Promise.all(responses.map(function (r) {
          if (!r.ok) { throw new Error(r.status + " " + r.url); }
          return r.json();
        }));
      })
      .then(function (data) {
        index = lunr.Index.load(data[0]);
        docs = data[1];
        status.textContent = "";
        input.dataset.ready = "true";
        update();
      })
      .catch(function () { status.textContent = "The search index could not be loaded."; });
  }

  input.value = new URL(window.location.href).searchParams.get("q") || "";
  input.addEventListener("input", function () {
    window.clearTimeout(timer);
    timer = window.setTimeout(function () { if (index) { update(); } }, 120);
  });
  input.form.addEventListener("submit", function (event) { event.preventDefault(); if (index) { update(); } });
  load();
}());
