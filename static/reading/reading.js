/* What a reader keeps in their own browser: saved papers, the authors and tags they follow, and
   the day of their last visit. Rows and paper pages get a save button, authors' sections and tag
   pages a follow button, and rows of papers added since the previous visit a "new" badge. When
   the browser's storage for the site is full, all of it is shown as it is kept and the buttons
   say why they cannot change it; nothing vanishes. Nothing is sent anywhere: the storage is
   localStorage, and the only requests are for this site's own files. Without JavaScript none of
   it appears. */
(() => {
  "use strict";
  const shared = window.Digest; // why: settings and words (shared/digest.js)
  const rows = window.DigestRows;
  if (!shared || !rows) { return; }
  const { say, count, number, list, el } = shared;
  const config = shared.settings.reading;

  /* ---- storage: one key per kind of thing, under the site's own name (several digests can
     share an origin, as GitHub project sites do, and so share its quota) ----------------------- */
  const storage = {
    /** "ok"; "full": what is kept can be read, not changed (the origin's storage is full);
        "off": storage is not allowed at all (a privacy setting). */
    state: (() => {
      try {
        window.localStorage.getItem(`${config.store}saved`);
      } catch (error) {
        return "off";
      }
      try {
        window.localStorage.setItem(`${config.store}probe`, "1");
        window.localStorage.removeItem(`${config.store}probe`);
        return "ok";
      } catch (error) {
        return "full";
      }
    })(),
    read(name, fallback) {
      try {
        const text = window.localStorage.getItem(config.store + name);
        return text === null ? fallback : JSON.parse(text);
      } catch (error) {
        return fallback; // why: storage off, or a value garbled by hand
      }
    },
    write(name, value) {
      if (storage.state !== "ok") { return false; }
      try {
        window.localStorage.setItem(config.store + name, JSON.stringify(value));
        return true;
      } catch (error) {
        storage.state = "full"; // why: the quota ran out since the page opened
        document.dispatchEvent(new CustomEvent("digest:storage"));
        return false;
      }
    },
    works() { return storage.state === "ok"; }
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
    /** Adds `items` ({slug, title}) not saved yet, after the ones saved; how many were new. */
    add(items) {
      const known = new Set(saved.list().map((item) => item.slug));
      const fresh = items.filter((item) => !known.has(item.slug))
        .map((item) => ({ slug: item.slug, title: item.title, saved: new Date().toISOString() }));
      if (fresh.length) { storage.write("saved", [...saved.list(), ...fresh]); }
      changed();
      return fresh.length;
    },
    clear() {
      storage.write("saved", []);
      changed();
    }
  };

  /* ---- follows: {authors: {slug: name}, tags: {slug: name}} ------------------------------ */
  const follows = {
    all() {
      const value = storage.read("follows", {});
      const kinds = {};
      for (const kind of ["authors", "tags"]) {
        const known = value && typeof value[kind] === "object" && value[kind] ? value[kind] : {};
        kinds[kind] = Object.fromEntries(Object.entries(known).filter(([, name]) => typeof name === "string"));
      }
      return kinds;
    },
    has(kind, slug) { return Object.prototype.hasOwnProperty.call(follows.all()[kind], slug); },
    set(kind, slug, name, on) {
      const all = follows.all();
      if (on) { all[kind][slug] = name; } else { delete all[kind][slug]; }
      storage.write("follows", all);
      changed();
    }
  };

  /** Every button shows the new state, and pages that list saved papers hear of it. */
  function changed() {
    refresh(document);
    document.dispatchEvent(new CustomEvent("digest:saved"));
  }

  /* ---- buttons: save on rows and paper pages, follow on authors' sections and tag pages ---- */
  function toggle(className, label) {
    const button = el("button", className);
    button.type = "button";
    button.setAttribute("aria-pressed", "false");
    button.append(el("span", "toggle-label", label));
    return button;
  }

  /** A row's save button: a star, and the paper's title for those who cannot see the row. */
  function saveButton(slug, title) {
    const button = toggle("save-toggle", say("save"));
    button.dataset.save = slug;
    button.append(el("span", "visually-hidden", ` ${title}`));
    return button;
  }

  /** Gives the rows, paper page, authors' sections and tag page below `root` their buttons:
      made here, not by the build, as without JavaScript they could do nothing. */
  function addButtons(root) {
    root.querySelectorAll("article.card[data-paper]").forEach((row) => {
      if (row.querySelector(".save-toggle")) { return; }
      const title = row.querySelector(".card-title a");
      const button = saveButton(row.dataset.paper, title ? title.textContent.trim() : row.dataset.paper);
      (row.querySelector(".card-meta") || row.firstElementChild).after(button);
    });
    root.querySelectorAll("article.paper[data-paper] .links").forEach((links) => {
      if (links.querySelector(".save-toggle")) { return; }
      const button = toggle("button save-toggle", say("save"));
      button.dataset.save = links.closest("[data-paper]").dataset.paper;
      links.append(button);
    });
    root.querySelectorAll("section.author[id^='author-'] > h2").forEach((heading) => {
      if (heading.nextElementSibling && heading.nextElementSibling.matches(".follow-toggle")) { return; }
      const button = toggle("button follow-toggle", say("follow"));
      button.dataset.followAuthors = heading.parentElement.id.slice("author-".length);
      button.dataset.name = heading.textContent.trim();
      heading.after(button);
    });
    root.querySelectorAll("h1[data-tag]").forEach((heading) => {
      if (heading.nextElementSibling && heading.nextElementSibling.matches(".follow-toggle")) { return; }
      const button = toggle("button follow-toggle", say("follow"));
      button.dataset.followTags = heading.dataset.tag;
      button.dataset.name = heading.dataset.name;
      heading.after(button);
    });
  }

  /** Each button's state and words: pressed or not, and why it cannot change when it cannot. */
  function refresh(root) {
    const slugs = new Set(saved.list().map((item) => item.slug));
    const followed = follows.all();
    root.querySelectorAll("button[data-save], button[data-follow-authors], button[data-follow-tags]")
      .forEach((button) => {
        const on = button.dataset.save ? slugs.has(button.dataset.save)
          : button.dataset.followAuthors ? button.dataset.followAuthors in followed.authors
            : button.dataset.followTags in followed.tags;
        button.setAttribute("aria-pressed", String(on));
        const kind = button.dataset.save ? "save" : "follow";
        button.querySelector(".toggle-label").textContent = say(on ? `${kind}On` : kind);
        button.disabled = storage.state === "full";
        button.title = storage.state === "full" ? say("storageFull") : "";
      });
  }

  function press(button) {
    const on = button.getAttribute("aria-pressed") !== "true";
    if (button.dataset.save) {
      const row = button.closest("[data-paper]");
      const heading = row && row.querySelector(".card-title a") || document.querySelector("h1");
      saved.set(button.dataset.save, heading ? heading.textContent.trim() : button.dataset.save, on);
    } else {
      const kind = button.dataset.followAuthors ? "authors" : "tags";
      follows.set(kind, button.dataset.followAuthors || button.dataset.followTags, button.dataset.name, on);
    }
  }

  /** Shows and wires the buttons below `root` (once each); with storage off, there are none. */
  function wireButtons(root) {
    if (storage.state === "off") { return; }
    addButtons(root);
    root.querySelectorAll("button[data-save], button[data-follow-authors], button[data-follow-tags]")
      .forEach((button) => {
        if (button.dataset.wired) { return; }
        button.dataset.wired = "true";
        button.addEventListener("click", () => press(button));
      });
    refresh(root);
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
    if (next !== known) { storage.write("visits", next); }
    return typeof next.last === "string" ? next.last : "";
  }

  const since = previousVisit();

  function markNew(root) {
    if (!since) { return; }
    root.querySelectorAll("[data-paper]").forEach((row) => {
      const title = row.querySelector(".card-title");
      const added = row.querySelector(".added time");
      if (added && added.dateTime > since && title && !title.querySelector(".badge-new")) {
        const badge = el("span", "badge badge-new", say("new"));
        badge.title = say("newTitle");
        title.append(" ", badge);
      }
    });
  }

  /* ---- BibTeX cut from all.bib: a tag's papers (here), the saved ones (saved-page.js) ------ */
  async function fetchText(url) {
    const response = await fetch(url);
    if (!response.ok) { throw new Error(`${url}: HTTP ${response.status}`); }
    return response.text();
  }

  /** all.bib's entries whose keys are in `keys`, in all.bib's order, as all.bib joins them. */
  function bibEntries(text, keys) {
    const entries = text.split(/\n(?=@)/).map((entry) => entry.replace(/\n*$/, "\n"));
    return entries.filter((entry) => keys.has((entry.match(/^@[^{]+\{([^,]+),/) || [])[1])).join("\n");
  }

  function download(name, type, text) {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const a = el("a");
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  /** A tag's BibTeX link (<a href="all.bib" data-bib-tag="SLUG">) downloads the entries of the
      tag's papers only, as <slug>.bib; without JavaScript, or should that fail, all.bib. */
  document.addEventListener("click", (event) => {
    const a = event.target.closest && event.target.closest("a[data-bib-tag]");
    if (!a || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) { return; }
    event.preventDefault();
    const tag = a.dataset.bibTag;
    Promise.all([rows.loadList(), fetchText(config.bib)]).then(([data, text]) => {
      const keys = new Set(data.papers.filter((paper) => paper.tags.includes(tag)).map((paper) => paper.key));
      download(`${tag}.bib`, "application/x-bibtex", bibEntries(text, keys));
    }).catch(() => { window.location.href = a.href; });
  });

  /** Makes rows drawn by script (or the build) into live rows: buttons and new badges. */
  function enliven(root) {
    wireButtons(root);
    markNew(root);
  }

  window.addEventListener("storage", (event) => {
    if ([`${config.store}saved`, `${config.store}follows`].includes(event.key)) { changed(); } // why: another tab
  });
  document.addEventListener("digest:storage", () => refresh(document));

  window.DigestReading = { config, saved, follows, storage, since, enliven, press,
    loadList: rows.loadList, row: rows.row, el, say, count, number, list,
    fetchText, bibEntries, download };
  enliven(document);
})();
