/* Search worker: loads the prebuilt lunr index off the main thread and answers queries with
   ranked, filtered, highlighted results and facet counts. Messages:
   in  {type: "init", lunr, query, index, meta, docs}      out {type: "ready", count}
   in  {type: "search", id, q, filters, limit}            out {type: "results", id, ...} */
/* global lunr, DigestQuery, DigestIndex, importScripts */
"use strict";

var index = null;
var meta = null;
var docsBase = "";
var chunks = {};

function fetchOk(url) {
  // why: the index, facets and documents keep their URLs across builds and must match each
  // other and this script; revalidating costs a 304 when nothing changed
  return fetch(url, { cache: "no-cache" }).then(function (r) {
    if (!r.ok) { throw new Error(r.status + " " + url); }
    return r;
  });
}

function fetchJson(url) {
  return fetchOk(url).then(function (r) { return r.json(); });
}

function init(msg) {
  // why: the index downloads while the scripts load and compile, and is read as it arrives
  var response = fetchOk(msg.index);
  var facets = fetchJson(msg.meta);
  response.catch(function () {}); // why: handled below, once the scripts are in
  facets.catch(function () {});
  importScripts(msg.lunr, msg.query, msg.read, msg.unpack);
  docsBase = msg.docs;
  var packed = response.then(DigestRead.readIndex);
  return Promise.all([packed, facets]).then(function (loaded) {
    index = DigestIndex.loadIndex(lunr, loaded[0]);
    meta = loaded[1];
    return { type: "ready", count: meta.papers.length };
  });
}

/* ---- running a query ------------------------------------------------------------------ */

function isStopWord(word) {
  return lunr.stopWordFilter(new lunr.Token(word, {})) === undefined;
}

function addClauses(q, parsed, mode) {
  var presence = lunr.Query.presence;
  var lastClause = parsed.clauses[parsed.clauses.length - 1];
  parsed.clauses.forEach(function (c) {
    c.words.forEach(function (word, i) {
      var opts = {};
      if (c.fields) { opts.fields = c.fields; } // why: lunr keeps a present-but-undefined key
      var isLast = c === lastClause && i === c.words.length - 1;
      if (c.presence === "prohibited") {
        if (c.phrase) { return; } // why: "-a phrase" excludes the phrase, not each word; see phraseFilter
        opts.presence = presence.PROHIBITED;
      } else if (isStopWord(word)) {
        return; // why: lunr.js 2.3.9 fails on a required clause that its pipeline empties
      } else if (mode === "fuzzy") {
        opts.editDistance = 1;
      } else if (mode === "any") {
        opts.presence = c.presence === "required" || c.phrase ? presence.REQUIRED : presence.OPTIONAL;
      } else {
        opts.presence = presence.REQUIRED;
        if (mode === "prefix" && isLast) {
          opts.wildcard = lunr.Query.wildcard.TRAILING;
          opts.usePipeline = false;
        }
      }
      q.term(word, opts);
      if (mode === "any" && isLast && parsed.prefix) {
        var prefix = { wildcard: lunr.Query.wildcard.TRAILING, usePipeline: false, boost: 0.5 };
        if (c.fields) { prefix.fields = c.fields; }
        q.term(word, prefix);
      }
    });
  });
}

function run(parsed, mode) {
  return index.query(function (q) { addClauses(q, parsed, mode); });
}

/** Papers with every word first, then the last word as a prefix, then any word, then typos. */
function rank(parsed) {
  var last = parsed.clauses[parsed.clauses.length - 1];
  var lastRequired = last.presence === "required" || last.phrase;
  // why: one lunr query, tiered by the words each paper matched, costs a third of three
  // queries on a large index; a required unfinished last word still needs the prefix pass
  var ranked = parsed.prefix && lastRequired ? multiPass(parsed) : tiered(parsed, run(parsed, "any"));
  return ranked.length ? ranked : run(parsed, "fuzzy");
}

function multiPass(parsed) {
  var seen = {};
  var ranked = [];
  ["all", "prefix", "any"].forEach(function (mode) {
    run(parsed, mode).forEach(function (r) {
      if (!seen[r.ref]) { seen[r.ref] = true; ranked.push(r); }
    });
  });
  return ranked;
}

/** Results in lunr's order within tiers: every word matched as typed, every word matched with
    the last one as a prefix, then the rest. */
