// node lazy_check.js PACKED.json: exits 0 when the lazily made index (loadIndex) answers every
// query exactly as lunr.Index.load(unpackIndex(...)) does: refs, order, scores and match data,
// whether it was given the file's JSON or its bytes (parseIndex), and with refs far apart.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const assert = require("node:assert/strict");
const lunr = require(path.join(__dirname, "../../node_modules/lunr"));
const { loadIndex, unpackIndex } = require("../../static/search-index.js");
const { parseIndex } = require("../../static/search-read.js");

const bytes = fs.readFileSync(process.argv[2]);
const packed = JSON.parse(bytes.toString("utf8"));
const lazy = loadIndex(lunr, packed);
const fromBytes = loadIndex(lunr, parseIndex(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)));
const eager = lunr.Index.load(unpackIndex(packed));
// why: refs that are not 0..n-1, as the build writes them, are found without the ref table
const spread = JSON.parse(JSON.stringify(packed));
spread.vectors.forEach((v) => { v[1] = v[1] * 1000 + 7; });
const spreadLazy = loadIndex(lunr, spread);
const spreadEager = lunr.Index.load(unpackIndex(JSON.parse(JSON.stringify(spread))));
const queries = ["-agents", "-web -agents", "*", "unlearning", "language models", "web agents", "-llm agents", "title:agents",
  "+web +agents", "retreival~1", "*ing", "tr*ns", "transf*", "a*", "e*", "zzz", "zzz*"];
for (const term of packed.terms) {
  queries.push(term, term.slice(0, 1) + "*", term.slice(0, 2) + "*", term.slice(0, 3) + "*");
}
let checked = 0;
for (const q of queries) {
  const expected = eager.search(q);
  assert.deepStrictEqual(lazy.search(q), expected, `query ${JSON.stringify(q)}`);
  assert.deepStrictEqual(fromBytes.search(q), expected, `query ${JSON.stringify(q)}, from bytes`);
  assert.deepStrictEqual(spreadLazy.search(q), spreadEager.search(q), `query ${q}, refs apart`);
  checked++;
}
console.log(`${checked} queries answered alike`);
