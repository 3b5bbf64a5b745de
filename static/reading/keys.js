/* Keys for everything, as feed readers have them: j and k move through the papers of a list (or
   search results, or authors), o or Enter opens the one reached, s saves it, f follows the author
   or tag, / searches (search/ui.js), ? shows the keys. Never while typing in a field, never with
   Ctrl, Alt or ⌘; each move is said to screen readers. */
(() => {
  "use strict";
  const shared = window.Digest;
  if (!shared) { return; }
  const { say, el } = shared;
  const ITEMS = ["#followed-list article.card", "#paper-list article.card", "#saved-shared-list article.card",
    "#saved-list article.card", "#saved-like-list article.card", "#search-results li.result",
    "#site-search-results li", "section.author"].join(", ");
  const KEYS = [["j", "keysNext"], ["k", "keysPrevious"], ["o", "keysOpen"], ["s", "keysSave"],
    ["f", "keysFollow"], ["/", "keysSearch"], ["?", "keysHelp"]];
  const said = el("p", "visually-hidden");
  said.setAttribute("aria-live", "polite");
  document.body.append(said);

  function typing(target) {
    return target.closest && target.closest("input, textarea, select, [contenteditable]:not([contenteditable='false'])");
  }

  function visible(item) { return item.getClientRects().length > 0; }

  /** The item's link to open, and what it is called. */
  function primary(item) {
    return item.querySelector(".card-title a, .result-title a, a") || item;
  }

  function titleOf(item) {
    const heading = item.querySelector("h2, .card-title, .result-title");
    return (heading || item).textContent.replace(/\s+/g, " ").trim();
  }

  function move(step) {
    const items = Array.from(document.querySelectorAll(ITEMS)).filter(visible);
    if (!items.length) { return; }
    const at = items.findIndex((item) => item.contains(document.activeElement));
    const next = at < 0 ? (step > 0 ? 0 : items.length - 1) : Math.min(items.length - 1, Math.max(0, at + step));
    const target = primary(items[next]);
    target.focus();
    target.scrollIntoView({ block: "nearest" });
    said.textContent = say("keysItem", { num: next + 1, total: items.length, title: titleOf(items[next]) });
  }

  /** The item the focus is in, or the page itself (a paper's page, a tag's page). */
  function current() {
    return Array.from(document.querySelectorAll(ITEMS)).find((item) => item.contains(document.activeElement))
      || document.querySelector("article.paper, main");
  }

  function pressIn(selector) {
    const item = current();
    const button = item && item.querySelector(selector) || document.querySelector(`main ${selector}`);
    if (button && !button.disabled) {
      button.click();
      said.textContent = `${button.textContent.trim()}: ${item ? titleOf(item) : ""}`;
    }
  }

  let dialog = null;
  function help() {
    if (!dialog) {
      dialog = el("dialog", "keys-help");
      dialog.setAttribute("aria-labelledby", "keys-help-title");
      const heading = el("h2", "", say("keysTitle"));
      heading.id = "keys-help-title";
      const list = el("dl");
      KEYS.forEach(([key, what]) => list.append(el("dt", "", key), el("dd", "", say(what))));
      const close = el("button", "button", say("keysClose"));
      close.type = "button";
      close.addEventListener("click", () => dialog.close());
      dialog.append(heading, list, close);
      document.body.append(dialog);
    }
    if (dialog.open) { dialog.close(); } else { dialog.showModal(); }
  }

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || typing(event.target)) { return; }
    const actions = { j: () => move(1), k: () => move(-1), o: () => primary(current()).click(),
      s: () => pressIn("button[data-save]"),
      f: () => pressIn("button[data-follow-authors], button[data-follow-tags]"), "?": help };
    const action = actions[event.key];
    if (!action || (event.key === "o" && !current().matches(ITEMS))) { return; }
    event.preventDefault();
    action();
  });
})();
