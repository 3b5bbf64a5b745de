// node rank_answers.js PACKED.json QUERIES.json [META.json DOCS.json]: prints, for each query, the
// refs the search worker ranks for it (before facets and phrases) and what it searched instead, as
// JSON: the worker's own code (static/search/worker.js) with lunr.js and our scripts, on a packed
// index (tests/test_search_ranking.py). Given the facet table (search/meta.json) and the document
// store's chunks by name (search/docs/<name>.json, all in one object), also what the worker answers
// in full: `found`, the refs after phrases and exclusions, and `shown`, each shown result's title
// and snippet with its highlights in [brackets].
"use strict";
const fs = require("node:fs");

const { loadWorker, state, setState } = require("./worker_context.js");
const { context, packed } = loadWorker(process.argv[2]);
const { lunr, DigestQuery, DigestIndex } = context;
const queries = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const docs = process.argv[5] ? JSON.parse(fs.readFileSync(process.argv[5], "utf8")) : null;
if (docs) {
  // why: every chunk already in hand, so the worker never fetches
  setState(context, "meta", JSON.parse(fs.readFileSync(process.argv[4], "utf8")));
  const loaded = state(context, "loaded");
  Object.keys(docs).forEach((name) => { loaded[name] = docs[name]; });
}

/** Text with its highlighted ranges in [brackets]. */
function bracketed(text, marks) {
  let out = "", at = 0;
  for (const [from, to] of marks) { out += text.slice(at, from) + "[" + text.slice(from, to) + "]"; at = to; }
  return out + text.slice(at);
}

async function answer(q) {
  const ranked = context.rank(DigestQuery.parseQuery(q));
  const searched = context.searched(q, ranked.plan, []);
  const reply = { refs: ranked.results.map((r) => Number(r.ref)),
    searched: searched && searched.map((s) => (s.corrected ? "*" + s.text + "*" : s.text)).join("") };
  if (docs) {
    const full = await context.search({ id: 0, q: q, limit: state(context, "meta").papers.length });
    reply.found = full.results.map((r) => Number(r.ref));
    reply.shown = full.results.map((r) => ({ title: bracketed(r.title, r.titleMarks), snippet: bracketed(r.snippet, r.snippetMarks) }));
  }
  return reply;
}

(async () => {
  const replies = [];
  for (const q of queries) { replies.push(await answer(q)); }
  process.stdout.write(JSON.stringify(replies));
})().catch((e) => { console.error(e); process.exit(1); });
