// node unpack_check.js PACKED.json RAW.json: exits 0 when static/search/index.js unpacks the
// packed index into exactly the index lunr.py serialised (run by tests/test_search_js.py), whether
// it is given the file's JSON, or static/search/read.js's reading of its bytes, at once or as they
// arrive in chunks of any size; its terms sorted as lunr.js sorts them.
"use strict";
const fs = require("node:fs");
const assert = require("node:assert/strict");
const { unpackIndex } = require("../../static/search/index.js");
const { parseIndex, readIndex, FINAL, MORE } = require("../../static/search/read.js");

const [packedPath, rawPath] = process.argv.slice(2);
const bytes = fs.readFileSync(packedPath);
const raw = JSON.parse(fs.readFileSync(rawPath, "utf8"));
// why: lunr.py sorts its terms by code point, lunr.js by UTF-16 code unit, as its Index.load needs
// them ("Out of order word insertion" else): the two differ where terms hold characters beyond
// the BMP and others above U+E000 (CJK compatibility ideographs, half-width kana)
raw.invertedIndex.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
assert.deepStrictEqual(unpackIndex(JSON.parse(bytes.toString("utf8"))), raw);

const fromBytes = parseIndex(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
assert.ok(!Array.isArray(fromBytes.vectors), "the vectors were read as a table, not by JSON.parse");
assert.deepStrictEqual(unpackIndex(fromBytes), raw);

/** Numbers as a vector's string holds them (generator/search/packed.py's number_text). */
function digits(numbers) {
  return numbers.map((number) => {
    const out = [String.fromCharCode(FINAL + (number % 32))];
    for (let rest = Math.floor(number / 32); rest > 0; rest = Math.floor(rest / 32)) {
      out.unshift(String.fromCharCode(MORE + (rest % 32)));
    }
    return out.join("");
  }).join("");
}

/** A fetch Response whose body arrives in chunks of the given sizes, over and over. */
function response(sizes, withLength) {
  let at = 0;
  let turn = 0;
  const reader = {
    read: () => Promise.resolve(at >= bytes.length ? { done: true } : (() => {
      const size = sizes[turn++ % sizes.length];
      const value = new Uint8Array(bytes.subarray(at, Math.min(bytes.length, at + size)));
      at += size;
      return { done: false, value };
    })())
  };
  return { body: { getReader: () => reader },
    headers: { get: (name) => (withLength && name === "Content-Length" ? String(bytes.length) : null) } };
}

(async () => {
  for (const [sizes, withLength] of [[[1], false], [[7, 1, 13], true], [[4096], true], [[65536], false]]) {
    const streamed = await readIndex(response(sizes, withLength));
    assert.ok(!Array.isArray(streamed.vectors), `chunks of ${sizes}: read as a table`);
    assert.deepStrictEqual(unpackIndex(streamed), raw, `chunks of ${sizes}`);
  }
  // Bytes that are not the expected layout (here a digit written as a JSON escape) still parse,
  // as plain JSON.
  const text = bytes.toString("utf8");
  const digit = text.indexOf("#", text.indexOf("\"vectors\""));
  assert.ok(digit > 0);
  const odd = Buffer.from(text.slice(0, digit) + "\\u0023" + text.slice(digit + 1));
  const fallback = parseIndex(odd.buffer.slice(odd.byteOffset, odd.byteOffset + odd.length));
  assert.ok(Array.isArray(fallback.vectors));
  assert.deepStrictEqual(unpackIndex(fallback), raw);
  // Bytes that are not JSON are refused, not read: commas missing, doubled, leading or trailing.
  const key = text.indexOf("\"vectors\"");
  const vectorsPart = (pattern, by) => text.slice(0, key) + text.slice(key).replace(pattern, by);
  for (const bad of [vectorsPart(/",\s*"/, "\" \""), vectorsPart(/",\s*"/, "\",,\""),
    vectorsPart(/\[\s*"/, "[,\""), vectorsPart(/"\s*\]/, "\",]")]) {
    const badBytes = Buffer.from(bad);
    assert.notEqual(bad, text);
    assert.throws(() => parseIndex(badBytes.buffer.slice(badBytes.byteOffset, badBytes.byteOffset + badBytes.length)),
      SyntaxError);
  }
  // A vector the build would not write, or a vector missing, is refused, read either way.
  const malformed = [[2, 3], [2, 3, 1, 0], [2, 3, 0], [2, 3, 1, 2, 5], [2, 3, 1, 1, 5, 1, 3],
    [2, 3, 1, 1, 5, 0, 3], [2, 3, 1, 0, 1], [2, 3, 2 ** 31]].map(digits)
    .concat(["", "^", "#^", "]#", "#~", "#\\\"", 7]); // why: unfinished, a leading zero, stray bytes
  for (const [change, message] of [...malformed.map((v) => [(p) => { p.vectors[1] = v; }, /malformed vector 1/]),
    [(p) => { p.vectors.pop(); }, /vectors for/], [(p) => { p.vectors = {}; }, /no vectors/]]) {
    const bad = JSON.parse(text);
    change(bad);
    assert.throws(() => unpackIndex(bad), message);
    const badBytes = Buffer.from(JSON.stringify(bad));
    assert.throws(() => unpackIndex(parseIndex(badBytes.buffer.slice(badBytes.byteOffset,
      badBytes.byteOffset + badBytes.length))), message);
  }
  console.log("unpacked index equals lunr.py's");
})().catch((error) => { console.error(error); process.exit(1); });
