/* What every script of the site shares: the settings the build gives them (settings.js) and the
   interface's words, in the site's language (scripts hold none of their own), and a few helpers
   to make elements. Loaded right after settings.js, before every other script. */
(() => {
  "use strict";
  const settings = window.DigestSettings;
  if (!settings) { return; }
  const messages = settings.messages;
  const lang = document.documentElement.lang || "en";
  const plurals = window.Intl && Intl.PluralRules ? new Intl.PluralRules(lang) : null;
  const numbers = window.Intl && Intl.NumberFormat ? new Intl.NumberFormat(lang) : null;

  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, (all, name) => (name in values ? String(values[name]) : all));
  }
  /** The message `key` with its %(name)s placeholders filled from `values`. */
  function say(key, values) { return fill(messages[key] || "", values || {}); }
  /** A count as the site's language writes it. */
  function number(n) { return numbers ? numbers.format(n) : String(n); }
  /** The form of the plural message `key` for `n` (one per CLDR category of the language, picked
      by Intl.PluralRules), with %(num)s as the language writes n. */
  function count(key, n, values) {
    const forms = messages[key] || {};
    const form = forms[plurals ? plurals.select(n) : "other"] || forms.other || "";
    return fill(form, { num: number(n), ...(values || {}) });
  }
  /** Names joined as the language joins them: 'a, b and c', 'a、b和c' (CLDR's list pattern). */
  function list(names) {
    const pattern = messages.listPattern || {};
    const join = (form, a, b) => (pattern[form] || "{0}, {1}").replace("{0}", a).replace("{1}", b);
    if (names.length < 2) { return names.join(""); }
    if (names.length === 2) { return join("2", names[0], names[1]); }
    let text = join("end", names[names.length - 2], names[names.length - 1]);
    for (let n = names.length - 3; n > 0; n--) { text = join("middle", names[n], text); }
    return join("start", names[0], text);
  }
  /** Nodes for the message `key` with `node` where its %(name)s placeholder is. */
  function around(key, name, node) {
    const parts = (messages[key] || `%(${name})s`).split(`%(${name})s`);
    return [parts[0], node, parts.slice(1).join("")].filter((part) => part !== "");
  }

  /** An element, with a class and its text if given. */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== "") { node.textContent = text; }
    return node;
  }

  function link(href, text) {
    const a = el("a", "", text);
    a.href = href;
    return a;
  }

  /** The name of the file of `count` that `key` is kept in: FNV-1a (32 bits) of its UTF-8
      bytes modulo `count`, in hex, as generator/model/urls.py's bucket() names it. */
  function bucket(key, count) {
    let digest = 0x811c9dc5;
    new TextEncoder().encode(key).forEach((byte) => {
      digest = Math.imul(digest ^ byte, 0x01000193) >>> 0;
    });
    return (digest % count).toString(16).padStart((count - 1).toString(16).length, "0");
  }

  /** Where an author is listed: their section on the page of authors their slug hashes to. */
  function authorUrl(slug) {
    const { home, author_pages: pages } = settings.reading;
    return `${home}authors/${bucket(slug, pages)}/#author-${encodeURIComponent(slug)}`;
  }

  window.Digest = { settings, say, count, number, list, around, el, link, bucket, authorUrl };
})();
