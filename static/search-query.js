/* Reads what a reader typed into search clauses. Never throws: lunr's own query parser
   rejects input such as `foo:` or `*`, so queries are built with lunr's Query API from this.
   Syntax: words; "a phrase"; -word or -"a phrase" excludes; +word requires;
   title:, author:, tag:, abstract: scope a word or a phrase to a field. */
(function (root) {
  "use strict";

  var FIELDS = {
    title: ["title"], author: ["authors"], authors: ["authors"], tag: ["tags"], tags: ["tags"],
    abstract: ["abstract"], notes: ["notes"]
  };
  var TOKEN = /(-|\+)?(?:([A-Za-z]+):)?(?:"([^"]*)"?|(\S+))/g;

  /** Lowercase letters-and-digits words, the same split the build's index_text() makes. */
  function words(text) {
    return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) || []);
  }

  function clause(sign, fieldName, phrase, bare) {
    var fields = fieldName ? FIELDS[fieldName.toLowerCase()] : null;
    // why: an unknown `foo:` is not a field, so its name is searched as a word
    var value = phrase !== undefined ? phrase : bare;
    return {
      words: words((fieldName && !fields ? fieldName + " " : "") + value),
      fields: fields || null,
      presence: sign === "-" ? "prohibited" : sign === "+" ? "required" : "any",
      // why: a quoted phrase, and a word with inner punctuation ("web-agents", "LLaMA-2"),
      // match only where their words stand together
      phrase: words(value).length > 1
    };
  }

  /** {clauses: [{words, fields, presence, phrase}], prefix: whether the last word is unfinished}. */
  function parseQuery(input) {
    var text = String(input === undefined || input === null ? "" : input).slice(0, 500);
    var clauses = [];
    var match;
    var last = null;
    TOKEN.lastIndex = 0;
    while ((match = TOKEN.exec(text)) !== null) {
      var c = clause(match[1], match[2], match[3], match[4]);
      if (c.words.length) { clauses.push(c); last = { clause: c, match: match }; }
    }
    // why: while typing, "transf" should find "transformer"; a finished word ends in a space
    var prefix = Boolean(last) && last.match[3] === undefined && last.clause.presence !== "prohibited" &&
      /[\p{L}\p{N}]$/u.test(text);
    return { clauses: clauses, prefix: prefix };
  }

  // why: letters NFKD does not take apart; generator/search/terms.py's fold() has the same table
  var UNFOLDED = { "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ı": "i", "æ": "ae",
    "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss" };

  /** A word with its accents taken off, as names are indexed (terms.py's fold). */
  function fold(word) {
    return word.replace(/[øØłŁđĐıæÆœŒß]/g, function (c) { return UNFOLDED[c]; })
      .normalize("NFKD").replace(/\p{Mn}/gu, "");
  }

  /** Every string one edit from `word` (a letter dropped, swapped with the next, changed or
      added), letters drawn from a-z and the word's own: what a typo of one key can undo. */
  function edits(word) {
    var letters = Array.from(new Set(("abcdefghijklmnopqrstuvwxyz" + word).split(""))), out = [];
    for (var i = 0; i <= word.length; i++) {
      var head = word.slice(0, i), tail = word.slice(i);
      if (tail) { out.push(head + tail.slice(1)); }
      if (tail.length > 1) { out.push(head + tail[1] + tail[0] + tail.slice(2)); }
      for (var k = 0; k < letters.length; k++) {
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
    var before = null, row = [], next;
    for (var j = 0; j <= b.length; j++) { row.push(j); }
    for (var i = 1; i <= a.length; i++) {
      next = [i];
      var least = i;
      for (j = 1; j <= b.length; j++) {
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        var d = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + cost);
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
    var out = [];
    parsed.clauses.forEach(function (c) {
      if (c.presence !== "prohibited") { out.push.apply(out, c.words); }
    });
    return out;
  }

  var api = { parseQuery: parseQuery, words: words, positiveWords: positiveWords, fold: fold,
    edits: edits, distance: distance, FIELDS: FIELDS };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; } else { root.DigestQuery = api; }
}(typeof self !== "undefined" ? self : this));
