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

  /** The positive words of a parsed query, for ranking by how many of them a paper has. */
  function positiveWords(parsed) {
    var out = [];
    parsed.clauses.forEach(function (c) {
      if (c.presence !== "prohibited") { out.push.apply(out, c.words); }
    });
    return out;
  }

  var api = { parseQuery: parseQuery, words: words, positiveWords: positiveWords, FIELDS: FIELDS };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; } else { root.DigestQuery = api; }
}(typeof self !== "undefined" ? self : this));
