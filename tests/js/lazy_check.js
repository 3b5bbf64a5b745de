// node lazy_check.js PACKED.json: exits 0 when the lazily made index (loadIndex) answers every
// query exactly as lunr.Index.load(unpackIndex(...)) does: refs, order, scores and match data,
// whether it was given the file's JSON or its bytes (parseIndex); and when queryTerms gives the
// same refs, order and scores, with the terms and fields of the match data.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const assert = require("node:assert/strict");
const lunr = require(path.join(__dirname, "../../node_modules/lunr"));
const { loadIndex, unpackIndex } = require("../../static/search/index.js");
const { queryTerms } = require("../../static/search/answer.js");
const { parseIndex } = require("../../static/search/read.js");

const bytes = fs.readFileSync(process.argv[2]);
const packed = JSON.parse(bytes.toString("utf8"));
const lazy = loadIndex(lunr, packed);
const fromBytes = loadIndex(lunr, parseIndex(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)));
const eager = lunr.Index.load(unpackIndex(packed));
// why: with search/answer.js at hand the lazy index answers from the packed table, not lunr
assert.equal(typeof lazy.queryTerms, "function");
const queries = ["-agents", "-web -agents", "*", "unlearning", "language models", "web agents", "-llm agents", "title:agents",
  "+web +agents", "retreival~1", "*ing", "tr*ns", "transf*", "a*", "e*", "zzz", "zzz*"];
for (const term of packed.terms) {
  queries.push(term, term.slice(0, 1) + "*", term.slice(0, 2) + "*", term.slice(0, 3) + "*");
}
/** Results as [ref, score, [[term, fields, their metadata]]], terms and fields sorted, from
    queryTerms ({ref, score, terms}) or from lunr ({ref, score, matchData}). */
function plain(results) {
  return results.map((r) => {
    const terms = r.terms || r.matchData.metadata;
    return [r.ref, r.score, Object.keys(terms).sort().map((t) => [t, Object.keys(terms[t]).sort(),
      Object.keys(terms[t]).sort().map((f) => terms[t][f])])];
  });
}
const parse = (q) => (query) => new lunr.QueryParser(q, query).parse();
const sameTerms = (a, b, message) => assert.equal(JSON.stringify(plain(a)), JSON.stringify(plain(b)), message);
let checked = 0;
for (const q of queries) {
  const expected = eager.search(q);
  assert.deepStrictEqual(lazy.search(q), expected, `query ${JSON.stringify(q)}`);
  assert.deepStrictEqual(fromBytes.search(q), expected, `query ${JSON.stringify(q)}, from bytes`);
  sameTerms(queryTerms(lazy, parse(q)), expected, `terms of ${q}`);
  sameTerms(queryTerms(eager, parse(q)), expected, `terms of ${q}, lunr's own index`);
  checked++;
}
// Queries lunr fails on (a required term its pipeline empties, with no required term before it;
// a field the index does not have) fail alike; others with such terms find nothing alike. (The
// index's pipeline, a stemmer, empties no term; here both are given lunr's stop word filter.)
const REQUIRED = lunr.Query.presence.REQUIRED;
const outcome = (index, clauses) => {
  try {
    return index.query((q) => clauses.forEach(([term, opts]) => q.term(term, opts)));
  } catch (error) {
    return `${error.name}: ${error.message}`;
  }
};
lazy.pipeline.before(lazy.pipeline._stack[0], lunr.stopWordFilter);
eager.pipeline.before(eager.pipeline._stack[0], lunr.stopWordFilter);
const word = packed.terms.find((t) => t.length > 4 && lunr.stopWordFilter(new lunr.Token(t)));
const odd = [[["the", { presence: REQUIRED }]], [[word, {}], ["the", { presence: REQUIRED }]],
  [[word, { presence: REQUIRED }], ["the", { presence: REQUIRED }]], [[word, { fields: ["nowhere"] }]],
  [["the", {}]], [[word, { presence: REQUIRED, fields: ["title"] }], ["the", { presence: REQUIRED }]]];
for (const clauses of odd) {
  assert.deepStrictEqual(outcome(lazy, clauses), outcome(eager, clauses), JSON.stringify(clauses));
  checked++;
}
assert.match(outcome(eager, odd[0]), /Error/, "lunr.js 2.3.9 fails on a required term its pipeline empties");
assert.match(outcome(eager, odd[3]), /Error/, "lunr.js 2.3.9 fails on a field the index does not have");
console.log(`${checked} queries answered alike`);
