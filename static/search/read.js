/* Reads the search index the build writes (generator/search/packed.py) from the bytes of its JSON
   file, as they arrive. The vectors, nine tenths of the file, go straight into one Int32Array
   (the table search/index.js reads) instead of 50,000 strings made by JSON.parse, and what
   search/index.js would otherwise sum over them in a pass of its own (each vector's length,
   each term's number of vectors, each field's total length) is summed as they are read, while
   the rest of the file is still downloading. Anything not laid out as expected is read by
   JSON.parse instead. */
(() => {
  "use strict";
  const VECTORS_KEY = "\"vectors\":";
  // why: the digits of a vector's numbers, as generator/search/packed.py writes them: 32 that end a
  // number ("#" to "B") and 32 that go before its last digit ("]" to "|"); declared here only,
  // search/index.js takes them from this script's exports (tests/test_js_parity.py checks them
  // against packed.py's)
  const FINAL = 0x23, MORE = 0x5D;
  const MAX_COUNT = 0x7fffffff;

  /** Reads the packed index from the bytes of its JSON file as they arrive (push, until
      closed() or the last bytes, then finish). `size`, if known, is the file's length. */
  function IndexReader(size) {
    this.size = size || 0;
    this.chunks = [];
    this.header = null; // why: the JSON before "vectors", once it is all in
    this.tail = [];
    this.seen = 0; // why: bytes before the latest chunk, while the vectors' key is not yet found
    this.carry = new Uint8Array(0); // why: the key may straddle two chunks
    this.failed = false;
    this.done = false;
    this.whole = null; // why: the packed index, once the bytes read hold all of it
    this.depth = 0;
    this.num = 0;
    this.digits = 0;
    this.v = 0; // why: the vector being read, its field and ref,
    this.field = -1;
    this.ref = 0;
    this.at = 0; // the place of the next number in it, its term count, their running sum,
    this.terms = 0; // where it starts in flat, and the place of a count being read
    this.sum = 0;
    this.base = 0;
    this.place = 0;
    this.n = 0;
    this.comma = false; // why: whether a comma follows the last vector read
  }

  IndexReader.prototype.push = function (bytes) {
    this.chunks.push(bytes);
    if (this.failed) { return; }
    try {
      if (!this.header && !(bytes = this.afterKey(bytes))) { return; }
      if (this.done) { this.tail.push(bytes); return; }
      const end = this.scan(bytes, 0);
      if (end >= 0) { this.tail.push(bytes.subarray(end)); }
    } catch (e) {
      this.failed = true;
    }
  };

  /** Looks for the vectors' key where the latest chunk (`bytes`) ends the bytes so far; once it
      is found, reads the header before it and gives the chunk's bytes after it. */
  IndexReader.prototype.afterKey = function (bytes) {
    // why: only the chunk and the few bytes before it are searched, so the head is read once
    const window = this.carry.length ? concat([this.carry, bytes]) : bytes;
    const at = indexOf(window, VECTORS_KEY);
    if (at < 0) {
      this.carry = window.slice(Math.max(0, window.length - VECTORS_KEY.length + 1));
      this.seen += bytes.length;
      return null;
    }
    const head = decode(concat(this.chunks).subarray(0, this.seen - this.carry.length + at));
    this.begin(JSON.parse(head.replace(/,\s*$/, "") + "}"));
    return bytes.subarray(at + VECTORS_KEY.length - this.carry.length);
  };

  /** Makes the table for the vectors that `header` (the index but its vectors) announces. */
  IndexReader.prototype.begin = function (header) {
    const width = Array.isArray(header.fields) ? header.fields.length : 0;
    const count = header.documents * width;
    if (!width || !Array.isArray(header.terms) || !(count >= 0 && count < 1 << 26)) { throw new Error("not a packed index"); }
    this.header = header;
    this.width = width;
    this.count = count;
    // why: a term takes two numbers of the table and about two bytes of the file; grown if short
    this.flat = new Int32Array(Math.max(1024, this.size));
    this.starts = new Int32Array(count + 1);
    this.lengths = new Int32Array(count);
    this.termVectors = new Int32Array(header.terms.length);
    this.totals = header.fields.map(() => { return 0; });
  };

  /** Reads vectors from bytes[from...]; where the vectors end, or -1 if they go on. Each
      vector, a string of numbers [n, n term deltas, (place, count) of counts above 1] in
      generator/search/packed.py's digits, goes into the table as [field, ref, n, n term numbers,
      n counts]: the deltas summed, every count 1 unless listed, its field and ref from its
      place among the vectors (field after field, ref after ref). */
  IndexReader.prototype.scan = function (bytes, from) {
    let flat = this.flat, lengths = this.lengths, termVectors = this.termVectors, termCount = termVectors.length;
    let n = this.n, depth = this.depth, num = this.num, digits = this.digits, v = this.v;
    let at = this.at, terms = this.terms, sum = this.sum, base = this.base, place = this.place;
    let length = bytes.length, i = from, c = 0;
    while (i < length) {
      c = bytes[i++];
      if (depth === 2) { // why: within a vector's string, where nine tenths of the bytes are
        if (c >= FINAL && c < FINAL + 32) { // why: a number's last digit, most often its only one
          num = num * 32 + (c - FINAL);
          if (at === 0) {
            if (num > termCount) { throw new Error("more terms than the index has"); }
            terms = num; sum = 0; base = n; n += 3 + 2 * terms;
            while (n > flat.length) { flat = grow(flat); }
            flat[base] = this.field; flat[base + 1] = this.ref; flat[base + 2] = terms;
            flat.fill(1, base + 3 + terms, n);
            lengths[v] = terms;
            place = -1;
          } else if (at <= terms) {
            sum += num;
            if (sum >= termCount || (num === 0 && at > 1)) { throw new Error("not a term, or twice"); }
            flat[base + 2 + at] = sum;
            termVectors[sum]++;
          } else if ((at - terms) % 2 === 1) {
            if (num >= terms || num <= place) { throw new Error("no such place, or out of order"); }
            place = num;
          } else {
            if (num < 2 || num > MAX_COUNT) { throw new Error("a count the build does not list"); }
            flat[base + 3 + terms + place] = num;
            lengths[v] += num - 1;
          }
          num = 0; digits = 0; at++;
          continue;
        }
        if (c >= MORE && c < MORE + 32) {
          if (digits === 0 && c === MORE) { throw new Error("a leading zero"); }
          if (++digits > 6) { throw new Error("a number too large"); }
          num = num * 32 + (c - MORE);
          continue;
        }
        if (c === 34) {
          if (digits || at === 0 || at < terms + 1 || (at - terms) % 2 === 0) { throw new Error("short vector"); }
          // why: sums of integer counts are exact, so adding per vector gives lunr.py's totals
          this.totals[this.field] += lengths[v];
          v++;
          depth = 1;
          continue;
        }
        throw new Error("unexpected byte " + c);
      }
      if (c === 32 || c === 10 || c === 13 || c === 9) { continue; }
      // why: a comma between two vectors, and only there, as JSON has it
      if (c === 44 && depth === 1 && v > 0 && !this.comma) { this.comma = true; continue; }
      if (c === 34 && depth === 1 && this.comma === (v > 0)) {
        if (v >= this.count) { throw new Error("more vectors than fields of documents"); }
        this.comma = false;
        this.starts[v] = n; at = 0;
        if (++this.field === this.width) { this.field = 0; this.ref++; }
        depth = 2;
        continue;
      }
      if (c === 91 && depth === 0) { depth = 1; continue; }
      if (c === 93 && depth === 1 && !this.comma) {
        if (v !== this.count) { throw new Error("fewer vectors than fields of documents"); }
        this.done = true;
        break;
      }
      throw new Error("unexpected byte " + c);
    }
    this.flat = flat; this.n = n; this.depth = depth; this.num = num; this.digits = digits; this.v = v;
    this.at = at; this.terms = terms; this.sum = sum; this.base = base; this.place = place;
    return this.done ? i : -1;
  };

  /** The packed index, once every byte is in. */
  IndexReader.prototype.finish = function () {
    return this.whole || this.read() || JSON.parse(decode(concat(this.chunks)));
  };

  /** Whether the bytes so far hold the whole index, its JSON closed: the end of a fetch's body
      is signalled tens of milliseconds after its last bytes, which need not be waited for. */
  IndexReader.prototype.closed = function () {
    const last = this.tail[this.tail.length - 1];
    if (!this.whole && this.done && !this.failed && last && endsObject(last)) { this.whole = this.read(); }
    return Boolean(this.whole);
  };

  /** The packed index, its vectors as the table read, if the bytes so far are it; else null. */
  IndexReader.prototype.read = function () {
    if (this.failed || !this.done) { return null; }
    try {
      const rest = JSON.parse("{" + VECTORS_KEY + "[]" + decode(concat(this.tail)));
      const packed = this.header;
      Object.keys(rest).forEach((key) => { packed[key] = rest[key]; });
      this.starts[this.count] = this.n;
      // why: search/index.js reads the table, already checked and summed, in place of the arrays
      packed.vectors = { flat: this.flat.subarray(0, this.n), starts: this.starts, count: this.count,
        sums: { lengths: this.lengths, termVectors: this.termVectors, totals: this.totals } };
      return packed;
    } catch (e) { /* not complete, or not the expected layout: parsed as plain JSON at the end */ }
    return null;
  };

  /** Whether the last byte of `bytes` but white space closes an object. */
  function endsObject(bytes) {
    for (let i = bytes.length - 1; i >= 0; i--) {
      const c = bytes[i];
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) { return c === 125; }
    }
    return false;
  }

  /** The packed index from the bytes (an ArrayBuffer) of its JSON file. */
  function parseIndex(buffer) {
    const reader = new IndexReader(buffer.byteLength);
    reader.push(new Uint8Array(buffer));
    return reader.finish();
  }

  /** The packed index from a fetch Response, read as it downloads where streams allow. */
  function readIndex(response) {
    if (!response.body || !response.body.getReader) { return response.arrayBuffer().then(parseIndex); }
    const reader = new IndexReader(Number(response.headers.get("Content-Length")) || 0);
    const body = response.body.getReader();
    function next(step) {
      if (step.done) { return reader.finish(); }
      reader.push(step.value);
      return reader.closed() ? reader.finish() : body.read().then(next);
    }
    return body.read().then(next);
  }

  function grow(flat) {
    const bigger = new Int32Array(flat.length * 2);
    bigger.set(flat);
    return bigger;
  }

  function concat(chunks) {
    if (chunks.length === 1) { return chunks[0]; }
    let size = 0, at = 0;
    chunks.forEach((c) => { size += c.length; });
    const out = new Uint8Array(size);
    chunks.forEach((c) => { out.set(c, at); at += c.length; });
    return out;
  }

  function decode(bytes) { return new TextDecoder().decode(bytes); }

  /** Where the ASCII text `key` first is in `bytes`, or -1; found by its last character, which
      for the vectors' key (a colon) is rare in the index. */
  function indexOf(bytes, key) {
    const end = key.length - 1, last = key.charCodeAt(end);
    outer: for (let i = bytes.indexOf(last, end); i >= 0; i = bytes.indexOf(last, i + 1)) {
      for (let j = 1; j <= end; j++) {
        if (bytes[i - j] !== key.charCodeAt(end - j)) { continue outer; }
      }
      return i - end;
    }
    return -1;
  }

  const api = { parseIndex: parseIndex, readIndex: readIndex, FINAL: FINAL, MORE: MORE };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; } else { globalThis.DigestRead = api; }
})();
