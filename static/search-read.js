/* Reads the search index the build writes (generator/lunrpack.py) from the bytes of its JSON
   file, as they arrive. The vectors, nine tenths of the file, go straight into one Int32Array
   ({flat, starts}, which search-index.js reads) instead of 50,000 arrays made by JSON.parse;
   anything not laid out as expected is read by JSON.parse instead. */
(function (root) {
  "use strict";
  var VECTORS_KEY = "\"vectors\":";

  /** Reads the packed index from the bytes of its JSON file as they arrive (push, then
      finish). The vectors, nine tenths of it, go straight into one Int32Array rather than into
      50,000 arrays by JSON.parse; the rest is parsed as JSON. Anything unexpected falls back
      to JSON.parse of the whole file. `size`, if known, is the file's length. */
  function IndexReader(size) {
    this.chunks = [];
    this.head = null; // why: the bytes before "vectors", once they are all in
    this.tail = [];
    this.seen = 0;
    this.failed = false;
    this.done = false;
    this.flat = new Int32Array(Math.max(1024, (size || 0) >> 1));
    this.n = 0;
    this.starts = [];
    this.depth = 0;
    this.num = 0;
    this.digits = 0;
  }

  IndexReader.prototype.push = function (bytes) {
    this.chunks.push(bytes);
    if (this.failed) { return; }
    try {
      var from = 0;
      if (!this.head) {
        var all = concat(this.chunks), at = indexOf(all, VECTORS_KEY, Math.max(0, this.seen - VECTORS_KEY.length));
        this.seen = all.length;
        if (at < 0) { this.chunks = [all]; return; }
        this.head = all.subarray(0, at);
        this.chunks = [all];
        bytes = all;
        from = at + VECTORS_KEY.length;
      }
      if (this.done) { this.tail.push(bytes); return; }
      var end = this.scan(bytes, from);
      if (end >= 0) { this.tail.push(bytes.subarray(end)); }
    } catch (e) {
      this.failed = true;
    }
  };

  /** Reads vector numbers from bytes[from...]; where the vectors end, or -1 if they go on. */
  IndexReader.prototype.scan = function (bytes, from) {
    var flat = this.flat, n = this.n, depth = this.depth, num = this.num, digits = this.digits;
    var length = bytes.length, i = from, c = 0;
    for (; i < length; i++) {
      c = bytes[i];
      if (c >= 48 && c <= 57) { num = num * 10 + (c - 48); digits++; continue; }
      if (digits) {
        if (digits > 9 || depth !== 2) { throw new Error("not a vector's number"); }
        if (n === flat.length) { flat = grow(flat); }
        flat[n++] = num; num = 0; digits = 0;
      }
      if (c === 44 || c === 32 || c === 10 || c === 13 || c === 9) { continue; }
      if (c === 91) {
        if (++depth === 2) { this.starts.push(n); } else if (depth !== 1) { throw new Error("nested"); }
        continue;
      }
      if (c === 93) {
        if (--depth === 0) { this.done = true; break; }
        if (depth < 0) { throw new Error("unbalanced"); }
        continue;
      }
      throw new Error("unexpected byte " + c);
    }
    this.flat = flat; this.n = n; this.depth = depth; this.num = num; this.digits = digits;
    return this.done ? i + 1 : -1;
  };

  IndexReader.prototype.finish = function () {
    if (!this.failed && this.done) {
      try {
        var packed = JSON.parse(decode(this.head) + VECTORS_KEY + "[]" + decode(concat(this.tail)));
        if (Array.isArray(packed.vectors) && !packed.vectors.length) {
          // why: search-index.js checks the format, and reads the flat table in place of the arrays
          packed.vectors = { flat: this.flat.subarray(0, this.n), starts: this.starts };
          return packed;
        }
      } catch (e) { /* not the expected layout: parse it as plain JSON below */ }
    }
    return JSON.parse(decode(concat(this.chunks)));
  };

  /** The packed index from the bytes (an ArrayBuffer) of its JSON file. */
  function parseIndex(buffer) {
    var reader = new IndexReader(buffer.byteLength);
    reader.push(new Uint8Array(buffer));
    return reader.finish();
  }

  /** The packed index from a fetch Response, read as it downloads where streams allow. */
  function readIndex(response) {
    if (!response.body || !response.body.getReader) { return response.arrayBuffer().then(parseIndex); }
    var reader = new IndexReader(Number(response.headers.get("Content-Length")) || 0);
    var body = response.body.getReader();
    function next(step) {
      if (step.done) { return reader.finish(); }
      reader.push(step.value);
      return body.read().then(next);
    }
    return body.read().then(next);
  }

  function grow(flat) {
    var bigger = new Int32Array(flat.length * 2);
    bigger.set(flat);
    return bigger;
  }

  function concat(chunks) {
    if (chunks.length === 1) { return chunks[0]; }
    var size = 0, at = 0;
    chunks.forEach(function (c) { size += c.length; });
    var out = new Uint8Array(size);
    chunks.forEach(function (c) { out.set(c, at); at += c.length; });
    return out;
  }

  function decode(bytes) { return new TextDecoder().decode(bytes); }

  /** Where the ASCII text `key` first is in `bytes` from `from` on, or -1. */
  function indexOf(bytes, key, from) {
    var first = key.charCodeAt(0);
    outer: for (var i = bytes.indexOf(first, from || 0); i >= 0; i = bytes.indexOf(first, i + 1)) {
      for (var j = 1; j < key.length; j++) {
        if (bytes[i + j] !== key.charCodeAt(j)) { continue outer; }
      }
      return i;
    }
    return -1;
  }

  var api = { parseIndex: parseIndex, readIndex: readIndex };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; } else { root.DigestRead = api; }
}(typeof self !== "undefined" ? self : this));
