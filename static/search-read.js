/* Reads the search index the build writes (generator/lunrpack.py) from the bytes of its JSON
   file, as they arrive. The vectors, nine tenths of the file, go straight into one Int32Array
   ({flat, starts}, which search-index.js reads) instead of 50,000 arrays made by JSON.parse;
   anything not laid out as expected is read by JSON.parse instead. */
(function (root) {
  "use strict";
  var VECTORS_KEY = "\"vectors\":";

  /** Reads the packed index from the bytes of its JSON file as they arrive (push, until
      closed() or the last bytes, then finish). The vectors, nine tenths of it, go straight
      into one Int32Array rather than into 50,000 arrays by JSON.parse; the rest is parsed as
      JSON. Anything unexpected falls back to JSON.parse of the whole file. `size`, if known,
      is the file's length. */
  function IndexReader(size) {
    this.chunks = [];
    this.head = null; // why: the bytes before "vectors", once they are all in
    this.tail = [];
    this.seen = 0; // why: bytes before the latest chunk, while the vectors' key is not yet found
    this.carry = new Uint8Array(0); // why: the key may straddle two chunks
    this.failed = false;
    this.done = false;
    this.flat = new Int32Array(Math.max(1024, (size || 0) >> 1));
    this.n = 0;
    this.starts = [];
    this.depth = 0;
    this.num = 0;
    this.digits = 0;
    this.whole = null; // why: the packed index, once the bytes read hold all of it
    this.at = 0; // why: the place of the next number in its vector, its term count, their sum
    this.terms = 0;
    this.sum = 0;
  }

  IndexReader.prototype.push = function (bytes) {
    this.chunks.push(bytes);
    if (this.failed) { return; }
    try {
      if (!this.head && !(bytes = this.afterKey(bytes))) { return; }
      if (this.done) { this.tail.push(bytes); return; }
      var end = this.scan(bytes, 0);
      if (end >= 0) { this.tail.push(bytes.subarray(end)); }
    } catch (e) {
      this.failed = true;
    }
  };

  /** Looks for the vectors' key where the latest chunk (`bytes`) ends the bytes so far; once it
      is found, keeps all before it as the head and gives the chunk's bytes after it. */
  IndexReader.prototype.afterKey = function (bytes) {
    // why: only the chunk and the few bytes before it are searched, so the head is read once
    var window = this.carry.length ? concat([this.carry, bytes]) : bytes;
    var at = indexOf(window, VECTORS_KEY);
    if (at < 0) {
      this.carry = window.slice(Math.max(0, window.length - VECTORS_KEY.length + 1));
      this.seen += bytes.length;
      return null;
    }
    this.head = concat(this.chunks).subarray(0, this.seen - this.carry.length + at);
    return bytes.subarray(at + VECTORS_KEY.length - this.carry.length);
  };

  /** Reads vector numbers from bytes[from...]; where the vectors end, or -1 if they go on. A
      vector's term deltas are summed into term numbers as they are read. */
  IndexReader.prototype.scan = function (bytes, from) {
    var flat = this.flat, n = this.n, depth = this.depth, num = this.num, digits = this.digits;
    var at = this.at, terms = this.terms, sum = this.sum, length = bytes.length, i = from, c = 0;
    while (i < length) {
      c = bytes[i];
      if (c >= 48 && c <= 57) {
        // why: a whole run of digits in one tight loop; most numbers here are one digit long
        do { num = num * 10 + (c - 48); digits++; } while (++i < length && (c = bytes[i]) >= 48 && c <= 57);
        if (i === length) { break; } // why: the number may go on in the next chunk
      }
      i++;
      if (digits) {
        if (digits > 9 || depth !== 2) { throw new Error("not a vector's number"); }
        if (n === flat.length) { flat = grow(flat); }
        // why: [field, ref, n, n term deltas, n counts] is kept with the deltas summed
        if (at === 2) { terms = num; sum = 0; } else if (at > 2 && at - 3 < terms) { num = sum += num; }
        flat[n++] = num; num = 0; digits = 0; at++;
      }
      if (c === 44 || c === 32 || c === 10 || c === 13 || c === 9) { continue; }
      if (c === 91) {
        if (depth === 1) { this.starts.push(n); at = 0; } else if (depth !== 0) { throw new Error("nested"); }
        depth++;
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
    this.at = at; this.terms = terms; this.sum = sum;
    return this.done ? i : -1;
  };

  /** The packed index, once every byte is in. */
  IndexReader.prototype.finish = function () {
    return this.whole || this.read() || JSON.parse(decode(concat(this.chunks)));
  };

  /** Whether the bytes so far hold the whole index, its JSON closed: the end of a fetch's body
      is signalled tens of milliseconds after its last bytes, which need not be waited for. */
  IndexReader.prototype.closed = function () {
    var last = this.tail[this.tail.length - 1];
    if (!this.whole && this.done && !this.failed && last && endsObject(last)) { this.whole = this.read(); }
    return Boolean(this.whole);
  };

  /** The packed index, its vectors as the table read, if the bytes so far are it; else null. */
  IndexReader.prototype.read = function () {
    if (this.failed || !this.done) { return null; }
    try {
      var packed = JSON.parse(decode(this.head) + VECTORS_KEY + "[]" + decode(concat(this.tail)));
      if (Array.isArray(packed.vectors) && !packed.vectors.length) {
        // why: search-index.js checks the format, and reads the flat table in place of the arrays
        packed.vectors = { flat: this.flat.subarray(0, this.n), starts: this.starts, absolute: true };
        return packed;
      }
    } catch (e) { /* not complete, or not the expected layout: parsed as plain JSON at the end */ }
    return null;
  };

  /** Whether the last byte of `bytes` but white space closes an object. */
  function endsObject(bytes) {
    for (var i = bytes.length - 1; i >= 0; i--) {
      var c = bytes[i];
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) { return c === 125; }
    }
    return false;
  }

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
      return reader.closed() ? reader.finish() : body.read().then(next);
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

  /** Where the ASCII text `key` first is in `bytes`, or -1; found by its last character, which
      for the vectors' key (a colon) is rare in the index. */
  function indexOf(bytes, key) {
    var end = key.length - 1, last = key.charCodeAt(end);
    outer: for (var i = bytes.indexOf(last, end); i >= 0; i = bytes.indexOf(last, i + 1)) {
      for (var j = 1; j <= end; j++) {
        if (bytes[i - j] !== key.charCodeAt(end - j)) { continue outer; }
      }
      return i - end;
    }
    return -1;
  }

  var api = { parseIndex: parseIndex, readIndex: readIndex };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; } else { root.DigestRead = api; }
}(typeof self !== "undefined" ? self : this));
