// node rank_answers.js PACKED.json QUERIES.json: prints, for each query, the refs the search worker
// ranks for it (before facets and phrases) and what it searched instead, as JSON: the worker's
// own code (static/search-worker.js) with lunr.js and our scripts, on a packed index
// (tests/test_search_ranking.py).
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const root = path.join(__dirname, "../..");
const context = vm.createContext({ console });
context.self = context;
for (const file of ["node_modules/lunr/lunr.js", "static/search-query.js", "static/search-index.js",
  "static/search-answer.js", "static/search-worker.js"]) {
  vm.runInContext(fs.readFileSync(path.join(root, file), "utf8"), context, { filename: file });
}
const { lunr, DigestQuery, DigestIndex } = context;
context.index = DigestIndex.loadIndex(lunr, JSON.parse(fs.readFileSync(process.argv[2], "utf8")));
const queries = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
process.stdout.write(JSON.stringify(queries.map((q) => {
  const ranked = context.rank(DigestQuery.parseQuery(q));
  const searched = context.searched(q, ranked.plan, []);
  return { refs: ranked.results.map((r) => Number(r.ref)),
    searched: searched && searched.map((s) => (s.corrected ? "*" + s.text + "*" : s.text)).join("") };
})));
