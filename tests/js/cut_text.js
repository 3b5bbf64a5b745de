// node cut_text.js TEXTS.json: prints, for each text, the terms static/search/query.js cuts it into
// as the index has them (pieces(), lowercased) and as the name fields have them (each word folded,
// a CJK word's bigrams of its folded form, as the worker asks names), as JSON [{terms, names}]:
// tests/test_cjk.py holds them equal to generator/search/terms.py's cut. With --ranges instead of
// a file, prints the code point ranges of the characters isCJK() takes, as [[first, last], ...].
"use strict";
const fs = require("node:fs");
const { pieces, words, grams, fold, isCJK } = require("../../static/search/query.js");

function cut(text) {
  return {
    terms: pieces(text).map((p) => p.text.toLowerCase()),
    names: words(text).flatMap((w) => (isCJK(w) ? grams(fold(w)) : [fold(w)]))
  };
}

function ranges() {
  const out = [];
  for (let c = 0; c <= 0x10ffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff) { continue; } // why: not characters
    if (!isCJK(String.fromCodePoint(c))) { continue; }
    const last = out[out.length - 1];
    if (last && last[1] === c - 1) { last[1] = c; } else { out.push([c, c]); }
  }
  return out;
}

const arg = process.argv[2];
process.stdout.write(JSON.stringify(arg === "--ranges" ? ranges() : JSON.parse(fs.readFileSync(arg, "utf8")).map(cut)));
