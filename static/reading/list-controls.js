/* Sorting and filtering the home page's list across every paper, not one page of it: by tags,
   by words the title, authors, venue or tags must have (or, after a minus, must not), and by
   how papers were presented (oral, spotlight, poster). The state is in the URL
   (?sort=title&tag=llm&q=graph+-survey&kind=oral&page=2), so it can be shared, reloaded and gone
   Back to. list.json is fetched when a reader first uses a control (or opens such a URL); until
   then, and without JavaScript, the build's own pages are the list. The orders come made from
   the build: this script only filters and cuts pages. */
(() => {
  "use strict";
  const reading = window.DigestReading;
  const form = document.getElementById("list-controls");
  const container = document.getElementById("paper-list");
  if (!reading || !form || !container || !window.fetch || !window.history.pushState) { return; }
  const { config, el, say, count, number } = reading;
  const sortSelect = document.getElementById("list-sort");
  const tagSelect = document.getElementById("list-tag") || el("select"); // why: none without tags
  const wordsBox = document.getElementById("list-words");
  const kindSelect = document.getElementById("list-kind");
  const chips = document.getElementById("list-filters");
  const status = document.getElementById("list-status");
  const SORTS = { added: "sortAdded", title: "sortTitle", venue: "sortVenue" }; // their words' keys
  // why: page numbers on each side of the current one, as the build's pagination has them
  // (generator/outputs/lists.py's PAGE_WINDOW)
  const WINDOW = 2;
  const serverRows = Array.from(container.childNodes); // why: Back to the page as built
  const builtPath = window.location.pathname;

  /* ---- the state and its URL ------------------------------------------------------------ */
  function readState() {
    const params = new URLSearchParams(window.location.search);
    const sort = SORTS[params.get("sort")] ? params.get("sort") : "added";
    const page = Math.max(1, parseInt(params.get("page"), 10) || 1);
    return { sort, tags: [...new Set(params.getAll("tag"))], page, q: params.get("q") || "",
      kind: params.get("kind") || "" };
  }

  function urlOf(state) {
    const params = new URLSearchParams();
    if (state.sort !== "added") { params.set("sort", state.sort); }
    state.tags.forEach((tag) => params.append("tag", tag));
    if (state.q.trim()) { params.set("q", state.q.trim()); }
    if (state.kind) { params.set("kind", state.kind); }
    if (state.page > 1) { params.set("page", String(state.page)); }
    const query = params.toString();
    return config.home + (query ? `?${query}` : "");
  }

  /** Whether the URL is the page the build made, with no sort or filter of the reader's. */
  function onBuiltPage() {
    return !window.location.search && window.location.pathname === builtPath;
  }

  function go(state, focusList, replace) {
    window.history[replace ? "replaceState" : "pushState"](null, "", urlOf(state));
    show(state, focusList);
  }

  /* ---- words: a paper must have each word (as the start of one of its words), and none of
     the words after a minus, in its title, authors, venue or tags; accents and case aside ---- */
  const fold = (text) => text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

  function wordsOf(q) {
    const words = fold(q).split(/\s+/).filter((word) => word && word !== "-");
    return { want: words.filter((word) => !word.startsWith("-")),
      not: words.filter((word) => word.startsWith("-")).map((word) => word.slice(1)) };
  }

  function haystack(paper, tagsBySlug) {
    const names = paper.authors.map((author) => author.name);
    const tags = paper.tags.map((slug) => (tagsBySlug.get(slug) || {}).name || slug);
    return ` ${fold([paper.text || paper.title, ...names, paper.venue, ...tags].join(" "))
      .replace(/[^\p{L}\p{N}]+/gu, " ")} `;
  }

  function matches(words, text) {
    const has = (word) => text.includes(` ${word.replace(/[^\p{L}\p{N}]+/gu, " ").trim()}`);
    return words.want.every(has) && !words.not.some(has);
  }

  /* ---- drawing the list ----------------------------------------------------------------- */
  /** The page numbers the pagination shows, 0 for a gap, as generator/outputs/lists.py's
      page_numbers() has them (tests/test_js_parity.py holds the two alike). */
  function pageNumbers(page, pages) {
    const near = [];
    for (let n = Math.max(1, page - WINDOW); n <= Math.min(pages, page + WINDOW); n++) { near.push(n); }
    const shown = [...new Set([1, ...near, pages])].sort((a, b) => a - b);
    const numbers = [];
    shown.forEach((n) => {
      const last = numbers[numbers.length - 1];
      if (last && n - last === 2) { numbers.push(n - 1); } else if (last && n - last > 2) { numbers.push(0); }
      numbers.push(n);
    });
    return numbers;
  }

  function pageLink(state, page, text, rel) {
    const a = el("a", "", text);
    a.href = urlOf({ ...state, page });
    a.dataset.page = String(page);
    if (rel) { a.rel = rel; }
    return a;
  }

  function pagination(state, pages) {
    const nav = el("nav", "pagination");
    nav.setAttribute("aria-label", say("pages"));
    if (state.page > 1) { nav.append(pageLink(state, state.page - 1, say("previousPage"), "prev")); }
    const list = el("ol", "page-numbers");
    pageNumbers(state.page, pages).forEach((n) => {
      const item = el("li", n ? "" : "gap", n ? undefined : "…");
      if (!n) { item.setAttribute("aria-hidden", "true"); }
      if (n) {
        const a = pageLink(state, n, String(n));
        if (n === state.page) { a.setAttribute("aria-current", "page"); }
        item.append(a);
      }
      list.append(item);
    });
    nav.append(list);
    if (state.page < pages) { nav.append(pageLink(state, state.page + 1, say("nextPage"), "next")); }
    return nav;
  }

  function names(tags, tagsBySlug) {
    return reading.list(tags.map((slug) => tagsBySlug.get(slug).name));
  }

  /** '12 papers tagged llm and agents, by title, page 2 of 3.' in the site's language. */
  function statusText(state, total, pages, tagsBySlug) {
    let papers = state.tags.length ? count("papersTagged", total, { tag: names(state.tags, tagsBySlug) })
      : count("papers", total);
    if (state.kind) { papers = say("papersKind", { papers, kind: say(state.kind) }); }
    if (state.q.trim()) { papers = say("papersWords", { papers, words: state.q.trim() }); }
    const values = { papers, sort: say(SORTS[state.sort]), page: number(state.page), pages: number(pages) };
    return say(pages > 1 ? "listStatusPage" : "listStatus", values);
  }

  function drawChips(state, tagsBySlug) {
    chips.replaceChildren(...state.tags.map((slug) => {
      const button = el("button", "chip", `${tagsBySlug.get(slug).name} ×`);
      button.type = "button";
      button.dataset.tag = slug;
      button.setAttribute("aria-label", say("removeTagFilter", { tag: tagsBySlug.get(slug).name }));
      const item = el("li");
      item.append(button);
      return item;
    }));
  }

  /** Each tag's option with how many of the listed papers have it (0: none; chosen: off). */
  function countTags(state, refs, papers) {
    const counts = new Map();
    refs.forEach((ref) => papers[ref].tags.forEach((tag) => counts.set(tag, (counts.get(tag) || 0) + 1)));
    Array.from(tagSelect.options).forEach((option) => {
      if (!option.value) { return; }
      const papers = counts.get(option.value) || 0;
      option.textContent = `${option.dataset.name} (${number(papers)})`;
      option.disabled = papers === 0 || state.tags.includes(option.value);
    });
  }

  let drawing = 0;
  async function show(state, focusList) {
    const mine = ++drawing;
    sortSelect.value = state.sort;
    if (document.activeElement !== wordsBox) { wordsBox.value = state.q; } // why: not under the typing
    if (kindSelect) { kindSelect.value = state.kind; }
    if (onBuiltPage()) {
      container.replaceChildren(...serverRows);
      chips.replaceChildren();
      status.textContent = "";
      return;
    }
    let data;
    try {
      status.textContent = say("listLoading");
      data = await reading.loadList();
    } catch (error) {
      status.textContent = say("listFailed");
      return;
    }
    if (mine !== drawing) { return; } // why: a later choice was made while this one loaded
    const tagsBySlug = new Map(data.tags.map((tag) => [tag.slug, tag]));
    state = { ...state, tags: state.tags.filter((slug) => tagsBySlug.has(slug)) };
    const words = wordsOf(state.q);
    const refs = data.orders[state.sort].filter((ref) => {
      const paper = data.papers[ref];
      return state.tags.every((tag) => paper.tags.includes(tag))
        && (!state.kind || paper.presentation === state.kind)
        && (!state.q.trim() || matches(words, haystack(paper, tagsBySlug)));
    });
    const pages = Math.max(1, Math.ceil(refs.length / config.page_size));
    state.page = Math.min(state.page, pages);
    const start = (state.page - 1) * config.page_size;
    const rows = refs.slice(start, start + config.page_size)
      .map((ref) => reading.row(data.papers[ref], tagsBySlug));
    container.replaceChildren(...rows, ...(pages > 1 ? [pagination(state, pages)] : []));
    reading.enliven(container);
    drawChips(state, tagsBySlug);
    countTags(state, refs, data.papers);
    status.textContent = statusText(state, refs.length, pages, tagsBySlug);
    if (focusList) {
      container.focus();
      container.scrollIntoView({ block: "start" });
    }
  }

  /* ---- the controls ----------------------------------------------------------------------- */
  sortSelect.addEventListener("change", () => {
    go({ ...readState(), sort: sortSelect.value, page: 1 });
  });
  let typing = 0;
  wordsBox.addEventListener("input", () => {
    window.clearTimeout(typing);
    // why: the list follows the words as they are typed; one history entry for the typing
    typing = window.setTimeout(() => go({ ...readState(), q: wordsBox.value, page: 1 }, false,
      readState().q !== ""), 250);
  });
  if (kindSelect) {
    kindSelect.addEventListener("change", () => go({ ...readState(), kind: kindSelect.value, page: 1 }));
  }
  function addTag() {
    const tag = tagSelect.value;
    tagSelect.value = "";
    const state = readState();
    if (tag && !state.tags.includes(tag)) { go({ ...state, tags: [...state.tags, tag], page: 1 }); }
  }
  // why: arrow keys on a closed select change its value as they pass each option; adding every
  // tag passed would be a trap, so the keyboard adds with Enter or the Add button, and a
  // choice made with the pointer in the open list adds at once.
  let pointer = false;
  tagSelect.addEventListener("pointerdown", () => { pointer = true; });
  tagSelect.addEventListener("keydown", (event) => {
    pointer = false;
    if (event.key === "Enter") {
      event.preventDefault();
      addTag();
    }
  });
  tagSelect.addEventListener("change", () => { if (pointer) { addTag(); } });
  chips.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-tag]");
    if (!button) { return; }
    const state = readState();
    go({ ...state, tags: state.tags.filter((tag) => tag !== button.dataset.tag), page: 1 });
    tagSelect.focus(); // why: the button pressed is gone
  });
  container.addEventListener("click", (event) => {
    const a = event.target.closest(".pagination a[data-page]");
    if (!a || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) { return; }
    event.preventDefault();
    go({ ...readState(), page: Number(a.dataset.page) }, true);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (document.activeElement === wordsBox) {
      window.clearTimeout(typing);
      go({ ...readState(), q: wordsBox.value, page: 1 }, true);
    } else {
      addTag();
    }
  });
  window.addEventListener("popstate", () => { show(readState()); });

  form.hidden = false;
  if (!onBuiltPage()) { show(readState()); }
})();
