// node unpack_check.js PACKED.json RAW.json: exits 0 when static/search-index.js unpacks the
// packed index into exactly the index lunr.py serialised (run by tests/test_search_js.py).
"use strict";
const fs = require("node:fs");
const assert = require("node:assert/strict");
const { unpackIndex } = require("../../static/search-index.js");

const [packedPath, rawPath] = process.argv.slice(2);
const unpacked = unpackIndex(JSON.parse(fs.readFileSync(packedPath, "utf8")));
assert.deepStrictEqual(unpacked, JSON.parse(fs.readFileSync(rawPath, "utf8")));
console.log("unpacked index equals lunr.py's");
