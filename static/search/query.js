/* Reads what a reader typed into search clauses. Never throws: lunr's own query parser
   rejects input such as `foo:` or `*`, so queries are built with lunr's Query API from this.
   Syntax: words; "a phrase"; -word or -"a phrase" excludes; +word requires;
   title:, author:, tag:, abstract: scope a word or a phrase to a field. */
(() => {
  "use strict";

  const FIELDS = {
    title: ["title"], author: ["authors"], authors: ["authors"], tag: ["tags"], tags: ["tags"],
    abstract: ["abstract"], notes: ["notes"]
  };
  const TOKEN = /(-|\+)?(?:([A-Za-z]+):)?(?:"([^"]*)"?|(\S+))/g;

  // why: the characters of writing with no spaces between words, cut into bigrams: the same
  // ranges as generator/model/languages.py's CJK_RANGES (Han, kana; planes 2-3), tests/test_cjk.py
  const CJK_CLASS = "[\\u3005-\\u3007\\u3021-\\u3029\\u3031-\\u3035\\u303B\\u303C\\u3040-\\u30FF" +
    "\\u31F0-\\u31FF\\u3400-\\u4DBF\\u4E00-\\u9FFF\\uF900-\\uFAFF\\uFF66-\\uFF9F\\u{1AFF0}-\\u{1B16F}" +
    "\\u{20000}-\\u{3FFFF}]";
  const CJK = new RegExp("^" + CJK_CLASS, "u");
  // why: a run of CJK characters is a word of its own, apart from letters it touches (LLM的)
  const WORD = new RegExp(CJK_CLASS + "+|(?:(?!" + CJK_CLASS + ")[\\p{L}\\p{N}])+", "gu");

  /** Lowercase letters-and-digits words, the same split the build's index_text() makes, and a
      run of CJK characters a word apart from the letters around it: LLM的知识 -> llm, 的知识. */
  function words(text) {
    return (text.toLowerCase().match(WORD) || []);
  }

  /** Whether a word (of words()) is a run of CJK characters. */
  function isCJK(word) { return CJK.test(word); }

  /** A run of CJK characters as the build indexes it (terms.py's cjk_grams): its overlapping
      bigrams, or the character itself (none for no character, as fold() can leave); a
      character beyond the BMP is one character. */
  function grams(run) {
    const chars = Array.from(run), out = [];
    for (let i = 0; i + 1 < chars.length; i++) { out.push(chars[i] + chars[i + 1]); }
    return chars.length === 1 ? [run] : out;
  }

  /** The words of `text` as the build indexes them (terms.py's cut_cjk of index_text), each
      with where it stands: {text, start, end}, CJK runs cut into grams(), not lowercased. */
  function pieces(text) {
    let out = [], m;
    WORD.lastIndex = 0;
    while ((m = WORD.exec(text)) !== null) {
      if (!isCJK(m[0])) { out.push({ text: m[0], start: m.index, end: m.index + m[0].length }); continue; }
      let at = m.index;
      grams(m[0]).forEach((g) => {
        const first = String.fromCodePoint(g.codePointAt(0)).length;
        out.push({ text: g, start: at, end: at + g.length });
        at += first;
      });
    }
    return out;
  }

  function clause(sign, fieldName, phrase, bare) {
    const fields = fieldName ? FIELDS[fieldName.toLowerCase()] : null;
    // why: an unknown `foo:` is not a field, so its name is searched as a word
    const value = phrase !== undefined ? phrase : bare;
    return {
      words: words((fieldName && !fields ? fieldName + " " : "") + value),
      fields: fields || null,
      presence: sign === "-" ? "prohibited" : sign === "+" ? "required" : "any",
      // why: a quoted phrase (a quoted Chinese word too: its bigrams), and a word with inner
      // punctuation ("web-agents", "LLaMA-2"), match only where their words stand together; LLM的
      // is two words, as Chinese puts no space between them
      phrase: (phrase !== undefined ? pieces(value) : value.match(/[\p{L}\p{N}]+/gu) || []).length > 1
    };
  }

  /** {clauses: [{words, fields, presence, phrase}], prefix: whether the last word is unfinished}. */
  function parseQuery(input) {
    const text = String(input === undefined || input === null ? "" : input).slice(0, 500);
    const clauses = [];
    let match;
    let last = null;
    TOKEN.lastIndex = 0;
    while ((match = TOKEN.exec(text)) !== null) {
      const c = clause(match[1], match[2], match[3], match[4]);
      if (c.words.length) { clauses.push(c); last = { clause: c, match: match }; }
    }
    // why: while typing, "transf" should find "transformer"; a finished word ends in a space
    const prefix = Boolean(last) && last.match[3] === undefined && last.clause.presence !== "prohibited" &&
      /[\p{L}\p{N}]$/u.test(text);
    return { clauses: clauses, prefix: prefix };
  }

  // why: letters NFKD does not take apart; generator/search/terms.py's fold() has the same table,
  // generator/model/slugs.py's LATIN_LETTERS (tests/test_js_parity.py folds a broad sample both ways)
  const UNFOLDED = { "ı": "i", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d",
    "Ð": "D", "þ": "th", "Þ": "Th", "ß": "ss", "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe", "ħ": "h",
    "ŋ": "ng" };

  /** A word with its accents taken off, as names are indexed (terms.py's fold). */
  function fold(word) {
    return word.replace(/[ıøØłŁđĐðÐþÞßæÆœŒħŋ]/g, (c) => { return UNFOLDED[c]; })
      .normalize("NFKD").replace(/\p{Mn}/gu, "");
  }

  /** Every string one edit from `word` (a letter dropped, swapped with the next, changed or
      added), letters drawn from a-z and the word's own: what a typo of one key can undo. */
  function edits(word) {
    const letters = Array.from(new Set(("abcdefghijklmnopqrstuvwxyz" + word).split(""))), out = [];
    for (let i = 0; i <= word.length; i++) {
      const head = word.slice(0, i), tail = word.slice(i);
      if (tail) { out.push(head + tail.slice(1)); }
      if (tail.length > 1) { out.push(head + tail[1] + tail[0] + tail.slice(2)); }
      for (let k = 0; k < letters.length; k++) {
        if (tail && letters[k] !== tail[0]) { out.push(head + letters[k] + tail.slice(1)); }
        out.push(head + letters[k] + tail);
      }
    }
    return out;
  }

  /** The edit distance of `a` and `b` (a swap of neighbours one edit), or limit + 1 when it
      is more than `limit`. */
  function distance(a, b, limit) {
    if (Math.abs(a.length - b.length) > limit) { return limit + 1; }
    let before = null, row = [], next;
    for (let j = 0; j <= b.length; j++) { row.push(j); }
    for (let i = 1; i <= a.length; i++) {
      next = [i];
      let least = i;
      for (let j = 1; j <= b.length; j++) {
        const cost = a[i - 1] === b[j - 1] ? 0 : 1;
        let d = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + cost);
        if (before && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) { d = Math.min(d, before[j - 2] + 1); }
        next.push(d);
        least = Math.min(least, d);
      }
      if (least > limit) { return limit + 1; }
      before = row;
      row = next;
    }
    return Math.min(row[b.length], limit + 1);
  }

  /** The positive words of a parsed query, for ranking by how many of them a paper has. */
  function positiveWords(parsed) {
    const out = [];
    parsed.clauses.forEach((c) => {
      if (c.presence !== "prohibited") { out.push.apply(out, c.words); }
    });
    return out;
  }

  const api = { parseQuery: parseQuery, words: words, isCJK: isCJK, grams: grams, pieces: pieces,
    CJK_CLASS: CJK_CLASS, positiveWords: positiveWords, fold: fold,
    edits: edits, distance: distance, FIELDS: FIELDS };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; } else { globalThis.DigestQuery = api; }
})();
