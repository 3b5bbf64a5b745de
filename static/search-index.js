/* Reads the search index the build writes (generator/lunrpack.py): each field's terms and their
   counts. Postings, idf and BM25 scores follow from those; they are derived here with the same
   float operations, in the same order, as lunr.py's Builder, so unpackIndex() gives back exactly
   the JSON lunr.py serialises, for lunr.Index.load. loadIndex() builds the same lunr.Index
   without making every posting up front: a posting or a document vector is made the first time
   a query touches it, so the index is ready in a fraction of the time. */
(function (root) {
  "use strict";
  var FORMAT = "digest-lunr/2";

  /** Every vector `[field, ref, count, count deltas, count counts]` (the deltas already summed
      into term numbers if `absolute`), its starts as Int32Array. */
  function checked(table) {
    var flat = table.flat, starts = new Int32Array(table.starts.length + 1);
    for (var v = 0; v < table.starts.length; v++) {
      var o = table.starts[v], next = v + 1 < table.starts.length ? table.starts[v + 1] : flat.length;
      if (next - o < 3 || next - o !== 3 + 2 * flat[o + 2]) { throw new Error("malformed vector " + v); }
      starts[v] = o;
    }
    starts[table.starts.length] = flat.length;
    return { flat: flat, starts: starts, count: table.starts.length, absolute: Boolean(table.absolute) };
  }

  /** The packed vectors as one table: from search-read.js's flat numbers, or from JSON.parse's
      arrays. */
  function table(packed) {
    var vectors = packed.vectors;
    if (!Array.isArray(vectors)) {
      // why: derive() turns the term deltas into term numbers in place, once
      return vectors.count === undefined ? (packed.vectors = checked(vectors)) : vectors;
    }
    var size = 0, starts = [];
    vectors.forEach(function (v) { size += v.length; });
    var flat = new Int32Array(size), n = 0;
    vectors.forEach(function (v) { starts.push(n); for (var i = 0; i < v.length; i++) { flat[n++] = v[i]; } });
    return checked({ flat: flat, starts: starts });
  }

  /** Two passes over the vectors: term numbers in place of deltas (unless already summed), each
      vector's length and each term's count; then each term's vectors (by number, in ref
      order). With them, each term's idf and each field's average length. */
  function derive(packed) {
    var t = table(packed), flat = t.flat, starts = t.starts, count = t.count;
    var termCount = packed.terms.length;
    var counts = new Int32Array(termCount), totals = packed.fields.map(function () { return 0; });
    var lengths = new Int32Array(count), v, i, n, o, term;
    for (v = 0; v < count; v++) {
      o = starts[v] + 3; n = flat[o - 1];
      if (!t.absolute) {
        for (term = 0, i = o; i < o + n; i++) { term += flat[i]; flat[i] = term; }
      }
      var length = 0;
      for (i = o; i < o + n; i++) { counts[flat[i]]++; length += flat[i + n]; }
      // why: sums of integer counts are exact, so adding per vector gives lunr.py's totals
      totals[flat[o - 3]] += length;
      lengths[v] = length;
    }
    t.absolute = true;
    var postingStarts = new Int32Array(termCount + 1);
    for (term = 0; term < termCount; term++) { postingStarts[term + 1] = postingStarts[term] + counts[term]; }
    var holders = new Int32Array(postingStarts[termCount]), next = postingStarts.slice(0, termCount);
    for (v = 0; v < count; v++) {
      o = starts[v]; n = flat[o + 2];
      for (i = 0; i < n; i++) { holders[next[flat[o + 3 + i]]++] = v; }
    }
    var documents = packed.documents, idf = new Float64Array(termCount);
    for (term = 0; term < termCount; term++) {
      idf[term] = Math.log(1 + Math.abs((documents - counts[term] + 0.5) / (counts[term] + 0.5)));
    }
    var averages = totals.map(function (total) { return documents ? total / documents : 0; });
    return { table: t, lengths: lengths, starts: postingStarts, holders: holders, idf: idf, averages: averages };
  }

  /** The fields and refs of the documents that hold term `position`, as lunr's posting. */
  function posting(packed, derived, position) {
    var result = { _index: position }, flat = derived.table.flat, starts = derived.table.starts;
    var texts = packed.fields.map(function () { return ""; });
    for (var k = derived.starts[position]; k < derived.starts[position + 1]; k++) {
      var o = starts[derived.holders[k]], f = flat[o];
      texts[f] += (texts[f] ? ",\"" : "\"") + flat[o + 1] + "\":{}";
    }
    // why: JSON.parse makes integer-keyed objects several times faster than assignments do
    packed.fields.forEach(function (field, n) { result[field] = JSON.parse("{" + texts[n] + "}"); });
    return result;
  }

  /** Vector `v`'s [term index, score, ...], scored by lunr's BM25 as lunr.py does. */
  function elements(packed, derived, v) {
    var flat = derived.table.flat, o = derived.table.starts[v], n = flat[o + 2];
    var norm = normOf(packed, derived, v), out = new Array(2 * n);
    for (var i = 0; i < n; i++) {
      out[2 * i] = flat[o + 3 + i];
      out[2 * i + 1] = termScore(packed, derived, v, norm, o + 3 + i);
    }
    return out;
  }

  /** The length norm of vector `v`'s BM25 scores. */
  function normOf(packed, derived, v) {
    var flat = derived.table.flat, o = derived.table.starts[v];
    var k1 = packed.bm25[0], b = packed.bm25[1];
    return flat[o + 2] ? k1 * (1 - b + b * (derived.lengths[v] / derived.averages[flat[o]])) : 0;
  }

  /** The score in vector `v` (its norm given) of the term at flat[at]: the same expression, in
      the same order, as lunr.py's Builder, for the same float. */
  function termScore(packed, derived, v, norm, at) {
    var flat = derived.table.flat, o = derived.table.starts[v], k1 = packed.bm25[0];
    var tf = flat[at + flat[o + 2]];
    return round3(derived.idf[flat[at]] * ((k1 + 1) * tf) / (norm + tf) * packed.boosts[flat[o]]);
  }

  /** Python's round(x, 3), as lunr.py stores scores: k / 1000 is the double nearest to k
      thousandths, as Python's is. (x * 1000 could round across a half only within an ulp of
      it, which a BM25 score with its logarithm is not in practice; toFixed would rule even that
      out, at ten times the cost on the vectors of a broad query.) */
  function round3(x) { return Math.round(x * 1000) / 1000; }

  function fieldRef(packed, derived, v) {
    var flat = derived.table.flat, o = derived.table.starts[v];
    return packed.fields[flat[o]] + "/" + flat[o + 1];
  }

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
    var vectors = [];
    for (var v = 0; v < derived.table.count; v++) {
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
    var made = new Array(size); // why: sized, so that scattered numbers do not make it a hash table
    function get(key) {
      if (typeof key !== "string") { return undefined; }
      var n = find(key);
      if (n < 0) { return undefined; }
      var value = made[n];
      return value !== undefined ? value : (made[n] = make(n));
    }
    return new Proxy({}, {
      get: function (target, key) { return get(key); },
      has: function (target, key) { return typeof key === "string" && find(key) >= 0; },
      ownKeys: function () { return keys().slice(); },
      getOwnPropertyDescriptor: function (target, key) {
        if (typeof key !== "string" || find(key) < 0) { return undefined; }
        return { get: function () { return get(key); }, enumerable: true, configurable: true };
      }
    });
  }

  /** Finds a field ref's vector: by a table of ref and field number when refs are small
      integers, as the build writes them, else by a map of every field ref. lunr looks up every
      field that matched a query, so this reads the key without making strings. */
  function vectorFinder(packed, derived) {
    var flat = derived.table.flat, starts = derived.table.starts, count = derived.table.count;
    var fields = packed.fields, width = fields.length, maxRef = -1, v, o;
    for (v = 0; v < count; v++) {
      o = starts[v];
      if (flat[o + 1] < 0 || flat[o] < 0 || flat[o] >= width) { maxRef = Infinity; break; }
      maxRef = Math.max(maxRef, flat[o + 1]);
    }
    if (maxRef > 2 * count) {
      // why: not the build's numbering; a plain map of every field ref then
      var byKey = new Map();
      for (v = 0; v < count; v++) { byKey.set(fieldRef(packed, derived, v), v); }
      return function (key) { var n = byKey.get(key); return n === undefined ? -1 : n; };
    }
    var at = new Int32Array((maxRef + 1) * width).fill(-1);
    // why: the last vector of a field ref wins, as in lunr.Index.load
    for (v = 0; v < count; v++) { o = starts[v]; at[flat[o + 1] * width + flat[o]] = v; }
    return function (key) {
      var slash = key.indexOf("/"), field = -1;
      for (var f = 0; f < width; f++) {
        if (fields[f].length === slash && key.startsWith(fields[f])) { field = f; break; }
      }
      var ref = field < 0 ? -1 : refNumber(key, slash + 1);
      return ref < 0 || ref > maxRef ? -1 : at[ref * width + field];
    };
  }

  /** The number written from `from` to the end of `text` as String(number) writes it, or -1. */
  function refNumber(text, from) {
    var end = text.length, ref = 0;
    if (from >= end || end - from > 9 || (text.charCodeAt(from) === 48 && end - from > 1)) { return -1; }
    for (var i = from; i < end; i++) {
      var digit = text.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) { return -1; }
      ref = ref * 10 + digit;
    }
    return ref;
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

  /** The terms, found by binary search among those with the same first letter; each such
      group is sorted the first time a query reaches it, and all of them only when a query
      needs every term (a bare "*", or a fuzzy or inner wildcard clause). */
  function termFinder(terms) {
    var groups = Object.create(null), all = null;
    terms.forEach(function (term, position) {
      var first = term.charAt(0);
      (groups[first] || (groups[first] = [])).push(position);
    });
    function group(first) {
      var g = groups[first];
      if (g && !g.sorted) {
        g.sort(function (x, y) { return byTerm(terms[x], terms[y]); });
        g.sorted = true;
      }
      return g;
    }
    /** Where `word` is, or would be, in group `g` (sorted). */
    function lowerBound(g, word) {
      var lo = 0, hi = g.length;
      while (lo < hi) { var mid = (lo + hi) >> 1; if (terms[g[mid]] < word) { lo = mid + 1; } else { hi = mid; } }
      return lo;
    }
    return {
      position: function (term) {
        var g = group(term.charAt(0));
        if (!g) { return -1; }
        var at = lowerBound(g, term);
        return at < g.length && terms[g[at]] === term ? g[at] : -1;
      },
      /** The terms that are `word`, or start with it, in sorted order. */
      matching: function (word, prefix) {
        var found = [];
        if (word === "") {
          if (prefix) { found = this.sorted().slice(); } else if (groups[""]) { found.push(""); }
          return found;
        }
        var g = group(word.charAt(0));
        if (!g) { return found; }
        for (var i = lowerBound(g, word); i < g.length; i++) {
          var term = terms[g[i]];
          if (term.lastIndexOf(word, 0) !== 0) { break; }
          if (prefix || term === word) { found.push(term); }
          if (!prefix) { break; }
        }
        return found;
      },
      sorted: function () { return all || (all = terms.slice().sort(byTerm)); }
    };
  }

  /** A stand-in for the index's TokenSet: exact words and trailing wildcards are answered from
      the sorted terms; anything else (fuzzy, other wildcards) builds the real TokenSet once. */
  function tokenSet(lunr, finder) {
    var real = null;
    return {
      intersect: function (query) {
        var simple = simpleClause(query);
        if (!simple) {
          if (!real) {
            var builder = new lunr.TokenSet.Builder();
            finder.sorted().forEach(function (term) { builder.insert(term); });
            builder.finish();
            real = builder.root;
          }
          return real.intersect(query);
        }
        var found = finder.matching(simple.word, simple.prefix);
        found.sort(tokenSetOrder);
        return { toArray: function () { return found; } };
      }
    };
  }

  /* ---- lunr's Index#query, answered from the packed table ---------------------------------- */

  var COMPLETE = "complete", EMPTY = "empty"; // why: lunr.Set.complete and lunr.Set.empty

  /** A dense number for each vector's document, in order of first appearance, and each
      document's ref; null unless each field's refs are non-negative and ascending in vector
      order, the order lunr lists a posting's refs in (as the build writes them). */
  function documents(flat, starts, count, width) {
    var last = new Array(width).fill(-1), of = new Int32Array(count), byRef = new Map(), refs = [];
    for (var v = 0; v < count; v++) {
      var o = starts[v], field = flat[o], ref = flat[o + 1];
      if (!(field >= 0 && field < width) || ref <= last[field]) { return null; }
      last[field] = ref;
      var d = byRef.get(ref);
      if (d === undefined) { d = refs.length; byRef.set(ref, d); refs.push(String(ref)); }
      of[v] = d;
    }
    return { of: of, refs: refs };
  }

  function intersect(a, b) {
    if (a === COMPLETE) { return b; }
    if (b === COMPLETE) { return a; }
    if (a === EMPTY || b === EMPTY) { return EMPTY; }
    var out = new Uint8Array(a.length);
    for (var i = 0; i < a.length; i++) { out[i] = a[i] & b[i]; }
    return out;
  }

  function union(a, b) {
    if (a === COMPLETE || b === EMPTY) { return a; }
    if (b === COMPLETE || a === EMPTY) { return b; }
    var out = new Uint8Array(a.length);
    for (var i = 0; i < a.length; i++) { out[i] = a[i] | b[i]; }
    return out;
  }

  function contains(set, d) { return set === COMPLETE || (set !== EMPTY && set[d] === 1); }

  /** lunr.Index#query over the packed table, or null if the table is not laid out for it. It
      expands each clause as lunr does (pipeline, token set), then follows lunr's steps with
      numbers for postings, sets and field refs: the same results in the same order, the same
      match data, and the same scores, each the same float operations in the same order
      (a vector's scores are worked out only for the terms the query has). Anything lunr would
      fail on is handed to lunr's own query, to fail alike. */
  function packedQuery(lunr, packed, derived, finder) {
    var flat = derived.table.flat, starts = derived.table.starts, count = derived.table.count;
    var width = packed.fields.length, docs = documents(flat, starts, count, width);
    if (!docs) { return null; }
    var original = lunr.Index.prototype.query, presence = lunr.Query.presence;
    var hits = new Hits(count), postings = new Array(packed.terms.length);

    /** Term `position`'s posting in field `f`: the vectors of that field that hold it, in ref
        order, and where the term is in each; made the first time a query needs the term. */
    function postingOf(position, f) {
      var made = postings[position];
      if (!made) {
        var from = derived.starts[position], to = derived.starts[position + 1], sizes = new Int32Array(width);
        for (var k = from; k < to; k++) { sizes[flat[starts[derived.holders[k]]]]++; }
        made = postings[position] = [];
        for (var g = 0; g < width; g++) {
          made.push({ vectors: new Int32Array(sizes[g]), at: new Int32Array(sizes[g]), size: 0 });
        }
        for (k = from; k < to; k++) {
          var v = derived.holders[k], o = starts[v] + 3, lo = o, hi = o + flat[o - 1];
          while (lo < hi) { var mid = (lo + hi) >> 1; if (flat[mid] < position) { lo = mid + 1; } else { hi = mid; } }
          var p = made[flat[o - 3]];
          p.vectors[p.size] = v;
          p.at[p.size++] = lo;
        }
      }
      return made[f];
    }

    /** The documents whose `field` holds term `position`, marked in `set` (made if null). */
    function mark(set, position, field) {
      set = set || new Uint8Array(docs.refs.length);
      var vectors = postingOf(position, field).vectors;
      for (var k = 0; k < vectors.length; k++) { set[docs.of[vectors[k]]] = 1; }
      return set;
    }

    /** Term `position`, key `key` of the query's terms by field, as a match of each vector of
        `field` that holds it. */
    function collect(position, field, key) {
      var posting = postingOf(position, field);
      for (var k = 0; k < posting.vectors.length; k++) { hits.add(posting.vectors[k], key, posting.at[k]); }
    }

    function fieldNumbers(names) {
      if (!Array.isArray(names)) { return null; }
      var out = [];
      for (var i = 0; i < names.length; i++) {
        var f = packed.fields.indexOf(names[i]);
        if (f < 0) { return null; }
        out.push(f);
      }
      return out;
    }

    /** lunr's first loop: each clause's terms, their documents and query vectors. */
    function match(index, query, state) {
      for (var i = 0; i < query.clauses.length; i++) {
        var clause = query.clauses[i], fields = fieldNumbers(clause.fields), matches = null;
        if (!fields) { return false; }
        var terms = clause.usePipeline ? index.pipeline.runString(clause.term, { fields: clause.fields }) : [clause.term];
        for (var m = 0; m < terms.length; m++) {
          clause.term = terms[m];
          var expanded = index.tokenSet.intersect(lunr.TokenSet.fromClause(clause)).toArray();
          if (expanded.length === 0 && clause.presence === presence.REQUIRED) {
            fields.forEach(function (f) { state.required[f] = EMPTY; });
            break;
          }
          for (var j = 0; j < expanded.length; j++) {
            var position = finder.position(expanded[j]);
            if (position < 0) { return false; }
            for (var k = 0; k < fields.length; k++) {
              var f = fields[k];
              // why: == and === as lunr compares presence, here and below
              if (clause.presence == presence.REQUIRED) {
                matches = mark(matches, position, f);
                if (state.required[f] === undefined) { state.required[f] = COMPLETE; }
              }
              if (clause.presence == presence.PROHIBITED) {
                state.prohibited[f] = mark(state.prohibited[f], position, f);
                continue;
              }
              // why: lunr.Vector#upsert, its value the sum of the boosts in clause order
              var key = state.keys.get(position * width + f);
              if (key !== undefined) { state.values[key] += clause.boost; continue; }
              key = state.values.length;
              state.keys.set(position * width + f, key);
              state.values.push(clause.boost);
              state.terms.push(position);
              state.fields.push(f);
              collect(position, f, key);
            }
          }
        }
        if (clause.presence === presence.REQUIRED) {
          for (var r = 0; r < fields.length; r++) {
            if (state.required[fields[r]] === undefined) { return false; }
            state.required[fields[r]] = intersect(state.required[fields[r]], matches || EMPTY);
          }
        }
      }
      return true;
    }

    /** Each field's query vector's magnitude, as lunr.Vector#magnitude sums it: by term. */
    function magnitudes(state) {
      var keys = state.values.map(function (_, key) { return key; }), out = new Float64Array(width);
      keys.sort(function (a, b) { return state.terms[a] - state.terms[b]; });
      keys.forEach(function (key) { out[state.fields[key]] += state.values[key] * state.values[key]; });
      return out.map(Math.sqrt);
    }

    /** lunr.Vector#similarity of the query vector of vector `v`'s field with `v`, whose terms
        in the query are slot `s`'s matches; the dot product summed by term, as lunr's is. */
    function similarity(state, magnitude, s, v) {
      var h = hits.head[s], norm = normOf(packed, derived, v), dot;
      if (hits.next[h] < 0) {
        // why: most field refs match one term; 0 + x is x
        dot = state.values[hits.key[h]] * termScore(packed, derived, v, norm, hits.at[h]);
      } else {
        var order = hits.ascending(s, state.terms), n = hits.sorted;
        dot = 0;
        for (var i = 0; i < n; i++) {
          h = order[i];
          dot += state.values[hits.key[h]] * termScore(packed, derived, v, norm, hits.at[h]);
        }
      }
      return dot / magnitude || 0;
    }

    /** The match data lunr makes for a field ref's matches: its first term's metadata cloned,
        the others the posting's own (empty) objects. */
    function matchData(state, s, field) {
      var data = new lunr.MatchData(), first = true;
      for (var h = hits.head[s]; h >= 0; h = hits.next[h]) {
        var byField = Object.create(null);
        byField[field] = first ? Object.create(null) : {};
        data.metadata[packed.terms[state.terms[hits.key[h]]]] = byField;
        first = false;
      }
      return data;
    }

    /** lunr.MatchData#combine of a field ref's matches into `data`. (Adding the terms in the order
        matched rather than in Object.keys order leaves the same keys in the same order.) */
    function combine(state, data, s, field) {
      for (var h = hits.head[s]; h >= 0; h = hits.next[h]) {
        var term = packed.terms[state.terms[hits.key[h]]], byField = data.metadata[term];
        if (byField == undefined) { byField = data.metadata[term] = Object.create(null); }
        if (byField[field] == undefined) { byField[field] = Object.create(null); }
      }
    }

    /** The documents lunr keeps: in every required set and in no prohibited one. */
    function wanted(state) {
      var required = COMPLETE, prohibited = EMPTY;
      for (var f = 0; f < width; f++) {
        if (state.required[f]) { required = intersect(required, state.required[f]); }
        if (state.prohibited[f]) { prohibited = union(prohibited, state.prohibited[f]); }
      }
      var out = new Uint8Array(docs.refs.length);
      for (var d = 0; d < out.length; d++) { out[d] = contains(required, d) && !contains(prohibited, d) ? 1 : 0; }
      return out;
    }

    /** lunr's second loop: each matching field ref's document, scored, if it is wanted, as
        {ref, score, matchData}, or (`terms`) {ref, score, terms}: `terms` is what matchData.metadata
        would hold, shared by the results that matched the same terms in the same fields. A
        negated query (prohibited clauses alone) matches every field ref, with no terms. */
    function score(query, state, terms) {
      var keep = wanted(state), magnitude = magnitudes(state), results = [];
      var negated = query.isNegated(), slots = negated ? count : hits.slots;
      var at = new Int32Array(docs.refs.length).fill(-1);
      // why: up to 31 of the query's terms by field, which ones a result matched is a bit mask
      var masks = terms && state.values.length <= 31 ? [] : null;
      for (var s = 0; s < slots; s++) {
        var v = negated ? s : hits.vector[s], d = docs.of[v], i = at[d];
        if (!keep[d]) { continue; }
        var f = flat[starts[v]], field = packed.fields[f];
        var points = negated ? 0 : similarity(state, magnitude[f], s, v);
        if (i >= 0) {
          results[i].score += points;
          if (!masks && !negated) { combine(state, terms ? { metadata: results[i].terms } : results[i].matchData, s, field); }
        } else {
          i = at[d] = results.length;
          var data = masks ? null : negated ? new lunr.MatchData() : matchData(state, s, field);
          results.push(terms ? { ref: docs.refs[d], score: points, terms: data && data.metadata }
            : { ref: docs.refs[d], score: points, matchData: data });
          if (masks) { masks.push(0); }
        }
        if (masks && !negated) { masks[i] |= hits.mask(s); }
      }
      if (masks) { shareTerms(state, results, masks); }
      return results.sort(function (a, b) { return b.score - a.score; });
    }

    /** Each result's terms from its mask, one object for each mask. */
    function shareTerms(state, results, masks) {
      var shared = new Map();
      for (var i = 0; i < results.length; i++) {
        var mask = masks[i], found = shared.get(mask);
        if (!found) {
          found = Object.create(null);
          for (var key = 0; key < state.values.length; key++) {
            if (mask & (1 << key)) {
              var term = packed.terms[state.terms[key]];
              (found[term] || (found[term] = Object.create(null)))[packed.fields[state.fields[key]]] = {};
            }
          }
          shared.set(mask, found);
        }
        results[i].terms = found;
      }
    }

    /** lunr's query, its results made by `finish(query, state)`. */
    function answer(index, fn, terms) {
      var q = new lunr.Query(index.fields);
      fn.call(q, q);
      var pristine = q.clauses.map(function (c) { return Object.assign({}, c); });
      // why: the query's terms by field (keys), each with its query vector value
      var state = { required: [], prohibited: [], keys: new Map(), values: [], terms: [], fields: [] };
      hits.clear();
      if (!match(index, q, state)) {
        var results = original.call(index, function (again) { again.clauses = pristine; });
        return terms ? results.map(withTerms) : results;
      }
      return score(q, state, terms);
    }

    return {
      query: function (fn) { return answer(this, fn, false); },
      queryTerms: function (fn) { return answer(this, fn, true); }
    };
  }

  /** A lunr result as {ref, score, terms}, `terms` its matchData.metadata. */
  function withTerms(result) {
    return { ref: result.ref, score: result.score, terms: result.matchData.metadata };
  }

  /** lunr.Index#query(fn)'s results as {ref, score, terms}, `terms` what the result's
      matchData.metadata holds: each term it matched, with the fields it matched in as keys.
      From the packed index this makes no match data: results that matched the same terms in the
      same fields share one `terms`, which must not be changed. */
  function queryTerms(index, fn) {
    return index.queryTerms ? index.queryTerms(fn) : index.query(fn).map(withTerms);
  }

  /** The matches of a query, by field ref (vector): each vector's slot in the order first
      matched, and each slot's terms, in the order matched, with where they are in the vector. */
  function Hits(count) {
    this.slotOf = new Int32Array(count).fill(-1);
    this.vector = new Int32Array(64);
    this.head = new Int32Array(64);
    this.tail = new Int32Array(64);
    this.key = new Int32Array(256);
    this.at = new Int32Array(256);
    this.next = new Int32Array(256);
    this.slots = 0;
    this.size = 0;
    this.order = new Int32Array(16);
    this.sorted = 0;
  }

  /** The keys of slot `s`'s matches as a bit mask (keys below 31). */
  Hits.prototype.mask = function (s) {
    var mask = 0;
    for (var h = this.head[s]; h >= 0; h = this.next[h]) { mask |= 1 << this.key[h]; }
    return mask;
  };

  Hits.prototype.clear = function () {
    for (var s = 0; s < this.slots; s++) { this.slotOf[this.vector[s]] = -1; }
    this.slots = 0;
    this.size = 0;
  };

  Hits.prototype.add = function (v, key, at) {
    var s = this.slotOf[v], h = this.size++;
    if (h === this.key.length) {
      this.key = grown(this.key); this.at = grown(this.at); this.next = grown(this.next);
    }
    this.key[h] = key; this.at[h] = at; this.next[h] = -1;
    if (s < 0) {
      s = this.slotOf[v] = this.slots++;
      if (s === this.vector.length) {
        this.vector = grown(this.vector); this.head = grown(this.head); this.tail = grown(this.tail);
      }
      this.vector[s] = v; this.head[s] = h;
    } else {
      this.next[this.tail[s]] = h;
    }
    this.tail[s] = h;
  };

  /** Slot `s`'s matches by term number (`terms` by key), as lunr.Vector#dot meets them: the
      first `this.sorted` of the array returned. */
  Hits.prototype.ascending = function (s, terms) {
    var order = this.order, n = 0;
    for (var h = this.head[s]; h >= 0; h = this.next[h]) {
      if (n === order.length) { order = this.order = grown(order); }
      var i = n++, term = terms[this.key[h]];
      while (i > 0 && terms[this.key[order[i - 1]]] > term) { order[i] = order[i - 1]; i--; }
      order[i] = h;
    }
    this.sorted = n;
    return order;
  };

  function grown(array) {
    var bigger = new Int32Array(array.length * 2);
    bigger.set(array);
    return bigger;
  }

  /** The lunr.Index that lunr.Index.load(unpackIndex(packed)) would give, made lazily. */
  function loadIndex(lunr, packed) {
    if (packed.format === undefined) { return lunr.Index.load(packed); }
    checkFormat(packed);
    var derived = derive(packed);
    var finder = termFinder(packed.terms);
    var refs = null;
    var index = new lunr.Index({
      invertedIndex: lazy(packed.terms.length, finder.position, finder.sorted, function (position) {
        return posting(packed, derived, position);
      }),
      fieldVectors: lazy(derived.table.count, vectorFinder(packed, derived), function () {
        if (!refs) {
          refs = [];
          for (var v = 0; v < derived.table.count; v++) { refs.push(fieldRef(packed, derived, v)); }
        }
        return refs;
      }, function (n) { return new lunr.Vector(elements(packed, derived, n)); }),
      tokenSet: tokenSet(lunr, finder),
      fields: packed.fields,
      pipeline: lunr.Pipeline.load(packed.pipeline)
    });
    var packedQueries = packedQuery(lunr, packed, derived, finder);
    if (packedQueries) {
      index.query = packedQueries.query;
      index.queryTerms = packedQueries.queryTerms;
    }
    return index;
  }

  var api = { unpackIndex: unpackIndex, loadIndex: loadIndex, queryTerms: queryTerms, FORMAT: FORMAT };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; } else { root.DigestIndex = api; }
}(typeof self !== "undefined" ? self : this));