function tiered(parsed, results) {
  var wanted = [];
  parsed.clauses.forEach(function (c) {
    if (c.presence === "prohibited") { return; }
    c.words.forEach(function (word) {
      if (!isStopWord(word)) { wanted.push({ word: word, stem: stem(word), fields: c.fields }); }
    });
  });
  var unfinished = parsed.prefix ? wanted[wanted.length - 1] : null;
  function tier(result) {
    var terms = result.matchData.metadata;
    var exact = 0;
    var prefixed = false;
    wanted.forEach(function (w) {
      if (inFields(terms[w.stem], w.fields)) { exact++; return; }
      prefixed = prefixed || (w === unfinished && Object.keys(terms).some(function (t) {
        return t.lastIndexOf(w.word, 0) === 0 && inFields(terms[t], w.fields);
      }));
    });
    return exact === wanted.length ? 2 : exact === wanted.length - 1 && prefixed ? 1 : 0;
  }
  var tiers = results.map(function (r, i) { return { r: r, tier: tier(r), i: i }; });
  tiers.sort(function (a, b) { return b.tier - a.tier || a.i - b.i; });
  return tiers.map(function (t) { return t.r; });
}

function inFields(matched, fields) {
  return Boolean(matched) && (!fields || fields.some(function (f) { return f in matched; }));
}

function everyPaper() {
  return meta.papers.map(function (_, ref) {
    return { ref: String(ref), score: 0, matchData: { metadata: {} } };
  });
}

/* ---- documents, phrases and highlights -------------------------------------------------- */

function loadDocs(refs) {
  var needed = {};
  refs.forEach(function (ref) { needed[Math.floor(Number(ref) / meta.chunk)] = true; });
  return Promise.all(Object.keys(needed).map(function (k) {
    if (!chunks[k]) { chunks[k] = fetchJson(docsBase + k + ".json"); }
    return chunks[k];
  })).then(function () { return Promise.all(refs.map(doc)); });
}

function doc(ref) {
  var n = Number(ref);
  return chunks[Math.floor(n / meta.chunk)].then(function (list) { return list[n % meta.chunk]; });
}

var stems = new Map();

/** lunr's stem of a word, each word stemmed once: highlights and phrases stem every word of
    the papers they look at. */
function stem(word) {
  var found = stems.get(word);
  if (found === undefined) {
    found = lunr.stemmer(new lunr.Token(word.toLowerCase(), {})).toString();
    stems.set(word, found);
  }
  return found;
}

function fieldText(d, field) {
  return field === "authors" ? d.authors.join(" ") : field === "tags" ? d.tags.join(" ")
    : field === "abstract" ? d.text : field === "notes" ? d.notes || "" : d.title;
}

var fieldStems = new WeakMap();

/** The stems of a field's words, kept with the document for the next phrase query. */
function stemsOf(d, field) {
  var byField = fieldStems.get(d);
  if (!byField) { byField = {}; fieldStems.set(d, byField); }
  return byField[field] || (byField[field] = DigestQuery.words(fieldText(d, field)).map(stem));
}

/** Whether the clause's words stand together in a field; the last may be an unfinished word. */
function hasPhrase(d, c, unfinished) {
  var wanted = c.words.map(stem);
  var last = c.words[c.words.length - 1];
  var fields = c.fields || ["title", "authors", "tags", "abstract", "notes"];
  return fields.some(function (f) {
    var stems = stemsOf(d, f);
    var have = null;
    for (var at = 0; at + wanted.length <= stems.length; at++) {
      var ok = true;
      for (var i = 0; ok && i < wanted.length; i++) {
        if (stems[at + i] === wanted[i]) { continue; }
        if (unfinished && i === wanted.length - 1) {
          have = have || DigestQuery.words(fieldText(d, f));
          ok = have[at + i].lastIndexOf(last, 0) === 0;
        } else {
          ok = false;
        }
      }
      if (ok) { return true; }
    }
    return false;
  });
}

function phraseFilter(parsed, refs) {
  var phrases = parsed.clauses.filter(function (c) { return c.phrase; });
  if (!phrases.length) { return Promise.resolve(refs); }
  var lastClause = parsed.clauses[parsed.clauses.length - 1];
  return loadDocs(refs).then(function (docs) {
    return refs.filter(function (ref, i) {
      return phrases.every(function (c) {
        var unfinished = parsed.prefix && c === lastClause;
        return hasPhrase(docs[i], c, unfinished) !== (c.presence === "prohibited");
      });
    });
  });
}

