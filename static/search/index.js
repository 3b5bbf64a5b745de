/* Reads the search index the build writes (generator/search/packed.py): each field's terms and their
   counts. Postings, idf and BM25 scores follow from those; they are derived here with the same
   float operations, in the same order, as lunr.py's Builder, so unpackIndex() gives back exactly
   the JSON lunr.py serialises, for lunr.Index.load. loadIndex() builds the same lunr.Index
   without making every posting up front: a posting or a document vector is made the first time
   a query touches it, so the index is ready in a fraction of the time. With
   static/search/answer.js loaded, that index answers queries from the packed table itself. */
(() => {
  "use strict";
  const FORMAT = "digest-lunr/4";
  // why: a number's last digit and the others (generator/search/packed.py), as search/read.js
  // declares them: the worker, and every page or test that loads this script, loads read.js first
  const digitsOf = typeof module !== "undefined" && module.exports ? require("./read.js") : globalThis.DigestRead;
  if (!digitsOf) { throw new Error("search/read.js must be loaded before search/index.js"); }
  const FINAL = digitsOf.FINAL, MORE = digitsOf.MORE;

  /** The vectors as one table: each [field, ref, n, n term numbers, n counts] in `flat`, from
      `starts`; one for every field of every document, by ref, then field. */
  function checked(packed, table) {
    const flat = table.flat, width = packed.fields.length, count = table.starts.length;
    if (count !== packed.documents * width) { throw new Error(count + " vectors for " + packed.documents + " documents"); }
    const starts = new Int32Array(count + 1);
    for (let v = 0; v < count; v++) {
      const o = table.starts[v], next = v + 1 < count ? table.starts[v + 1] : flat.length;
      if (next - o < 3 || next - o !== 3 + 2 * flat[o + 2] || flat[o] !== v % width || flat[o + 1] !== (v / width | 0)) {
        throw new Error("malformed vector " + v);
      }
      starts[v] = o;
    }
    starts[count] = flat.length;
    return { flat: flat, starts: starts, count: count };
  }

  /** The packed vectors as one table: search/read.js's, or made from JSON.parse's strings
      (the numbers [n, n term-number deltas, (place, count) of counts above 1] each), held to
      what search/read.js accepts. */
  function table(packed) {
    if (!Array.isArray(packed.vectors)) {
      if (packed.vectors && packed.vectors.sums) { return packed.vectors; }
      throw new Error("no vectors");
    }
    let width = packed.fields.length, size = 0, starts = [];
    const vectors = packed.vectors.map((text, at) => {
      const v = typeof text === "string" ? numbersOf(text) : null;
      if (!v || !v.length || !whole(v[0])) { throw new Error("malformed vector " + at); }
      size += 3 + 2 * v[0];
      return v;
    });
    let flat = new Int32Array(size), n = 0;
    vectors.forEach((vector, v) => {
      let terms = vector[0], term = -1, place = -1, i;
      if (vector.length < 1 + terms || (vector.length - 1 - terms) % 2) { throw new Error("malformed vector " + v); }
      starts.push(n);
      flat[n] = v % width; flat[n + 1] = v / width | 0; flat[n + 2] = terms;
      for (i = 0; i < terms; i++) {
        const delta = vector[1 + i];
        // why: term numbers ascend from 0, each once in a vector
        if (!whole(delta) || (i > 0 && delta === 0)) { throw new Error("malformed vector " + v); }
        term = i === 0 ? delta : term + delta;
        flat[n + 3 + i] = term; flat[n + 3 + terms + i] = 1;
      }
      if (terms && !(term < packed.terms.length)) { throw new Error("malformed vector " + v); }
      for (i = 1 + terms; i < vector.length; i += 2) {
        if (!whole(vector[i]) || vector[i] <= place || vector[i] >= terms || !whole(vector[i + 1]) || vector[i + 1] < 2) {
          throw new Error("malformed vector " + v);
        }
        place = vector[i];
        flat[n + 3 + terms + place] = vector[i + 1];
      }
      n += 3 + 2 * terms;
    });
    const t = checked(packed, { flat: flat, starts: starts });
    t.sums = sums(packed, t);
    return (packed.vectors = t);
  }

  /** The numbers of a vector's string (see generator/search/packed.py), or null if the build would
      not write it. */
  function numbersOf(text) {
    let numbers = [], value = 0, digits = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= FINAL && c < FINAL + 32) {
        numbers.push(value * 32 + c - FINAL);
        value = 0; digits = 0;
      } else if (c >= MORE && c < MORE + 32 && (digits || c > MORE) && digits < 6) {
        value = value * 32 + c - MORE; digits++;
      } else {
        return null;
      }
    }
    return digits ? null : numbers;
  }

  /** Whether `x` is a whole number an Int32Array holds, as the build writes them. */
  function whole(x) { return typeof x === "number" && x >= 0 && x <= 0x7fffffff && x % 1 === 0; }

  /** Each vector's length, each term's number of vectors, each field's total length. */
  function sums(packed, t) {
    const flat = t.flat, starts = t.starts, lengths = new Int32Array(t.count);
    const termVectors = new Int32Array(packed.terms.length), totals = packed.fields.map(() => { return 0; });
    for (let v = 0; v < t.count; v++) {
      let o = starts[v] + 3, n = flat[o - 1], length = 0;
      for (let i = o; i < o + n; i++) { termVectors[flat[i]]++; length += flat[i + n]; }
      // why: sums of integer counts are exact, so adding per vector gives lunr.py's totals
      totals[flat[o - 3]] += length;
      lengths[v] = length;
    }
    return { lengths: lengths, termVectors: termVectors, totals: totals };
  }

  /** The table, its sums, and each term's vectors (by number, in ref order); with them, each
      term's idf and each field's average length. */
  function derive(packed) {
    const t = table(packed), flat = t.flat, starts = t.starts, count = t.count;
    const termCount = packed.terms.length, summed = t.sums;
    let counts = summed.termVectors, totals = summed.totals, v, i, n, o, term;
    const postingStarts = new Int32Array(termCount + 1);
    for (term = 0; term < termCount; term++) { postingStarts[term + 1] = postingStarts[term] + counts[term]; }
    const holders = new Int32Array(postingStarts[termCount]), next = postingStarts.slice(0, termCount);
    for (v = 0; v < count; v++) {
      o = starts[v]; n = flat[o + 2];
      for (i = 0; i < n; i++) { holders[next[flat[o + 3 + i]]++] = v; }
    }
    const documents = packed.documents, idf = new Float64Array(termCount);
    for (term = 0; term < termCount; term++) {
      idf[term] = Math.log(1 + Math.abs((documents - counts[term] + 0.5) / (counts[term] + 0.5)));
    }
    const averages = totals.map((total) => { return documents ? total / documents : 0; });
    return { table: t, lengths: summed.lengths, starts: postingStarts, holders: holders, idf: idf, averages: averages };
  }

  /** The fields and refs of the documents that hold term `position`, as lunr's posting. */
  function posting(packed, derived, position) {
    const result = { _index: position }, flat = derived.table.flat, starts = derived.table.starts;
    const texts = packed.fields.map(() => { return ""; });
    for (let k = derived.starts[position]; k < derived.starts[position + 1]; k++) {
      const o = starts[derived.holders[k]], f = flat[o];
      texts[f] += (texts[f] ? ",\"" : "\"") + flat[o + 1] + "\":{}";
    }
    // why: JSON.parse makes integer-keyed objects several times faster than assignments do
    packed.fields.forEach((field, n) => { result[field] = JSON.parse("{" + texts[n] + "}"); });
    return result;
  }

  /** Vector `v`'s [term index, score, ...], scored by lunr's BM25 as lunr.py does. */
  function elements(packed, derived, v) {
    const flat = derived.table.flat, o = derived.table.starts[v], n = flat[o + 2];
    const norm = normOf(packed, derived, v), out = new Array(2 * n);
    for (let i = 0; i < n; i++) {
      out[2 * i] = flat[o + 3 + i];
      out[2 * i + 1] = termScore(packed, derived, v, norm, o + 3 + i);
    }
    return out;
  }

  /** The length norm of vector `v`'s BM25 scores. */
  function normOf(packed, derived, v) {
    const flat = derived.table.flat, o = derived.table.starts[v];
    const k1 = packed.bm25[0], b = packed.bm25[1];
    return flat[o + 2] ? k1 * (1 - b + b * (derived.lengths[v] / derived.averages[flat[o]])) : 0;
  }

  /** The score in vector `v` (its norm given) of the term at flat[at]: the same expression, in
      the same order, as lunr.py's Builder, for the same float. */
  function termScore(packed, derived, v, norm, at) {
    const flat = derived.table.flat, o = derived.table.starts[v], k1 = packed.bm25[0];
    const tf = flat[at + flat[o + 2]];
    return round3(derived.idf[flat[at]] * ((k1 + 1) * tf) / (norm + tf) * packed.boosts[flat[o]]);
  }

  /** Python's round(x, 3), as lunr.py stores scores: k / 1000 is the double nearest to k
      thousandths, as Python's is. (x * 1000 could round across a half only within an ulp of
      it, which a BM25 score with its logarithm is not in practice; toFixed would rule even that
      out, at ten times the cost on the vectors of a broad query.) */
  function round3(x) { return Math.round(x * 1000) / 1000; }

  function fieldRef(packed, derived, v) {
    const flat = derived.table.flat, o = derived.table.starts[v];
    return packed.fields[flat[o]] + "/" + flat[o + 1];
  }

  /** lunr's serialised index from the packed one; an unpacked index passes through as it is. */
  function unpackIndex(packed) {
    if (packed.format === undefined) { return packed; }
    checkFormat(packed);
    const derived = derive(packed);
    const inverted = packed.terms.map((term, position) => {
      return [term, posting(packed, derived, position)];
    });
    // why: lunr's TokenSet builder needs the terms in order, as lunr.py wrote them
    inverted.sort((a, b) => { return byTerm(a[0], b[0]); });
    const vectors = [];
    for (let v = 0; v < derived.table.count; v++) {
      vectors.push([fieldRef(packed, derived, v), elements(packed, derived, v)]);
    }
    return { version: packed.version, fields: packed.fields, fieldVectors: vectors,
      invertedIndex: inverted, pipeline: packed.pipeline };
  }

  function checkFormat(packed) {
    if (packed.format !== FORMAT) { throw new Error("unknown search index format " + packed.format); }
  }

  function byTerm(a, b) { return a < b ? -1 : a > b ? 1 : 0; }

  /** A read-only map of `keys()` whose values are made from `make(number)` on first use, where
      `find(key)` gives a key's number (below `size`, or -1); lunr only reads it, and lists its
      keys for a query of prohibited words alone. */
  function lazy(size, find, keys, make) {
    const made = new Array(size); // why: sized, so that scattered numbers do not make it a hash table
    function get(key) {
      if (typeof key !== "string") { return undefined; }
      const n = find(key);
      if (n < 0) { return undefined; }
      const value = made[n];
      return value !== undefined ? value : (made[n] = make(n));
    }
    return new Proxy({}, {
      get: (target, key) => { return get(key); },
      has: (target, key) => { return typeof key === "string" && find(key) >= 0; },
      ownKeys: () => { return keys().slice(); },
      getOwnPropertyDescriptor: (target, key) => {
        if (typeof key !== "string" || find(key) < 0) { return undefined; }
        return { get: () => { return get(key); }, enumerable: true, configurable: true };
      }
    });
  }

  /** Finds a field ref's vector, the table's (ref x fields + field)th. lunr looks up every
      field that matched a query, so this reads the key without making strings. */
  function vectorFinder(packed) {
    const fields = packed.fields, width = fields.length, documents = packed.documents;
    return (key) => {
      let slash = key.indexOf("/"), field = -1;
      for (let f = 0; f < width; f++) {
        if (fields[f].length === slash && key.startsWith(fields[f])) { field = f; break; }
      }
      const ref = field < 0 ? -1 : refNumber(key, slash + 1);
      return ref < 0 || ref >= documents ? -1 : ref * width + field;
    };
  }

  /** The number written from `from` to the end of `text` as String(number) writes it, or -1. */
  function refNumber(text, from) {
    let end = text.length, ref = 0;
    if (from >= end || end - from > 9 || (text.charCodeAt(from) === 48 && end - from > 1)) { return -1; }
    for (let i = from; i < end; i++) {
      const digit = text.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) { return -1; }
      ref = ref * 10 + digit;
    }
    return ref;
  }

  /** `word` and whether it ends in a trailing wildcard, if the query token set is that simple. */
  function simpleClause(set) {
    let word = "";
    for (let node = set; ; ) {
      const edges = Object.keys(node.edges);
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
    for (let i = 0; i < a.length && i < b.length; i++) {
      if (a[i] !== b[i]) { return a[i] < b[i] ? 1 : -1; }
    }
    return a.length - b.length;
  }

  /** The terms, found by binary search among those with the same first letter; each such
      group is sorted the first time a query reaches it, and all of them only when a query
      needs every term (a bare "*", or a fuzzy or inner wildcard clause). */
  function termFinder(terms) {
    let groups = Object.create(null), all = null;
    terms.forEach((term, position) => {
      const first = term.charAt(0);
      (groups[first] || (groups[first] = [])).push(position);
    });
    function group(first) {
      const g = groups[first];
      if (g && !g.sorted) {
        g.sort((x, y) => { return byTerm(terms[x], terms[y]); });
        g.sorted = true;
      }
      return g;
    }
    /** Where `word` is, or would be, in group `g` (sorted). */
    function lowerBound(g, word) {
      let lo = 0, hi = g.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (terms[g[mid]] < word) { lo = mid + 1; } else { hi = mid; } }
      return lo;
    }
    return {
      position: (term) => {
        const g = group(term.charAt(0));
        if (!g) { return -1; }
        const at = lowerBound(g, term);
        return at < g.length && terms[g[at]] === term ? g[at] : -1;
      },
      /** The terms that are `word`, or start with it, in sorted order. */
      matching(word, prefix) {
        let found = [];
        if (word === "") {
          if (prefix) { found = this.sorted().slice(); } else if (groups[""]) { found.push(""); }
          return found;
        }
        const g = group(word.charAt(0));
        if (!g) { return found; }
        for (let i = lowerBound(g, word); i < g.length; i++) {
          const term = terms[g[i]];
          if (term.lastIndexOf(word, 0) !== 0) { break; }
          if (prefix || term === word) { found.push(term); }
          if (!prefix) { break; }
        }
        return found;
      },
      sorted: () => { return all || (all = terms.slice().sort(byTerm)); }
    };
  }

  /** A stand-in for the index's TokenSet: exact words and trailing wildcards are answered from
      the sorted terms; anything else (fuzzy, other wildcards) builds the real TokenSet once. */
  function tokenSet(lunr, finder) {
    let real = null;
    return {
      intersect: (query) => {
        const simple = simpleClause(query);
        if (!simple) {
          if (!real) {
            const builder = new lunr.TokenSet.Builder();
            finder.sorted().forEach((term) => { builder.insert(term); });
            builder.finish();
            real = builder.root;
          }
          return real.intersect(query);
        }
        const found = finder.matching(simple.word, simple.prefix);
        found.sort(tokenSetOrder);
        return { toArray: () => { return found; } };
      }
    };
  }

  /** The lunr.Index that lunr.Index.load(unpackIndex(packed)) would give, made lazily. */
  function loadIndex(lunr, packed) {
    if (packed.format === undefined) { return lunr.Index.load(packed); }
    checkFormat(packed);
    const derived = derive(packed);
    const finder = termFinder(packed.terms);
    let refs = null;
    const index = new lunr.Index({
      invertedIndex: lazy(packed.terms.length, finder.position, finder.sorted, (position) => {
        return posting(packed, derived, position);
      }),
      fieldVectors: lazy(derived.table.count, vectorFinder(packed), () => {
        if (!refs) {
          refs = [];
          for (let v = 0; v < derived.table.count; v++) { refs.push(fieldRef(packed, derived, v)); }
        }
        return refs;
      }, (n) => { return new lunr.Vector(elements(packed, derived, n)); }),
      tokenSet: tokenSet(lunr, finder),
      fields: packed.fields,
      pipeline: lunr.Pipeline.load(packed.pipeline)
    });
    index.lexicon = lexicon(packed, derived, finder);
    const answers = answering();
    const packedQueries = answers && answers.packedQuery(lunr, packed, derived, finder,
      { normOf: normOf, termScore: termScore });
    if (packedQueries) {
      index.query = packedQueries.query;
      index.queryTerms = packedQueries.queryTerms;
    }
    return index;
  }

  /** What the worker asks of the index's terms to widen a query's words: whether a term is in
      some fields (a bit mask of field numbers), which terms start with a word, the terms, and
      in how many field refs a term is. */
  function lexicon(packed, derived, finder) {
    const flat = derived.table.flat, starts = derived.table.starts;
    const masks = new Int32Array(packed.terms.length).fill(-1); // why: a common term has thousands of vectors
    function fieldsOf(term) {
      let position = finder.position(term), mask = 0;
      if (position < 0) { return 0; }
      if (masks[position] >= 0) { return masks[position]; }
      for (let k = derived.starts[position]; k < derived.starts[position + 1]; k++) {
        mask |= 1 << flat[starts[derived.holders[k]]];
      }
      return (masks[position] = mask);
    }
    return {
      fields: packed.fields,
      terms: packed.terms,
      fieldsOf: fieldsOf,
      /** Whether a term other than `word` itself starting with `word` is in one of `mask`'s fields. */
      hasLonger: (word, mask) => {
        return finder.matching(word, true).some((term) => { return term !== word && (fieldsOf(term) & mask) !== 0; });
      },
      /** The terms that are `word` or start with it. */
      prefixed: (word) => { return finder.matching(word, true); },
      vectors: (term) => {
        const position = finder.position(term);
        return position < 0 ? 0 : derived.starts[position + 1] - derived.starts[position];
      }
    };
  }

  /** static/search/answer.js, when loaded: it answers queries from the packed table. */
  function answering() {
    if (globalThis.DigestAnswer) { return globalThis.DigestAnswer; }
    return typeof require === "function" ? require("./answer.js") : null;
  }

  const api = { unpackIndex: unpackIndex, loadIndex: loadIndex, FORMAT: FORMAT };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; } else { globalThis.DigestIndex = api; }
})();
