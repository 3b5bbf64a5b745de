// node passes_check.js PACKED.json: exits 0 when the worker's lunr queries give exactly what the
// plain ones give lunr.js's own Index#query (run by tests/test_search_js.py): the same refs in the
// same order, the same scores, and, as each result's `terms`, the terms and fields of its match
// data. The worker leaves out what cannot change lunr's answer: an unfinished word's wildcard
// clause that finds no term, or only the word's own term (its boost then added to the word's),
// and "prefix" and "any" passes that can only find papers the "all" pass found. Here the plain
// clauses and passes are built in full and answered by lunr's own query.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const assert = require("node:assert/strict");

const root = path.join(__dirname, "../..");
const context = vm.createContext({ console });
context.self = context;
for (const file of ["node_modules/lunr/lunr.js", "static/search-query.js", "static/search-index.js",
  "static/search-answer.js", "static/search-worker.js"]) {
  vm.runInContext(fs.readFileSync(path.join(root, file), "utf8"), context, { filename: file });
}
const { lunr, DigestQuery, DigestIndex } = context;
const packed = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
context.index = DigestIndex.loadIndex(lunr, packed);
const index = context.index;

/** The clauses of a pass as the worker built them before it left any out. */
function plainClauses(q, parsed, mode) {
  const presence = lunr.Query.presence;
  const lastClause = parsed.clauses[parsed.clauses.length - 1];
  for (const c of parsed.clauses) {
    c.words.forEach((word, i) => {
      const opts = c.fields ? { fields: c.fields } : {};
      const isLast = c === lastClause && i === c.words.length - 1;
      if (c.presence === "prohibited") {
        if (c.phrase) { return; }
        opts.presence = presence.PROHIBITED;
      } else if (context.isStopWord(word)) {
        return;
      } else if (mode === "any") {
        opts.presence = c.presence === "required" || c.phrase ? presence.REQUIRED : presence.OPTIONAL;
      } else {
        opts.presence = presence.REQUIRED;
        if (mode === "prefix" && isLast) {
          Object.assign(opts, { wildcard: lunr.Query.wildcard.TRAILING, usePipeline: false });
        }
      }
      q.term(word, opts);
      if (mode === "any" && isLast && parsed.prefix) {
        const prefix = { wildcard: lunr.Query.wildcard.TRAILING, usePipeline: false, boost: 0.5 };
        if (c.fields) { prefix.fields = c.fields; }
        q.term(word, prefix);
      }
    });
  }
}

/** lunr.js's own Index#query, not the packed index's. */
function lunrQuery(fn) {
  return lunr.Index.prototype.query.call(index, fn);
}

function plainMultiPass(parsed) {
  const seen = new Set();
  const ranked = [];
  for (const mode of ["all", "prefix", "any"]) {
    for (const r of lunrQuery((q) => plainClauses(q, parsed, mode))) {
      if (!seen.has(r.ref)) { seen.add(r.ref); ranked.push(r); }
    }
  }
  return ranked;
}

/** Results as [ref, score, [[term, fields matched, their metadata]]], terms and fields in order,
    whether from the worker ({ref, score, terms}) or from lunr ({ref, score, matchData}). */
function plain(results) {
  return results.map((r) => {
    const terms = r.terms || r.matchData.metadata;
    return [r.ref, r.score, Object.keys(terms).sort().map((t) => [t, Object.keys(terms[t]).sort(),
      Object.keys(terms[t]).sort().map((f) => terms[t][f])])];
  });
}
const same = (a, b, message) => assert.equal(JSON.stringify(plain(a)), JSON.stringify(plain(b)), message);
const terms = packed.terms.filter((t) => /^[a-z]/.test(t));
const queries = ["web agen", "language model", "the", "the mod", "-llm agen", "+web agen", "title:agen",
  "graph-learn", "state-of-the", "\"web agents", "model model", "a", "zzz"];
for (let i = 0; i < terms.length; i += 7) {
  const [a, b] = [terms[i], terms[(i * 31) % terms.length]];
  queries.push(a, a.slice(0, 3), `${b} ${a}`, `${b} ${a.slice(0, 2)}`, `+${b} ${a.slice(0, 3)}`,
    `${b} +${a.slice(0, 3)}`, `${b}-${a.slice(0, 3)}`, `${a} ${b}-${a}`, `tag:${a}`, `-${b} ${a}`,
    `${a} the`);
}
let checked = 0;
for (const text of queries) {
  const parsed = DigestQuery.parseQuery(text);
  if (!parsed.clauses.length) { continue; }
  const plainAny = lunrQuery((q) => plainClauses(q, parsed, "any"));
  same(context.run(parsed, "any"), plainAny, `"any" pass of ${text}`);
  const last = parsed.clauses[parsed.clauses.length - 1];
  if (parsed.prefix && (last.presence === "required" || last.phrase)) {
    same(context.multiPass(parsed), plainMultiPass(parsed), `passes of ${text}`);
  }
  checked++;
}
console.log(`${checked} queries answered alike`);