/** [start, end) character ranges of the words in `text` whose stem is one of `terms`. */
function marks(text, terms) {
  var out = [];
  var re = /[\p{L}\p{N}]+/gu;
  var m;
  while ((m = re.exec(text)) !== null) {
    if (terms[stem(m[0])]) { out.push([m.index, m.index + m[0].length]); }
  }
  return out;
}

/** About `size` words of the abstract around its first highlighted word. */
function snippet(text, terms, size) {
  var all = marks(text, terms);
  var spans = [];
  var re = /\S+/g;
  var m;
  while ((m = re.exec(text)) !== null) { spans.push([m.index, m.index + m[0].length]); }
  if (!spans.length) { return { text: "", marks: [] }; }
  var first = all.length ? spans.findIndex(function (s) { return s[1] > all[0][0]; }) : 0;
  var from = Math.max(0, Math.min(first - Math.floor(size / 4), spans.length - size));
  var to = Math.min(spans.length, from + size);
  var start = spans[from][0];
  var body = text.slice(start, spans[to - 1][1]);
  var prefix = from > 0 ? "\u2026 " : "";
  var shift = prefix.length - start;
  return {
    text: prefix + body + (to < spans.length ? " \u2026" : ""),
    marks: all.filter(function (r) { return r[0] >= start && r[1] <= spans[to - 1][1]; })
      .map(function (r) { return [r[0] + shift, r[1] + shift]; })
  };
}

function present(result, d) {
  var terms = {};
  Object.keys(result.matchData.metadata).forEach(function (t) { terms[t] = true; });
  var s = snippet(d.text, terms, 32);
  return {
    ref: result.ref, title: d.title, url: d.url, authors: d.authors, tags: d.tags, venue: d.venue,
    year: d.year, titleMarks: marks(d.title, terms), snippet: s.text, snippetMarks: s.marks
  };
}

/* ---- facets ------------------------------------------------------------------------------ */

/** Whether a paper has every tag, and the venue and year, of the filters. */
function filterer(filters) {
  var tags = (filters.tags || []).map(function (t) { return meta.tags.indexOf(t); });
  return function (ref) {
    var p = meta.papers[Number(ref)];
    return tags.every(function (t) { return p[0].indexOf(t) >= 0; }) &&
      (!filters.venue || meta.venues[p[1]] === filters.venue) &&
      (!filters.year || String(p[2]) === String(filters.year));
  };
}

/** [name, count] of the values counted (a Map, or an array by number), most first, then by name. */
function byCount(counts, name) {
  var out = [];
  counts.forEach(function (n, value) { if (n) { out.push([name(value), n]); } });
  return out.sort(function (a, b) { return b[1] - a[1] || String(a[0]).localeCompare(String(b[0])); });
}

function facets(refs) {
  var tags = new Int32Array(meta.tags.length), venues = new Int32Array(meta.venues.length);
  var years = new Map();
  refs.forEach(function (ref) {
    var p = meta.papers[Number(ref)];
    for (var i = 0; i < p[0].length; i++) { tags[p[0][i]]++; }
    if (p[1] >= 0) { venues[p[1]]++; }
    years.set(p[2], (years.get(p[2]) || 0) + 1);
  });
  return {
    tags: byCount(tags, function (i) { return meta.tags[i]; }),
    venues: byCount(venues, function (i) { return meta.venues[i]; }),
    years: byCount(years, String)
  };
}

function search(msg) {
  var parsed = DigestQuery.parseQuery(msg.q);
  var filters = msg.filters || {};
  var hasFilters = (filters.tags && filters.tags.length) || filters.venue || filters.year;
  var ranked = parsed.clauses.length ? rank(parsed) : hasFilters ? everyPaper() : [];
  var byRef = {};
  ranked.forEach(function (r) { byRef[r.ref] = r; });
  return phraseFilter(parsed, ranked.map(function (r) { return r.ref; })).then(function (refs) {
    refs = refs.filter(filterer(filters));
    var page = refs.slice(msg.offset || 0, (msg.offset || 0) + (msg.limit || 20));
    return loadDocs(page).then(function (docs) {
      return {
        type: "results", id: msg.id, total: refs.length, offset: msg.offset || 0,
        results: page.map(function (ref, i) { return present(byRef[ref], docs[i]); }),
        facets: facets(refs)
      };
    });
  });
}

self.onmessage = function (event) {
  var msg = event.data;
  Promise.resolve().then(function () {
    return msg.type === "init" ? init(msg) : search(msg);
  }).then(function (reply) { self.postMessage(reply); }, function (error) {
    self.postMessage({ type: "error", id: msg.id, message: String(error && error.message || error) });
  });
};
