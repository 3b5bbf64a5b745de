// Unit tests of static/search-query.js, run by node's test runner (tests/test_search_js.py).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { parseQuery, words, fold, edits, distance } = require("../../static/search-query.js");

const clause = (w, extra) => Object.assign({ words: w, fields: null, presence: "any", phrase: false }, extra);

test("words are lowercase letters and digits, split like the build's index_text", () => {
  assert.deepEqual(words("LLaMA-2-7B (e.g., S3T) Öl"), ["llama", "2", "7b", "e", "g", "s3t", "öl"]);
});

test("plain words, the last one unfinished", () => {
  assert.deepEqual(parseQuery("web agen"), { clauses: [clause(["web"]), clause(["agen"])], prefix: true });
  assert.equal(parseQuery("web agents ").prefix, false);
});

test("a quoted phrase is one clause", () => {
  assert.deepEqual(parseQuery('"language models" rag').clauses,
    [clause(["language", "models"], { phrase: true }), clause(["rag"])]);
  assert.equal(parseQuery('"language models"').prefix, false);
});

test("an unclosed quote runs to the end", () => {
  assert.deepEqual(parseQuery('"web agents').clauses, [clause(["web", "agents"], { phrase: true })]);
});

test("minus excludes and plus requires", () => {
  assert.deepEqual(parseQuery("-llm +agents").clauses,
    [clause(["llm"], { presence: "prohibited" }), clause(["agents"], { presence: "required" })]);
});

test("field prefixes scope a word or a phrase", () => {
  assert.deepEqual(parseQuery('tag:web-agents author:"van durme" title:x').clauses, [
    clause(["web", "agents"], { fields: ["tags"], phrase: true }),
    clause(["van", "durme"], { fields: ["authors"], phrase: true }),
    clause(["x"], { fields: ["title"] }),
  ]);
});

test("a word with inner punctuation is a phrase", () => {
  assert.deepEqual(parseQuery("LLaMA-2 e.g").clauses,
    [clause(["llama", "2"], { phrase: true }), clause(["e", "g"], { phrase: true })]);
});

test("an unknown field prefix is searched as a word", () => {
  assert.deepEqual(parseQuery("foo:bar").clauses, [clause(["foo", "bar"])]);
  assert.deepEqual(parseQuery("foo:").clauses, [clause(["foo"])]);
});

test("lunr syntax and odd input never throw and give no clause", () => {
  for (const input of ["*", "~", "^", ":", "+", "-", '"', "\\", ")(", "", null, undefined, "🙂", "<img>"]) {
    assert.doesNotThrow(() => parseQuery(input));
  }
  assert.deepEqual(parseQuery("* ~ ^ : + -").clauses, []);
  assert.deepEqual(parseQuery("<img src=x>").clauses, [clause(["img"]), clause(["src", "x"], { phrase: true })]);
});

test("names are folded as the build folds them (generator/search/terms.py)", () => {
  assert.equal(fold("schölkopf arandjelović gabrié łukasz møller straße"), "scholkopf arandjelovic gabrie lukasz moller strasse");
});

test("one edit undoes a dropped, swapped, changed or added letter", () => {
  const one = new Set(edits("retreival"));
  for (const w of ["retrieval", "etreival", "retreivals", "retreivel"]) { assert.ok(one.has(w), w); }
  assert.ok(!one.has("retrieve"));
});

test("distance counts a swap of neighbours as one edit, and stops past the limit", () => {
  assert.equal(distance("retreival", "retrieval", 2), 1);
  assert.equal(distance("hamilotnain", "hamiltonian", 2), 2);
  assert.equal(distance("graph", "network", 2), 3);
});
