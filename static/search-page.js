/* The search page: every result, facets whose counts follow the results, and the state in the
   URL (?q=...&tag=...&venue=...&year=...) so a search can be shared, bookmarked and gone Back to. */
(function () {
  "use strict";
  var S = window.DigestSearch;
  var input = document.getElementById("search-input");
  if (!S || !input) { return; }
  var list = document.getElementById("search-results");
  var status = document.getElementById("search-status");
  var notice = document.getElementById("search-notice");
  var facetBox = document.getElementById("search-facets");
  var more = document.getElementById("search-more");
  var PAGE = 20;
  var state = readState();
  var shown = 0;
  var latest = 0;

  function readState() {
    var params = new URLSearchParams(window.location.search);
    return { q: params.get("q") || "", tags: params.getAll("tag"), venue: params.get("venue") || "",
      year: params.get("year") || "" };
  }

  function stateUrl() {
    var params = new URLSearchParams();
    if (state.q) { params.set("q", state.q); }
    state.tags.forEach(function (t) { params.append("tag", t); });
    if (state.venue) { params.set("venue", state.venue); }
    if (state.year) { params.set("year", state.year); }
    var query = params.toString();
    return window.location.pathname + (query ? "?" + query : "");
  }

  function save(push) {
    var url = stateUrl();
    if (url === window.location.pathname + window.location.search) { return; }
    window.history[push ? "pushState" : "replaceState"](null, "", url);
  }

  function filters() { return { tags: state.tags, venue: state.venue, year: state.year }; }

  function isEmpty() { return !state.q.trim() && !state.tags.length && !state.venue && !state.year; }

  function run(append) {
    var ticket = ++latest;
    if (isEmpty()) {
      list.textContent = ""; status.textContent = ""; facetBox.textContent = ""; more.hidden = true;
      S.showSearched(notice, null);
      return;
    }
    var offset = append ? shown : 0;
    S.engine.search(state.q, filters(), PAGE, offset).then(function (reply) {
      if (ticket !== latest) { return; }
      if (reply.type === "error") { status.textContent = S.say("searchFailed"); return; }
      if (!append) { list.textContent = ""; }
      reply.results.forEach(function (r) { list.appendChild(S.resultItem(r, false)); });
      shown = offset + reply.results.length;
      if (!append) { S.showSearched(notice, reply.searched); }
      status.textContent = S.statusText(reply.total, state.q);
      more.hidden = shown >= reply.total;
      drawFacets(reply.facets);
      list.dataset.shown = stateUrl(); // why: lets people and tests see which search is on screen
    }, function () { status.textContent = S.say("indexFailed"); });
  }

  function facetGroup(title, key, entries, selected) {
    if (!entries.length || (key !== "tag" && entries.length < 2 && !selected.length)) { return null; }
    var group = S.el("section", "facet");
    group.appendChild(S.el("h2", "facet-title", title));
    var ul = S.el("ul", "facet-list");
    entries.forEach(function (entry) {
      var name = String(entry[0]);
      var on = selected.indexOf(name) >= 0;
      var button = S.el("button", on ? "facet-option on" : "facet-option");
      button.type = "button";
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.dataset.facet = key;
      button.dataset.value = name;
      button.appendChild(S.el("span", "facet-name", name));
      button.appendChild(S.el("span", "count", S.number(entry[1])));
      var li = S.el("li");
      li.appendChild(button);
      ul.appendChild(li);
    });
    group.appendChild(ul);
    return group;
  }

  function drawFacets(f) {
    facetBox.textContent = "";
    [facetGroup(S.say("facetTags"), "tag", f.tags, state.tags),
      facetGroup(S.say("facetVenue"), "venue", f.venues, state.venue ? [state.venue] : []),
      facetGroup(S.say("facetYear"), "year", f.years, state.year ? [state.year] : [])
    ].forEach(function (g) { if (g) { facetBox.appendChild(g); } });
  }

  function toggle(key, value) {
    if (key === "tag") {
      var at = state.tags.indexOf(value);
      if (at >= 0) { state.tags.splice(at, 1); } else { state.tags.push(value); }
    } else {
      state[key] = state[key] === value ? "" : value;
    }
    save(true);
    run(false);
  }

  facetBox.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-facet]");
    if (button) { toggle(button.dataset.facet, button.dataset.value); }
  });
  more.addEventListener("click", function () { run(true); });

  var typed = S.debounce(function () { save(false); run(false); }, 120);
  input.addEventListener("input", function () { state.q = input.value; typed(); });
  input.form.addEventListener("submit", function (event) {
    event.preventDefault();
    state.q = input.value;
    save(true);
    run(false);
  });
  input.addEventListener("focus", function () { S.engine.start().catch(function () {}); });
  window.addEventListener("popstate", function () {
    state = readState();
    input.value = state.q;
    run(false);
  });
  S.keyboard(input, list, function () { input.value = ""; state.q = ""; save(true); run(false); });

  input.value = state.q;
  // why: with autofocus the box may be focused before this script could listen for it
  if (!isEmpty() || document.activeElement === input) { S.engine.start().catch(function () {}); }
  if (!isEmpty()) { run(false); }
}());
