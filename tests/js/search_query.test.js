// Unit tests of static/search/query.js, run by node's test runner (tests/test_search_js.py).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { parseQuery, words, fold, edits, distance, grams, pieces, isCJK } = require("../../static/search/query.js");
const CJK_VECTORS = require("./cjk_vectors.json");

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

test("a run of CJK characters is a word apart from the letters it touches", () => {
  assert.deepEqual(words("LLM的知识蒸馏方法 GPT-4在MMLU"), ["llm", "的知识蒸馏方法", "gpt", "4", "在", "mmlu"]);
  assert.ok(isCJK("知识") && isCJK("トランス") && !isCJK("한국어") && !isCJK("llm"));
});

test("a CJK run is cut into overlapping bigrams, one character kept whole", () => {
  assert.deepEqual(grams("知识蒸馏"), ["知识", "识蒸", "蒸馏"]);
  assert.deepEqual(grams("的"), ["的"]);
  assert.deepEqual(grams("\u{20000}\u{20001}\u{20002}"), ["\u{20000}\u{20001}", "\u{20001}\u{20002}"]);
});

test("pieces say where each term stands, a bigram beyond the BMP too", () => {
  assert.deepEqual(pieces("a\u{20BB7}野家").map((p) => [p.text, p.start, p.end]),
    [["a", 0, 1], ["\u{20BB7}野", 1, 4], ["野家", 3, 5]]);
});

test("the shared vectors are cut as the build cuts them (generator/search/terms.py)", () => {
  for (const row of CJK_VECTORS) {
    assert.deepEqual(pieces(row.text).map((p) => p.text.toLowerCase()), row.terms, row.text);
    assert.deepEqual(words(row.text).flatMap((w) => (isCJK(w) ? grams(fold(w)) : [fold(w)])), row.names, row.text);
  }
});

test("LLM的 is two words, not a phrase; a quoted Chinese word is a phrase of its bigrams", () => {
  assert.deepEqual(parseQuery("LLM的知识蒸馏 ").clauses, [clause(["llm", "的知识蒸馏"])]);
  assert.deepEqual(parseQuery('"知识蒸馏"').clauses, [clause(["知识蒸馏"], { phrase: true })]);
  assert.deepEqual(parseQuery('"的"').clauses, [clause(["的"])]);
  assert.deepEqual(parseQuery("tag:知识蒸馏").clauses, [clause(["知识蒸馏"], { fields: ["tags"] })]);
});
