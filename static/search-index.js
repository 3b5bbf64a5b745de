/* Reads the search index the build writes (generator/lunrpack.py): each field's terms and their
   counts. Postings, idf and BM25 scores follow from those; they are derived here with the same
   float operations, in the same order, as lunr.py's Builder, so unpackIndex() gives back exactly
   the JSON lunr.py serialises, for lunr.Index.load. loadIndex() builds the same lunr.Index
   without making every posting up front: a posting or a document vector is made the first time
   a query touches it, so the index is ready in a fraction of the time. */
(function (root) {
  "use strict";
  var FORMAT = "digest-lunr/2";

  /** One pass over the vectors: each term's vectors (by number, in ref order), its idf, and
      each field's average length. */
  function derive(packed) {
    var vectors = packed.vectors, termCount = packed.terms.length;
    var counts = new Int32Array(termCount), totals = packed.fields.map(function () { return 0; });
    vectors.forEach(function (v) {
      for (var i = 0, term = 0, n = v[2]; i < n; i++) {
        term += v[3 + i];
        counts[term]++;
        totals[v[0]] += v[3 + n + i];
      }
    });
    var starts = new Int32Array(termCount + 1);
    for (var t = 0; t < termCount; t++) { starts[t + 1] = starts[t] + counts[t]; }
    var holders = new Int32Array(starts[termCount]), next = starts.slice(0, termCount);
    vectors.forEach(function (v, number) {
      for (var i = 0, term = 0; i < v[2]; i++) {
        term += v[3 + i];
        holders[next[term]++] = number;
      }
    });
    var documents = packed.documents, idf = new Float64Array(termCount);
    for (t = 0; t < termCount; t++) {
      idf[t] = Math.log(1 + Math.abs((documents - counts[t] + 0.5) / (counts[t] + 0.5)));
    }
    var averages = totals.map(function (total) { return documents ? total / documents : 0; });
    return { starts: starts, holders: holders, idf: idf, averages: averages };
  }

  /** The fields and refs of the documents that hold term `position`, as lunr's posting. */
  function posting(packed, derived, position) {
    var result = { _index: position };
    var texts = packed.fields.map(function () { return ""; });
    for (var k = derived.starts[position]; k < derived.starts[position + 1]; k++) {
      var v = packed.vectors[derived.holders[k]];
      texts[v[0]] += (texts[v[0]] ? ",\"" : "\"") + v[1] + "\":{}";
    }
    // why: JSON.parse makes integer-keyed objects several times faster than assignments do
    packed.fields.forEach(function (field, n) { result[field] = JSON.parse("{" + texts[n] + "}"); });
    return result;
  }

  /** A document field's [term index, score, ...], scored by lunr's BM25 as lunr.py does. */
  function elements(packed, derived, v) {
    var k1 = packed.bm25[0], b = packed.bm25[1], n = v[2], length = 0, i;
    for (i = 0; i < n; i++) { length += v[3 + n + i]; }
    var norm = n ? k1 * (1 - b + b * (length / derived.averages[v[0]])) : 0;
    var boost = packed.boosts[v[0]], out = [], term = 0;
    for (i = 0; i < n; i++) {
      var tf = v[3 + n + i];
      term += v[3 + i];
      out.push(term, round3(derived.idf[term] * ((k1 + 1) * tf) / (norm + tf) * boost));
    }
    return out;
  }

  /** Python's round(x, 3), as lunr.py stores scores: k / 1000 is the double nearest to k
      thousandths, as Python's is. (x * 1000 could round across a half only within an ulp of
      it, which a BM25 score with its logarithm is not in practice; toFixed would rule even that
      out, at ten times the cost on the vectors of a broad query.) */
  function round3(x) { return Math.round(x * 1000) / 1000; }

  /** lunr's serialised index from the packed one; an unpacked index passes through as it is. */
  function unpackIndex(packed) {
    if (packed.format === undefined) { return packed; }
    checkFormat(packed);
    var derived = derive(packed);
    var inverted = packed.terms.map(function (term, position) {
      return [term, posting(packed, derived, position)];
    });
    // why: lunr's TokenSet builder needs the terms in order, as lunr.py wrote them
    inverted.sort(function (a, b) { return byTerm(a[0], b[0]); });
    var vectors = packed.vectors.map(function (v) {
      return [packed.fields[v[0]] + "/" + v[1], elements(packed, derived, v)];
    });
    return { version: packed.version, fields: packed.fields, fieldVectors: vectors,
      invertedIndex: inverted, pipeline: packed.pipeline };
  }

  function checkFormat(packed) {
    if (packed.format !== FORMAT) { throw new Error("unknown search index format " + packed.format); }
  }

  function byTerm(a, b) { return a < b ? -1 : a > b ? 1 : 0; }

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
    if (packed.format === undefined) { return lunr.Index.load(packed); }
    checkFormat(packed);
    var derived = derive(packed);
    var positions = Object.create(null);
    packed.terms.forEach(function (term, position) { positions[term] = position; });
    var vectorsAt = Object.create(null);
    packed.vectors.forEach(function (v, n) { vectorsAt[packed.fields[v[0]] + "/" + v[1]] = n; });
    return new lunr.Index({
      invertedIndex: lazy(positions, function (position) { return posting(packed, derived, position); }),
      fieldVectors: lazy(vectorsAt, function (n) {
        return new lunr.Vector(elements(packed, derived, packed.vectors[n]));
      }),
      tokenSet: tokenSet(lunr, packed.terms.slice().sort(byTerm)),
      fields: packed.fields,
      pipeline: lunr.Pipeline.load(packed.pipeline)
    });
  }

  var api = { unpackIndex: unpackIndex, loadIndex: loadIndex, FORMAT: FORMAT };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; } else { root.DigestIndex = api; }
}(typeof self !== "undefined" ? self : this));
