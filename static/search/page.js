/* The search page: every result, facets whose counts follow the results, and the state in the
   URL (?q=...&tag=...&venue=...&year=...) so a search can be shared, bookmarked and gone Back to. */
(() => {
  "use strict";
  const S = window.DigestSearch;
  const input = document.getElementById("search-input");
  if (!S || !input) { return; }
  const list = document.getElementById("search-results");
  const status = document.getElementById("search-status");
  const notice = document.getElementById("search-notice");
  const facetBox = document.getElementById("search-facets");
  const more = document.getElementById("search-more");
  const chips = document.getElementById("search-chips");
  const filtersToggle = document.getElementById("search-filters-toggle");
  const PAGE = 20;
  let state = readState();
  let shown = 0;
  let latest = 0;

  function readState() {
    const params = new URLSearchParams(window.location.search);
    return { q: params.get("q") || "", tags: params.getAll("tag"), venue: params.get("venue") || "",
      year: params.get("year") || "" };
  }

  function stateUrl() {
    const params = new URLSearchParams();
    if (state.q) { params.set("q", state.q); }
    state.tags.forEach((t) => { params.append("tag", t); });
    if (state.venue) { params.set("venue", state.venue); }
    if (state.year) { params.set("year", state.year); }
    const query = params.toString();
    return window.location.pathname + (query ? "?" + query : "");
  }

  function save(push) {
    const url = stateUrl();
    if (url === window.location.pathname + window.location.search) { return; }
    window.history[push ? "pushState" : "replaceState"](null, "", url);
  }

  function filters() { return { tags: state.tags, venue: state.venue, year: state.year }; }

  function isEmpty() { return !state.q.trim() && !state.tags.length && !state.venue && !state.year; }

  /** The active filters as [key, value] pairs, in the order the chips show them. */
  function activeFilters() {
    const pairs = state.tags.map((t) => { return ["tag", t]; });
    if (state.venue) { pairs.push(["venue", state.venue]); }
    if (state.year) { pairs.push(["year", state.year]); }
    return pairs;
  }

  const CHIPS = { tag: "chipTag", venue: "chipVenue", year: "chipYear" }; // their words' keys

  /** 'tag: llm' in the site's language. */
  function filterName(f) { return S.say(CHIPS[f[0]], { value: f[1] }); }

  function filterNames() { return activeFilters().map(filterName); }

  /** The count, and the filters it is counted under: heard by screen readers, seen as the chips
      just below (written out here, the line would grow and push the results down on a phone). */
  function showStatus(total) {
    status.textContent = S.statusText(total, state.q);
    const names = filterNames();
    if (names.length) {
      status.appendChild(S.el("span", "visually-hidden", " " + S.say("filteredBy", { filters: S.list(names) })));
    }
  }

  /** Shows the browse view for an empty search and reserves the results' room for any other
      (the class is first set before the page is painted, by the page's head). */
  function showMode() {
    document.documentElement.classList.toggle("has-query", !isEmpty());
    document.documentElement.classList.toggle("has-filters", activeFilters().length > 0);
  }

  function run(append) {
    const ticket = ++latest;
    showMode();
    drawChips();
    if (isEmpty()) {
      if (facetBox.contains(document.activeElement)) { input.focus(); }
      list.textContent = ""; status.textContent = ""; facetBox.textContent = ""; more.hidden = true;
      S.showSearched(notice, null);
      return;
    }
    const offset = append ? shown : 0;
    // why: the search asked for now; the box may hold more by the time its answer comes
    const asked = stateUrl();
    S.engine.search(state.q, filters(), PAGE, offset).then((reply) => {
      if (ticket !== latest) { return; }
      if (reply.type === "error") { status.textContent = S.say("searchFailed"); return; }
      if (!append) { list.textContent = ""; }
      reply.results.forEach((r) => { list.appendChild(S.resultItem(r, false)); });
      shown = offset + reply.results.length;
      if (!append) { S.showSearched(notice, reply.searched); }
      showStatus(reply.total);
      more.hidden = shown >= reply.total;
      drawFacets(reply.facets);
      list.dataset.shown = asked; // why: lets people and tests see which search is on screen
    }, () => { status.textContent = S.say("indexFailed"); });
  }

  function facetGroup(title, key, entries, selected) {
    if (!entries.length || (key !== "tag" && entries.length < 2 && !selected.length)) { return null; }
    const group = S.el("section", "facet");
    group.appendChild(S.el("h2", "facet-title", title));
    const ul = S.el("ul", "facet-list");
    entries.forEach((entry) => {
      const name = String(entry[0]);
      const on = selected.indexOf(name) >= 0;
      const button = S.el("button", on ? "facet-option on" : "facet-option");
      button.type = "button";
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.dataset.facet = key;
      button.dataset.value = name;
      button.appendChild(S.el("span", "facet-name", name));
      button.appendChild(S.el("span", "count", S.number(entry[1])));
      const li = S.el("li");
      li.appendChild(button);
      ul.appendChild(li);
    });
    group.appendChild(ul);
    return group;
  }

  function drawFacets(f) {
    const focused = focusedControl(facetBox);
    facetBox.textContent = "";
    [facetGroup(S.say("facetTags"), "tag", f.tags, state.tags),
      facetGroup(S.say("facetVenue"), "venue", f.venues, state.venue ? [state.venue] : []),
      facetGroup(S.say("facetYear"), "year", f.years, state.year ? [state.year] : [])
    ].forEach((g) => { if (g) { facetBox.appendChild(g); } });
    // why: the facets are drawn anew with every answer; the reader stays on the one they toggled
    if (focused) { refocus(facetBox, focused); }
  }

  /** [key, value] of the facet or chip button that has focus inside `box`, else null. */
  function focusedControl(box) {
    const el = document.activeElement;
    return el && box.contains(el) && el.dataset.facet ? [el.dataset.facet, el.dataset.value] : null;
  }

  function controlFor(box, key, value) {
    return Array.prototype.find.call(box.querySelectorAll("button[data-facet]"), (b) => {
      return b.dataset.facet === key && b.dataset.value === value;
    });
  }

  /** Focus on the control for `pair` in `box`, else on its chip (a facet group that went away
      with the filter on), else on the box. */
  function refocus(box, pair) {
    (controlFor(box, pair[0], pair[1]) || controlFor(chips, pair[0], pair[1]) || input).focus();
  }

  /** A chip per active filter ("tag: llm ×"), a button that removes it. */
  function drawChips() {
    chips.textContent = "";
    activeFilters().forEach((f) => {
      const chip = S.el("button", "chip", filterName(f));
      chip.type = "button";
      chip.dataset.facet = f[0];
      chip.dataset.value = f[1];
      chip.setAttribute("aria-label", S.say("removeFilter", { filter: filterName(f) }));
      chip.appendChild(S.el("span", "chip-x", "\u00d7")).setAttribute("aria-hidden", "true");
      const li = S.el("li");
      li.appendChild(chip);
      chips.appendChild(li);
    });
    const on = activeFilters().length;
    filtersToggle.textContent = on ? S.say("filtersCount", { num: S.number(on) }) : S.say("filters");
  }

  /** Where focus goes when a chip goes: the next chip, else the one before, else the box. */
  function afterChip(pair) {
    const all = activeFilters();
    const at = all.findIndex((f) => { return f[0] === pair[0] && f[1] === pair[1]; });
    const rest = all.slice(0, at).concat(all.slice(at + 1));
    return rest[at] || rest[at - 1] || null;
  }

  function toggle(key, value) {
    if (key === "tag") {
      const at = state.tags.indexOf(value);
      if (at >= 0) { state.tags.splice(at, 1); } else { state.tags.push(value); }
    } else {
      state[key] = state[key] === value ? "" : value;
    }
    save(true);
    run(false);
  }

  facetBox.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-facet]");
    if (button) { toggle(button.dataset.facet, button.dataset.value); }
  });
  chips.addEventListener("click", (event) => {
    const chip = event.target.closest("button[data-facet]");
    if (!chip) { return; }
    const next = afterChip([chip.dataset.facet, chip.dataset.value]);
    toggle(chip.dataset.facet, chip.dataset.value);
    // why: the chip is gone; focus must not fall to the page's start
    const target = next && controlFor(chips, next[0], next[1]);
    (target || input).focus();
  });
  filtersToggle.addEventListener("click", () => {
    const open = filtersToggle.getAttribute("aria-expanded") !== "true";
    filtersToggle.setAttribute("aria-expanded", open ? "true" : "false");
    facetBox.classList.toggle("open", open);
  });
  more.addEventListener("click", () => { run(true); });

  const typed = S.debounce(() => { save(false); run(false); }, 120);
  input.addEventListener("input", () => { state.q = input.value; typed(); });
  input.form.addEventListener("submit", (event) => {
    event.preventDefault();
    state.q = input.value;
    save(true);
    run(false);
  });
  input.addEventListener("focus", () => { S.engine.start().catch(() => {}); });
  window.addEventListener("popstate", () => {
    state = readState();
    input.value = state.q;
    run(false);
  });
  S.keyboard(input, list, () => { input.value = ""; state.q = ""; save(true); run(false); });

  input.value = state.q;
  // why: with autofocus the box may be focused before this script could listen for it
  if (!isEmpty() || document.activeElement === input) { S.engine.start().catch(() => {}); }
  if (!isEmpty()) { run(false); }
})();
