/* lunr's Index#query, answered from the packed table that static/search/index.js derives:
   lunr's own steps (its Query, pipeline and token set expand the clauses), with numbers for
   postings, sets and field refs, and a document's scores worked out only for the query's terms.
   The same results in the same order, with the same scores and match data, as lunr.js's own
   Index#query on the same index (tests/js/lazy_check.js). search/index.js's loadIndex uses it
   when it is loaded. */
(() => {
  "use strict";

  const COMPLETE = "complete", EMPTY = "empty"; // why: lunr.Set.complete and lunr.Set.empty

  /** Each vector's document (a dense number: its ref), and each document's ref as a string.
      Vector v is a field of document v / width (see generator/search/packed.py). */
  function documents(count, width) {
    const of = new Int32Array(count), refs = new Array(width ? count / width : 0);
    for (let v = 0; v < count; v++) { of[v] = v / width | 0; }
    for (let d = 0; d < refs.length; d++) { refs[d] = String(d); }
    return { of: of, refs: refs };
  }

  function intersect(a, b) {
    if (a === COMPLETE) { return b; }
    if (b === COMPLETE) { return a; }
    if (a === EMPTY || b === EMPTY) { return EMPTY; }
    const out = new Uint8Array(a.length);
    for (let i = 0; i < a.length; i++) { out[i] = a[i] & b[i]; }
    return out;
  }

  function union(a, b) {
    if (a === COMPLETE || b === EMPTY) { return a; }
    if (b === COMPLETE || a === EMPTY) { return b; }
    const out = new Uint8Array(a.length);
    for (let i = 0; i < a.length; i++) { out[i] = a[i] | b[i]; }
    return out;
  }

  function contains(set, d) { return set === COMPLETE || (set !== EMPTY && set[d] === 1); }

  /** lunr.Index#query over the packed table. It expands each clause as lunr does (pipeline,
      token set), then follows lunr's steps with numbers for postings, sets and field refs: the
      same results in the same order, the same match data, and the same scores, each the same
      float operations in the same order (a vector's scores are worked out only for the terms
      the query has). Anything lunr would fail on is handed to lunr's own query, to fail alike. */
  function packedQuery(lunr, packed, derived, finder, scores) {
    const normOf = scores.normOf, termScore = scores.termScore;
    const flat = derived.table.flat, starts = derived.table.starts, count = derived.table.count;
    const width = packed.fields.length, docs = documents(count, width);
    const original = lunr.Index.prototype.query, presence = lunr.Query.presence;
    const hits = new Hits(count), postings = new Array(packed.terms.length);

    /** Term `position`'s posting in field `f`: the vectors of that field that hold it, in ref
        order, and where the term is in each; made the first time a query needs the term. */
    function postingOf(position, f) {
      let made = postings[position];
      if (!made) {
        const from = derived.starts[position], to = derived.starts[position + 1], sizes = new Int32Array(width);
        for (let k = from; k < to; k++) { sizes[flat[starts[derived.holders[k]]]]++; }
        made = postings[position] = [];
        for (let g = 0; g < width; g++) {
          made.push({ vectors: new Int32Array(sizes[g]), at: new Int32Array(sizes[g]), size: 0 });
        }
        for (let k = from; k < to; k++) {
          let v = derived.holders[k], o = starts[v] + 3, lo = o, hi = o + flat[o - 1];
          while (lo < hi) { const mid = (lo + hi) >> 1; if (flat[mid] < position) { lo = mid + 1; } else { hi = mid; } }
          const p = made[flat[o - 3]];
          p.vectors[p.size] = v;
          p.at[p.size++] = lo;
        }
      }
      return made[f];
    }

    /** The documents whose `field` holds term `position`, marked in `set` (made if null). */
    function mark(set, position, field) {
      set = set || new Uint8Array(docs.refs.length);
      const vectors = postingOf(position, field).vectors;
      for (let k = 0; k < vectors.length; k++) { set[docs.of[vectors[k]]] = 1; }
      return set;
    }

    /** Term `position`, key `key` of the query's terms by field, as a match of each vector of
        `field` that holds it. */
    function collect(position, field, key) {
      const posting = postingOf(position, field);
      for (let k = 0; k < posting.vectors.length; k++) { hits.add(posting.vectors[k], key, posting.at[k]); }
    }

    function fieldNumbers(names) {
      if (!Array.isArray(names)) { return null; }
      const out = [];
      for (let i = 0; i < names.length; i++) {
        const f = packed.fields.indexOf(names[i]);
        if (f < 0) { return null; }
        out.push(f);
      }
      return out;
    }

    /** lunr's first loop: each clause's terms, their documents and query vectors. */
    function match(index, query, state) {
      for (let i = 0; i < query.clauses.length; i++) {
        let clause = query.clauses[i], fields = fieldNumbers(clause.fields), matches = null;
        if (!fields) { return false; }
        const terms = clause.usePipeline ? index.pipeline.runString(clause.term, { fields: clause.fields }) : [clause.term];
        for (let m = 0; m < terms.length; m++) {
          clause.term = terms[m];
          const expanded = index.tokenSet.intersect(lunr.TokenSet.fromClause(clause)).toArray();
          if (expanded.length === 0 && clause.presence === presence.REQUIRED) {
            fields.forEach((f) => { state.required[f] = EMPTY; });
            break;
          }
          for (let j = 0; j < expanded.length; j++) {
            const position = finder.position(expanded[j]);
            if (position < 0) { return false; }
            for (let k = 0; k < fields.length; k++) {
              const f = fields[k];
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
              let key = state.keys.get(position * width + f);
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
          for (let r = 0; r < fields.length; r++) {
            if (state.required[fields[r]] === undefined) { return false; }
            state.required[fields[r]] = intersect(state.required[fields[r]], matches || EMPTY);
          }
        }
      }
      return true;
    }

    /** Each field's query vector's magnitude, as lunr.Vector#magnitude sums it: by term. */
    function magnitudes(state) {
      const keys = state.values.map((_, key) => { return key; }), out = new Float64Array(width);
      keys.sort((a, b) => { return state.terms[a] - state.terms[b]; });
      keys.forEach((key) => { out[state.fields[key]] += state.values[key] * state.values[key]; });
      return out.map(Math.sqrt);
    }

    /** lunr.Vector#similarity of the query vector of vector `v`'s field with `v`, whose terms
        in the query are slot `s`'s matches; the dot product summed by term, as lunr's is. */
    function similarity(state, magnitude, s, v) {
      let h = hits.head[s], norm = normOf(packed, derived, v), dot;
      if (hits.next[h] < 0) {
        // why: most field refs match one term; 0 + x is x
        dot = state.values[hits.key[h]] * termScore(packed, derived, v, norm, hits.at[h]);
      } else {
        const order = hits.ascending(s, state.terms), n = hits.sorted;
        dot = 0;
        for (let i = 0; i < n; i++) {
          h = order[i];
          dot += state.values[hits.key[h]] * termScore(packed, derived, v, norm, hits.at[h]);
        }
      }
      return dot / magnitude || 0;
    }

    /** The match data lunr makes for a field ref's matches: its first term's metadata cloned,
        the others the posting's own (empty) objects. */
    function matchData(state, s, field) {
      let data = new lunr.MatchData(), first = true;
      for (let h = hits.head[s]; h >= 0; h = hits.next[h]) {
        const byField = Object.create(null);
        byField[field] = first ? Object.create(null) : {};
        data.metadata[packed.terms[state.terms[hits.key[h]]]] = byField;
        first = false;
      }
      return data;
    }

    /** lunr.MatchData#combine of a field ref's matches into `data`. (Adding the terms in the order
        matched rather than in Object.keys order leaves the same keys in the same order.) */
    function combine(state, data, s, field) {
      for (let h = hits.head[s]; h >= 0; h = hits.next[h]) {
        let term = packed.terms[state.terms[hits.key[h]]], byField = data.metadata[term];
        if (byField == undefined) { byField = data.metadata[term] = Object.create(null); }
        if (byField[field] == undefined) { byField[field] = Object.create(null); }
      }
    }

    /** The documents lunr keeps: in every required set and in no prohibited one. */
    function wanted(state) {
      let required = COMPLETE, prohibited = EMPTY;
      for (let f = 0; f < width; f++) {
        if (state.required[f]) { required = intersect(required, state.required[f]); }
        if (state.prohibited[f]) { prohibited = union(prohibited, state.prohibited[f]); }
      }
      const out = new Uint8Array(docs.refs.length);
      for (let d = 0; d < out.length; d++) { out[d] = contains(required, d) && !contains(prohibited, d) ? 1 : 0; }
      return out;
    }

    /** lunr's second loop: each matching field ref's document, scored, if it is wanted, as
        {ref, score, matchData}, or (`terms`) {ref, score, terms}: `terms` is what matchData.metadata
        would hold, shared by the results that matched the same terms in the same fields. A
        negated query (prohibited clauses alone) matches every field ref, with no terms. */
    function score(query, state, terms) {
      const keep = wanted(state), magnitude = magnitudes(state), results = [];
      const negated = query.isNegated(), slots = negated ? count : hits.slots;
      const at = new Int32Array(docs.refs.length).fill(-1);
      // why: up to 31 of the query's terms by field, which ones a result matched is a bit mask
      const masks = terms && state.values.length <= 31 ? [] : null;
      for (let s = 0; s < slots; s++) {
        let v = negated ? s : hits.vector[s], d = docs.of[v], i = at[d];
        if (!keep[d]) { continue; }
        const f = flat[starts[v]], field = packed.fields[f];
        const points = negated ? 0 : similarity(state, magnitude[f], s, v);
        if (i >= 0) {
          results[i].score += points;
          if (!masks && !negated) { combine(state, terms ? { metadata: results[i].terms } : results[i].matchData, s, field); }
        } else {
          i = at[d] = results.length;
          const data = masks ? null : negated ? new lunr.MatchData() : matchData(state, s, field);
          results.push(terms ? { ref: docs.refs[d], score: points, terms: data && data.metadata }
            : { ref: docs.refs[d], score: points, matchData: data });
          if (masks) { masks.push(0); }
        }
        if (masks && !negated) { masks[i] |= hits.mask(s); }
      }
      if (masks) { shareTerms(state, results, masks); }
      return results.sort((a, b) => { return b.score - a.score; });
    }

    /** Each result's terms from its mask, one object for each mask. */
    function shareTerms(state, results, masks) {
      const shared = new Map();
      for (let i = 0; i < results.length; i++) {
        let mask = masks[i], found = shared.get(mask);
        if (!found) {
          found = Object.create(null);
          for (let key = 0; key < state.values.length; key++) {
            if (mask & (1 << key)) {
              const term = packed.terms[state.terms[key]];
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
      const q = new lunr.Query(index.fields);
      fn.call(q, q);
      const pristine = q.clauses.map((c) => { return Object.assign({}, c); });
      // why: the query's terms by field (keys), each with its query vector value
      const state = { required: [], prohibited: [], keys: new Map(), values: [], terms: [], fields: [] };
      hits.clear();
      if (!match(index, q, state)) {
        const results = original.call(index, (again) => { again.clauses = pristine; });
        return terms ? results.map(withTerms) : results;
      }
      return score(q, state, terms);
    }

    return {
      query(fn) { return answer(this, fn, false); },
      queryTerms(fn) { return answer(this, fn, true); }
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
    let mask = 0;
    for (let h = this.head[s]; h >= 0; h = this.next[h]) { mask |= 1 << this.key[h]; }
    return mask;
  };

  Hits.prototype.clear = function () {
    for (let s = 0; s < this.slots; s++) { this.slotOf[this.vector[s]] = -1; }
    this.slots = 0;
    this.size = 0;
  };

  Hits.prototype.add = function (v, key, at) {
    let s = this.slotOf[v], h = this.size++;
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
    let order = this.order, n = 0;
    for (let h = this.head[s]; h >= 0; h = this.next[h]) {
      if (n === order.length) { order = this.order = grown(order); }
      let i = n++, term = terms[this.key[h]];
      while (i > 0 && terms[this.key[order[i - 1]]] > term) { order[i] = order[i - 1]; i--; }
      order[i] = h;
    }
    this.sorted = n;
    return order;
  };

  function grown(array) {
    const bigger = new Int32Array(array.length * 2);
    bigger.set(array);
    return bigger;
  }

  const api = { packedQuery: packedQuery, queryTerms: queryTerms };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; } else { globalThis.DigestAnswer = api; }
})();
