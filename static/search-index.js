/* Reads the search index the build writes (generator/lunrpack.py). unpackIndex() gives back
   exactly the JSON lunr.py serialised, for lunr.Index.load. loadIndex() builds the same
   lunr.Index without making every posting up front: a posting or a document vector is made the
   first time a query touches it, so the index is ready in a fraction of the time. */
(function (root) {
  "use strict";
  var FORMAT = "digest-lunr/1";

  function postings(packed) {
    var fields = packed.fields;
    var entries = packed.terms.map(function (term, position) {
      var posting = { _index: position };
      fields.forEach(function (field) { posting[field] = {}; });
      var row = packed.postings[position];
      for (var at = 0; at < row.length; at += 2 + row[at + 1]) {
        var target = posting[fields[row[at]]];
        for (var i = 0, ref = 0; i < row[at + 1]; i++) {
          ref += row[at + 2 + i];
          target[ref] = {};
        }
      }
      return [term, posting];
    });
    // why: lunr's TokenSet builder needs the terms in order, as lunr.py wrote them
    return entries.sort(function (a, b) { return byTerm(a[0], b[0]); });
  }

  function vectors(packed) {
    return packed.vectors.map(function (v) {
      var count = v[2];
      var elements = [];
      for (var i = 0, position = 0; i < count; i++) {
        position += v[3 + i];
        elements.push(position, v[3 + count + i] / 1000);
      }
      return [packed.fields[v[0]] + "/" + v[1], elements];
    });
  }

  /** lunr's serialised index from the packed one; an unpacked index passes through as it is. */
  function unpackIndex(packed) {
    if (packed.format === undefined) { return packed; }
    if (packed.format !== FORMAT) { throw new Error("unknown search index format " + packed.format); }
    return { version: packed.version, fields: packed.fields, fieldVectors: vectors(packed),
      invertedIndex: postings(packed), pipeline: packed.pipeline };
  }

  function byTerm(a, b) { return a < b ? -1 : a > b ? 1 : 0; }

  function posting(packed, position) {
    var result = { _index: position };
    var fields = packed.fields;
    var row = packed.postings[position];
    var refs = {};
    for (var at = 0; at < row.length; at += 2 + row[at + 1]) {
      // why: JSON.parse makes integer-keyed objects several times faster than assignments do
      var text = "{";
      for (var i = 0, ref = 0; i < row[at + 1]; i++) {
        ref += row[at + 2 + i];
        text += (i ? ",\"" : "\"") + ref + "\":{}";
      }
      refs[row[at]] = JSON.parse(text + "}");
    }
    fields.forEach(function (field, n) { result[field] = refs[n] || {}; });
    return result;
  }

  function vector(lunr, packed, v) {
    var count = v[2];
    var elements = [];
    for (var i = 0, position = 0; i < count; i++) {
      position += v[3 + i];
      elements.push(position, v[3 + count + i] / 1000);
    }
    return new lunr.Vector(elements);
  }

  /** A read-only map whose values are made from `make(key)` on first use. */
  function lazy(keys, make) {
    var made = Object.create(null);
    return new Proxy(keys, {
      get: function (target, key) {
        if (typeof key !== "string" || !(key in target)) { return undefined; }
        return key in made ? made[key] : (made[key] = make(target[key]));
      }
    });
  }

  /** `word` and whether it ends in a trailing wildcard, if the query token set is that simple. */
  function simpleClause(set) {
    var word = "";
    for (var node = set; ; ) {
      var edges = Object.keys(node.edges);
      if (edges.length === 0) { return node.final ? { word: word, prefix: false } : null; }
      if (edges.length !== 1) { return null; }
      if (edges[0] === "*") {
        return node.edges["*"].edges["*"] === node.edges["*"] && node.edges["*"].final ? { word: word, prefix: true } : null;
      }
      word += edges[0];
      node = node.edges[edges[0]];
    }
  }

  /** lunr.TokenSet#toArray's order for words under one prefix: depth first, last letter first. */
  function tokenSetOrder(a, b) {
    for (var i = 0; i < a.length && i < b.length; i++) {
      if (a[i] !== b[i]) { return a[i] < b[i] ? 1 : -1; }
    }
    return a.length - b.length;
  }

  /** A stand-in for the index's TokenSet: exact words and trailing wildcards are answered from
      the sorted terms; anything else (fuzzy, other wildcards) builds the real TokenSet once. */
  function tokenSet(lunr, sorted) {
    var real = null;
    return {
      intersect: function (query) {
        var simple = simpleClause(query);
        if (!simple) {
          if (!real) {
            var builder = new lunr.TokenSet.Builder();
            sorted.forEach(function (term) { builder.insert(term); });
            builder.finish();
            real = builder.root;
          }
          return real.intersect(query);
        }
        var lo = 0, hi = sorted.length;
        while (lo < hi) { var mid = (lo + hi) >> 1; if (sorted[mid] < simple.word) { lo = mid + 1; } else { hi = mid; } }
        var found = [];
        for (var i = lo; i < sorted.length && sorted[i].lastIndexOf(simple.word, 0) === 0; i++) {
          if (simple.prefix || sorted[i] === simple.word) { found.push(sorted[i]); }
          if (!simple.prefix) { break; }
        }
        found.sort(tokenSetOrder);
        return { toArray: function () { return found; } };
      }
    };
  }

  /** The lunr.Index that lunr.Index.load(unpackIndex(packed)) would give, made lazily. */
  function loadIndex(lunr, packed) {
    if (packed.format !== FORMAT) { return lunr.Index.load(unpackIndex(packed)); }
    var positions = Object.create(null);
    packed.terms.forEach(function (term, position) { positions[term] = position; });
    var vectorsAt = Object.create(null);
    packed.vectors.forEach(function (v, n) { vectorsAt[packed.fields[v[0]] + "/" + v[1]] = n; });
    return new lunr.Index({
      invertedIndex: lazy(positions, function (position) { return posting(packed, position); }),
      fieldVectors: lazy(vectorsAt, function (n) { return vector(lunr, packed, packed.vectors[n]); }),
      tokenSet: tokenSet(lunr, packed.terms.slice().sort(byTerm)),
      fields: packed.fields,
      pipeline: lunr.Pipeline.load(packed.pipeline)
    });
  }

  var api = { unpackIndex: unpackIndex, loadIndex: loadIndex, FORMAT: FORMAT };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; } else { root.DigestIndex = api; }
}(typeof self !== "undefined" ? self : this));
