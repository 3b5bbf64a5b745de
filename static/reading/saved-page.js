/* The saved page: the papers this browser keeps, as rows, with their BibTeX and CSL-JSON to
   download, a link that shares them, what the reader follows, papers like the ones saved, and a
   button to forget them all. The exports are cut from the site's own all.bib and papers.json, so
   they are exactly what the digest publishes; everything is made in the page, and nothing is
   sent anywhere. A shared link (saved/#papers=...) shows its papers and offers to add them. */
(() => {
  "use strict";
  const reading = window.DigestReading;
  const notice = document.getElementById("saved-needs-script");
  if (!reading || !notice || !window.fetch) { return; }
  const { config, saved, follows, el, say, count, fetchText, bibEntries, download } = reading;
  const shared = window.Digest;
  if (reading.storage.state === "off") {
    notice.textContent = say("savedNoStorage");
    return;
  }
  const byId = (id) => document.getElementById(id);
  const tools = byId("saved-tools");
  const list = byId("saved-list");
  const status = byId("saved-status");
  const clearButton = byId("saved-clear");
  const confirmBox = byId("saved-confirm");
  const exports = [byId("saved-export-bib"), byId("saved-export-csl")];
  const readOnly = () => reading.storage.state === "full";
  notice.hidden = !readOnly();
  notice.textContent = readOnly() ? say("storageFull") : "";
  tools.hidden = false;

  function showCount() {
    const total = saved.list().length;
    status.textContent = total ? count("savedCount", total) : say("savedNone");
    exports.forEach((button) => { button.disabled = total === 0; });
    clearButton.disabled = total === 0 || readOnly();
    byId("saved-share-make").disabled = total === 0;
  }

  /** A saved paper the digest no longer has: its title as it was saved (reading.js adds its
      save button, to unsave it). */
  function goneRow(item) {
    const article = el("article", "card");
    article.dataset.paper = item.slug;
    article.append(el("h2", "card-title", item.title || item.slug),
      el("p", "meta card-meta", say("savedGone")));
    return article;
  }

  function papersOf(data) {
    return { at: new Map(data.papers.map((paper, ref) => [paper.slug, ref])),
      tags: new Map(data.tags.map((tag) => [tag.slug, tag])) };
  }

  async function draw() {
    const items = saved.list();
    showCount();
    let data;
    try {
      data = await reading.loadList();
    } catch (error) {
      status.textContent = say("savedListFailed");
      return;
    }
    const { at, tags } = papersOf(data);
    list.replaceChildren(...items.map((item) => (at.has(item.slug)
      ? reading.row(data.papers[at.get(item.slug)], tags) : goneRow(item))));
    reading.enliven(list);
    drawLike(data, items);
    drawFollows(data);
  }

  /* ---- papers like the ones saved: those most often among their related papers ----------- */
  const LIKE = 10;

  function drawLike(data, items) {
    const { at, tags } = papersOf(data);
    const mine = new Set(items.map((item) => at.get(item.slug)).filter((ref) => ref !== undefined));
    const votes = new Map();
    const vote = (ref, from) => {
      if (mine.has(ref)) { return; }
      if (!votes.has(ref)) { votes.set(ref, new Set()); }
      votes.get(ref).add(from);
    };
    // why: related is symmetric in meaning: a paper related to a saved one, or one that names it
    (data.related || []).forEach((related, ref) => {
      related.forEach((other) => {
        if (mine.has(ref)) { vote(other, ref); }
        if (mine.has(other)) { vote(ref, other); }
      });
    });
    const ranked = [...votes].sort((a, b) => b[1].size - a[1].size || a[0] - b[0]).slice(0, LIKE);
    byId("saved-like").hidden = !ranked.length;
    byId("saved-like-list").replaceChildren(...ranked.map(([ref, from]) => {
      const row = reading.row(data.papers[ref], tags);
      row.querySelector(".card-meta").after(el("p", "meta why", count("likeReason", from.size)));
      return row;
    }));
    reading.enliven(byId("saved-like-list"));
  }

  /* ---- what the reader follows, each with its button to unfollow ------------------------- */
  function drawFollows(data) {
    const followed = follows.all();
    const tagUrl = new Map(data.tags.map((tag) => [tag.slug, tag.url]));
    const items = [
      ...Object.entries(followed.authors).map(([slug, name]) => ["authors", slug, name, shared.authorUrl(slug)]),
      ...Object.entries(followed.tags).map(([slug, name]) => ["tags", slug, name, tagUrl.get(slug)])];
    byId("saved-follows").hidden = !items.length;
    byId("saved-follows-list").replaceChildren(...items.map(([kind, slug, name, url]) => {
      const item = el("li");
      const button = el("button", "button follow-toggle");
      button.type = "button";
      button.setAttribute("aria-pressed", "true");
      button.append(el("span", "toggle-label", say("followOn")));
      button.dataset[kind === "authors" ? "followAuthors" : "followTags"] = slug;
      button.dataset.name = name;
      item.append(url ? shared.link(url, name) : name, " ", el("span", "meta", say(kind === "authors" ? "anAuthor" : "aTag")), " ", button);
      return item;
    }));
    reading.enliven(byId("saved-follows-list"));
  }

  /* ---- sharing by link: each paper as a short code of its slug ---------------------------- */
  /** FNV-1a (32 bits) of the slug's UTF-8 bytes, in base 36: ~7 characters a paper. */
  function code(slug) {
    let digest = 0x811c9dc5;
    new TextEncoder().encode(slug).forEach((byte) => {
      digest = Math.imul(digest ^ byte, 0x01000193) >>> 0;
    });
    return digest.toString(36);
  }

  function shareLink() {
    const codes = saved.list().map((item) => code(item.slug));
    return `${new URL(config.saved, window.location.href).href}#papers=${codes.join(".")}`;
  }

  const SHARED_AT_MOST = 1000;

  /** The papers a shared link's codes name (at most SHARED_AT_MOST codes), and how many of its
      codes name no paper of the digest (a paper since removed, or a link cut or garbled). */
  function sharedPapers(data, hash) {
    const parts = [...new Set(hash.slice("#papers=".length).split(".").filter(Boolean))]
      .slice(0, SHARED_AT_MOST);
    const byCode = new Map();
    data.papers.forEach((paper, ref) => {
      const key = code(paper.slug);
      byCode.set(key, [...(byCode.get(key) || []), ref]);
    });
    const known = parts.filter((part) => byCode.has(part));
    return { refs: known.flatMap((part) => byCode.get(part)), unknown: parts.length - known.length };
  }

  async function drawShared() {
    if (!window.location.hash.startsWith("#papers=")) { return; }
    const box = byId("saved-shared");
    let data;
    try {
      data = await reading.loadList();
    } catch (error) {
      box.hidden = false;
      byId("saved-shared-status").textContent = say("savedListFailed");
      return;
    }
    const { refs, unknown } = sharedPapers(data, window.location.hash);
    const { tags } = papersOf(data);
    box.hidden = false;
    byId("saved-shared-title").textContent = count("sharedTitle", refs.length);
    byId("saved-shared-status").textContent = unknown ? count("sharedUnknown", unknown) : "";
    byId("saved-shared-list").replaceChildren(...refs.map((ref) => reading.row(data.papers[ref], tags)));
    reading.enliven(byId("saved-shared-list"));
    const add = byId("saved-shared-add");
    add.hidden = !refs.length;
    add.disabled = readOnly();
    add.addEventListener("click", () => {
      const added = saved.add(refs.map((ref) => ({ slug: data.papers[ref].slug, title: data.papers[ref].text || data.papers[ref].title })));
      byId("saved-shared-status").textContent = count("sharedAdded", added);
      draw();
    });
  }

  byId("saved-share-make").addEventListener("click", () => {
    const field = byId("saved-share-link");
    field.value = shareLink();
    byId("saved-share-out").hidden = false;
    field.focus();
    field.select();
  });

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
      byId("saved-confirm-text").textContent = count("clearConfirm", saved.list().length);
      byId("saved-clear-no").focus();
    }
  }

  exports[0].addEventListener("click", () => exportAs("bib"));
  exports[1].addEventListener("click", () => exportAs("csl"));
  clearButton.addEventListener("click", () => askToClear(confirmBox.hidden));
  byId("saved-clear-no").addEventListener("click", () => {
    askToClear(false);
    clearButton.focus();
  });
  byId("saved-clear-yes").addEventListener("click", () => {
    const total = saved.list().length;
    saved.clear();
    askToClear(false);
    draw();
    status.textContent = count("cleared", total);
    list.focus();
  });
  // why: a paper unsaved here keeps its row (to save it again) until the page is reloaded
  document.addEventListener("digest:saved", showCount);
  document.addEventListener("digest:storage", () => {
    notice.hidden = !readOnly();
    notice.textContent = say("storageFull");
    showCount();
  });
  draw();
  drawShared();
})();
