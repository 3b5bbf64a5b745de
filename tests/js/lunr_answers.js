// node lunr_answers.js PACKED.json QUERIES.json: prints, for each query, the lunr clauses the search
// worker builds for it (static/search/worker.js's plan) and what lunr.js's own Index#query answers
// them with on lunr.Index.load(unpackIndex(packed)), as JSON [{clauses, results: [[ref, score]]}]:
// tests/test_cjk.py asks lunr.py the same clauses and holds the answers equal.
"use strict";
const fs = require("node:fs");

const { context, packed } = require("./worker_context.js").loadWorker(process.argv[2]);
const { lunr, DigestQuery, DigestIndex } = context;
const own = lunr.Index.load(DigestIndex.unpackIndex(packed));
const presence = lunr.Query.presence;

function clausesOf(plan) {
  const out = [];
  plan.words.forEach((w) => w.asks.forEach((a) => out.push({ term: a.term, fields: a.fields, boost: a.boost,
    wildcard: Boolean(a.wildcard), presence: presence.OPTIONAL })));
  plan.excluded.forEach((a) => out.push({ term: a.term, fields: a.fields, boost: a.boost, wildcard: false,
    presence: presence.PROHIBITED }));
  return out;
}

const queries = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
process.stdout.write(JSON.stringify(queries.map((q) => {
  const clauses = clausesOf(context.plan(DigestQuery.parseQuery(q)));
  const results = clauses.length ? own.query((query) => clauses.forEach((c) => query.term(c.term, {
    fields: c.fields, boost: c.boost, usePipeline: false, presence: c.presence,
    wildcard: c.wildcard ? lunr.Query.wildcard.TRAILING : lunr.Query.wildcard.NONE }))) : [];
  return { clauses: clauses, results: results.map((r) => [r.ref, r.score]) };
})));
