// node plan_check.js PACKED.json: exits 0 when the worker's query plans, answered from the packed
// index, give exactly what lunr.js's own Index#query gives for the same clauses (run by
// tests/test_search_js.py): the same refs in the same order, the same scores, and, as each
// result's `terms`, the terms and fields of its match data. The worker leaves out an unfinished
// word's wildcard clause that finds no term, or only the word's own term (its boost then added to
// the word's); here the clauses are also built in full and answered by lunr's own query. And the
// worker's order keeps lunr's within each tier, tiers by how many of the query's words a paper has.
"use strict";
const assert = require("node:assert/strict");

const { loadWorker, state } = require("./worker_context.js");
const { context, packed } = loadWorker(process.argv[2]);
const { lunr, DigestQuery, DigestIndex } = context;
const index = state(context, "index");

/** A plan's clauses, each unfinished word's wildcards built in full: both at half weight. */
function fullClauses(q, plan) {
  const presence = lunr.Query.presence;
  const add = (a, p) => q.term(a.term, context.clauseOptions(a, p));
  for (const w of plan.words) {
    for (const a of w.asks) {
      if (w.unfinished && a.wildcard && a.boost === 0.5) { continue; }
      add(w.unfinished && a.boost === 1.5 ? Object.assign({}, a, { boost: 1 }) : a, presence.OPTIONAL);
    }
    if (w.unfinished) {
      if (w.groups.text.length) { add({ term: w.word, fields: w.groups.text, boost: 0.5, wildcard: true }, presence.OPTIONAL); }
      if (w.groups.names.length) {
        add({ term: DigestQuery.fold(w.word), fields: w.groups.names, boost: 0.5, wildcard: true }, presence.OPTIONAL);
      }
    }
  }
  plan.excluded.forEach((a) => add(a, presence.PROHIBITED));
}

/** The plan's clauses as the worker builds them. */
function planClauses(q, plan) {
  const presence = lunr.Query.presence;
  plan.words.forEach((w) => w.asks.forEach((a) => q.term(a.term, context.clauseOptions(a, presence.OPTIONAL))));
  plan.excluded.forEach((a) => q.term(a.term, context.clauseOptions(a, presence.PROHIBITED)));
}

/** lunr.js's own Index#query, not the packed index's. */
function lunrQuery(fn) {
  return lunr.Index.prototype.query.call(index, fn);
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
// why: a CJK word is asked as its bigrams: words of two, three and one characters, a tag, an
// excluded word, mixed text
const cjk = packed.terms.filter((t) => DigestQuery.isCJK(t));
for (let i = 0; i < cjk.length; i += 3) {
  const [a, b] = [cjk[i], cjk[(i * 31) % cjk.length]];
  const chars = Array.from(a), next = cjk.find((t) => Array.from(t)[0] === chars[chars.length - 1] && t !== a);
  queries.push(a, chars[0], `tag:${a}`, `${a} ${b}`, `-${b} ${a}`, `llm${a}`, `+${a} ${b}`, `"${a}"`);
  if (next) { queries.push(a + Array.from(next).slice(1).join("")); }
}
let checked = 0;
for (const text of queries) {
  const parsed = DigestQuery.parseQuery(text);
  if (!parsed.clauses.length) { continue; }
  const plan = context.plan(parsed);
  // why: as rank() runs a plan: one with words to ask, or of excluded words alone
  const asking = plan.words.some((w) => w.asks.length);
  if (!asking && !(plan.excluded.length && !plan.words.length)) { continue; }
  const answered = context.run(plan);
  same(answered, lunrQuery((q) => planClauses(q, plan)), `plan of ${text}`);
  same(answered, lunrQuery((q) => fullClauses(q, plan)), `plan of ${text}, built in full`);
  const order = new Map(answered.map((r, i) => [r.ref, i]));
  const counted = plan.words.filter((w) => w.counts);
  const tierOf = (r) => counted.reduce((sum, w) => {
    const how = context.covers(w, r.terms);
    return sum + (how ? 1000 + how - 1 : 0); // why: words had first, then words had as typed
  }, 0);
  let [lastTier, lastAt] = [Infinity, -1];
  for (const r of context.ordered(plan, answered)) {
    const tier = tierOf(r), at = order.get(r.ref);
    assert.ok(tier <= lastTier, `tiers of ${text}`);
    assert.ok(tier < lastTier || at > lastAt, `lunr's order within a tier of ${text}`);
    assert.ok(plan.words.every((w) => !w.required || context.covers(w, r.terms)), `required words of ${text}`);
    [lastTier, lastAt] = [tier, at];
  }
  checked++;
}
console.log(`${checked} queries answered alike`);
