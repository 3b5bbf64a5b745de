/* The saved page: the papers this browser keeps, as rows, with their BibTeX and CSL-JSON to
   download and a button to forget them all. The exports are cut from the site's own all.bib and
   papers.json, so they are exactly what the digest publishes; the files are made in the page,
   and nothing is sent anywhere. */
(() => {
  "use strict";
  const reading = window.DigestReading;
  const notice = document.getElementById("saved-needs-script");
  if (!reading || !notice || !window.fetch) { return; }
  const { config, saved, el, say, count, fetchText, bibEntries, download } = reading;
  if (!reading.storage.works()) {
    notice.textContent = say("savedNoStorage");
    return;
  }
  const tools = document.getElementById("saved-tools");
  const list = document.getElementById("saved-list");
  const status = document.getElementById("saved-status");
  const clearButton = document.getElementById("saved-clear");
  const confirmBox = document.getElementById("saved-confirm");
  const exports = [document.getElementById("saved-export-bib"), document.getElementById("saved-export-csl")];
  notice.hidden = true;
  tools.hidden = false;

  function showCount() {
    const total = saved.list().length;
    status.textContent = total ? count("savedCount", total) : say("savedNone");
    exports.concat([clearButton]).forEach((button) => { button.disabled = total === 0; });
  }

  /** A saved paper the digest no longer has: its title as it was saved, and its button. */
  function goneRow(item) {
    const article = el("article", "card");
    article.dataset.paper = item.slug;
    article.append(el("h2", "card-title", item.title || item.slug));
    const meta = el("p", "meta card-meta", `${say("savedGone")} `);
    const button = el("button", "save-toggle", say("save"));
    button.type = "button";
    button.dataset.save = item.slug;
    button.hidden = true;
    meta.append(button);
    article.append(meta);
    return article;
  }

  async function draw() {
    const items = saved.list();
    showCount();
    if (!items.length) {
      list.replaceChildren();
      return;
    }
    let data;
    try {
      data = await reading.loadList();
    } catch (error) {
      status.textContent = say("savedListFailed");
      return;
    }
    const refOf = new Map(data.papers.map((paper, ref) => [paper.slug, ref]));
    const tagsBySlug = new Map(data.tags.map((tag) => [tag.slug, tag]));
    list.replaceChildren(...items.map((item) => (refOf.has(item.slug)
      ? reading.row(data.papers[refOf.get(item.slug)], tagsBySlug)
      : goneRow(item))));
    reading.enliven(list);
  }

  /* ---- export: the saved papers' entries of the site's own files ------------------------ */
  async function savedKeys() {
    const data = await reading.loadList();
    const slugs = new Set(saved.list().map((item) => item.slug));
    return new Set(data.papers.filter((paper) => slugs.has(paper.slug)).map((paper) => paper.key));
  }

  async function exportAs(kind) {
    try {
      const keys = await savedKeys();
      if (kind === "bib") {
        download("saved-papers.bib", "application/x-bibtex", bibEntries(await fetchText(config.bib), keys));
      } else {
        const items = JSON.parse(await fetchText(config.csl)).filter((item) => keys.has(item.id));
        download("saved-papers.json", "application/vnd.citationstyles.csl+json",
          JSON.stringify(items, null, 2) + "\n");
      }
      status.textContent = count(kind === "bib" ? "exportedBib" : "exportedCsl", keys.size);
    } catch (error) {
      status.textContent = say("exportFailed");
    }
  }

  /* ---- clearing, after a second press --------------------------------------------------- */
  function askToClear(open) {
    confirmBox.hidden = !open;
    clearButton.setAttribute("aria-expanded", String(open));
    if (open) {
      document.getElementById("saved-confirm-text").textContent =
        count("clearConfirm", saved.list().length);
      document.getElementById("saved-clear-no").focus();
    }
  }

  exports[0].addEventListener("click", () => exportAs("bib"));
  exports[1].addEventListener("click", () => exportAs("csl"));
  clearButton.addEventListener("click", () => askToClear(confirmBox.hidden));
  document.getElementById("saved-clear-no").addEventListener("click", () => {
    askToClear(false);
    clearButton.focus();
  });
  document.getElementById("saved-clear-yes").addEventListener("click", () => {
    const total = saved.list().length;
    saved.clear();
    askToClear(false);
    draw();
    status.textContent = count("cleared", total);
    list.focus();
  });
  // why: a paper unsaved here keeps its row (to save it again) until the page is reloaded
  document.addEventListener("digest:saved", showCount);
  draw();
})();
