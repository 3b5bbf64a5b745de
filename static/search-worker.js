/* Search worker: loads the prebuilt lunr index off the main thread and answers queries with
   ranked, filtered, highlighted results and facet counts. Messages:
   in  {type: "scripts", lunr, query, read, unpack, answer} out {type: "scripts"}
   in  {type: "init", lunr, query, read, unpack, answer,   out {type: "ready", count}
        index, meta, docs} (script URLs, then data URLs)
   in  {type: "search", id, q, filters, limit}            out {type: "results", id, ...} */
/* global lunr, DigestQuery, DigestIndex, DigestAnswer, importScripts */
"use strict";

var index = null;
var meta = null;
var docsBase = "";
var chunks = {}; // why: a chunk's promise, so that it is fetched once
var loaded = {}; // why: a chunk's documents, once they are in

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

var scriptsIn = false;

/** Loads lunr.js and our scripts, once. */
function loadScripts(msg) {
  if (!scriptsIn) {
    importScripts(msg.lunr, msg.query, msg.read, msg.unpack, msg.answer);
    scriptsIn = true;
  }
}

/** The page asks for the scripts when it is idle, before the reader first focuses a search
    box, which then waits only for the index. A failure here is not reported as one: init
    tries again, and reports its own. */
function warmUp(msg) {
  try {
    loadScripts(msg);
  } catch (e) { /* tried again by init */ }
  return { type: "scripts" };
}

function init(msg) {
  // why: the index downloads while any scripts still to load do, and is read as it arrives;
  // the facets, a fifteenth of its size, are asked for first so as not to arrive after it
  var facets = fetchJson(msg.meta);
  var response = fetchOk(msg.index);
  response.catch(function () {}); // why: handled below, once the scripts are in
  facets.catch(function () {});
  loadScripts(msg);
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
      // why: an unfinished word's wildcard clause that finds no term adds nothing to lunr's
      // answer; one that finds only the word's own term adds its boost to the word's (1 + 0.5,
      // exactly) and looks the same term up again for nothing
      var finds = mode === "any" && isLast && parsed.prefix ? prefixFinds(word, c.fields) : "nothing";
      if (finds === "itself") { opts.boost = 1.5; }
      q.term(word, opts);
      if (finds === "more") {
        var prefix = { wildcard: lunr.Query.wildcard.TRAILING, usePipeline: false, boost: 0.5 };
        if (c.fields) { prefix.fields = c.fields; }
        q.term(word, prefix);
      }
    });
  });
}

/** What `word*` finds besides the word as typed: "nothing" (no term starts with it), "itself"
    (the word's own term alone) or "more". Asked of the index's terms as lunr asks them. */
function prefixFinds(word, fields) {
  var wildcard = { wildcard: lunr.Query.wildcard.TRAILING, usePipeline: false };
  var clause = new lunr.Query(index.fields).term(word, wildcard).clauses[0];
  var found = index.tokenSet.intersect(lunr.TokenSet.fromClause(clause)).toArray();
  if (!found.length) { return "nothing"; }
  var own = index.pipeline.runString(word, { fields: fields || index.fields });
  return found.length === 1 && own.length === 1 && own[0] === found[0] ? "itself" : "more";
}

/** lunr's results for a pass, as {ref, score, terms}: `terms` is what lunr's matchData.metadata
    holds, each matched term with the fields it matched in as keys (see DigestAnswer.queryTerms). */
function run(parsed, mode) {
  return DigestAnswer.queryTerms(index, function (q) { addClauses(q, parsed, mode); });
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

/** The passes' results in turn, each paper once. A pass that can find only papers the "all"
    pass found is not run: "prefix" when the last word's wildcard finds nothing but the word,
    "any" when every word is required anyway. */
function multiPass(parsed) {
  var lastClause = parsed.clauses[parsed.clauses.length - 1];
  var last = lastClause.words[lastClause.words.length - 1];
  var modes = ["all"];
  if (!isStopWord(last) && prefixFinds(last, lastClause.fields) === "more") { modes.push("prefix"); }
  if (parsed.clauses.some(isOptionalInAny)) { modes.push("any"); }
  var seen = new Set();
  var ranked = [];
  modes.forEach(function (mode) {
    run(parsed, mode).forEach(function (r) {
      if (!seen.has(r.ref)) { seen.add(r.ref); ranked.push(r); }
    });
  });
  return ranked;
}

/** Whether a clause gives lunr an optional word in the "any" pass. */
function isOptionalInAny(c) {
  return c.presence === "any" && !c.phrase && c.words.some(function (w) { return !isStopWord(w); });
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
  function tier(terms) {
    var exact = 0;
    var prefixed = false;
    for (var i = 0; i < wanted.length; i++) {
      var w = wanted[i];
      if (inFields(terms[w.stem], w.fields)) {
        exact++;
      } else if (w === unfinished) {
        prefixed = hasPrefixed(terms, w);
      }
    }
    return exact === wanted.length ? 2 : exact === wanted.length - 1 && prefixed ? 1 : 0;
  }
  // why: a stable split into three tiers; sorting thousands of results costs more. Results
  // that matched the same terms share their `terms`, so each is tiered once
  var tiers = [[], [], []], known = new Map();
  results.forEach(function (r) {
    var t = known.get(r.terms);
    if (t === undefined) { t = tier(r.terms); known.set(r.terms, t); }
    tiers[t].push(r);
  });
  return tiers[2].concat(tiers[1], tiers[0]);
}

/** Whether a result matched a term that starts with the unfinished word, in its fields. */
function hasPrefixed(terms, w) {
  for (var t in terms) {
    if (t.lastIndexOf(w.word, 0) === 0 && inFields(terms[t], w.fields)) { return true; }
  }
  return false;
}

function inFields(matched, fields) {
  return Boolean(matched) && (!fields || fields.some(function (f) { return f in matched; }));
}

function everyPaper() {
  var none = {};
  return meta.papers.map(function (_, ref) {
    return { ref: String(ref), score: 0, terms: none };
  });
}

/* ---- documents, phrases and highlights -------------------------------------------------- */

/** The documents of `refs`, once their chunks are in. */
function loadDocs(refs) {
  var waits = [];
  var asked = {};
  refs.forEach(function (ref) {
    var k = Math.floor(Number(ref) / meta.chunk);
    if (!loaded[k] && !asked[k]) { asked[k] = true; waits.push(chunk(k)); }
  });
  // why: documents are then read from the chunks in hand, not through a promise each
  return Promise.all(waits).then(function () { return refs.map(doc); });
}

function chunk(k) {
  if (!chunks[k]) {
    chunks[k] = fetchJson(docsBase + k + ".json").then(function (list) { loaded[k] = list; return list; });
  }
  return chunks[k];
}

function doc(ref) {
  var n = Number(ref);
  return loaded[Math.floor(n / meta.chunk)][n % meta.chunk];
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
var stemNumbers = new Map();

/** A number for each stem, so that phrases are looked for among numbers, not strings. */
function stemNumber(word) {
  var s = stem(word), n = stemNumbers.get(s);
  if (n === undefined) { n = stemNumbers.size; stemNumbers.set(s, n); }
  return n;
}

/** The stems of a field's words, as numbers, kept with the document for the next phrase query. */
function stemsOf(d, field) {
  var byField = fieldStems.get(d);
  if (!byField) { byField = {}; fieldStems.set(d, byField); }
  return byField[field] || (byField[field] = Int32Array.from(DigestQuery.words(fieldText(d, field)), stemNumber));
}

/** Whether a phrase's words stand together in one of its fields; the last may be unfinished. */
function hasPhrase(d, phrase) {
  var wanted = phrase.stems;
  var size = wanted.length;
  return phrase.fields.some(function (f) {
    var stems = stemsOf(d, f);
    var have = null;
    for (var at = stems.indexOf(wanted[0]); at >= 0 && at + size <= stems.length;
      at = stems.indexOf(wanted[0], at + 1)) {
      var i = 1;
      while (i < size && stems[at + i] === wanted[i]) { i++; }
      if (i === size) { return true; }
      if (phrase.unfinished && i === size - 1) {
        have = have || DigestQuery.words(fieldText(d, f));
        if (have[at + i].lastIndexOf(phrase.last, 0) === 0) { return true; }
      }
    }
    return false;
  });
}

/** The results whose documents have every phrase of the query, and none of its "-phrases". */
function phraseFilter(parsed, results) {
  var lastClause = parsed.clauses[parsed.clauses.length - 1];
  var phrases = parsed.clauses.filter(function (c) { return c.phrase; }).map(function (c) {
    return phraseOf(c, parsed.prefix && c === lastClause);
  });
  if (!phrases.length) { return Promise.resolve(results); }
  return loadDocs(results.map(refOf)).then(function (docs) {
    return results.filter(function (r, i) {
      return phrases.every(function (p) { return hasPhrase(docs[i], p) !== p.prohibited; });
    });
  });
}

/** A phrase clause as hasPhrase() reads it: its words' stems worked out once per query. */
function phraseOf(c, unfinished) {
  return { stems: c.words.map(stemNumber), last: c.words[c.words.length - 1], unfinished: unfinished,
    fields: c.fields || ["title", "authors", "tags", "abstract", "notes"],
    prohibited: c.presence === "prohibited" };
}

function refOf(result) { return result.ref; }

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
  Object.keys(result.terms).forEach(function (t) { terms[t] = true; });
  var s = snippet(d.text, terms, 32);
  return {
    ref: result.ref, title: d.title, url: d.url, authors: d.authors, tags: d.tags, venue: d.venue,
    year: d.year, titleMarks: marks(d.title, terms), snippet: s.text, snippetMarks: s.marks
  };
}

/* ---- facets ------------------------------------------------------------------------------ */

/** Whether a result's paper has every tag, and the venue and year, of the filters. */
function filterer(filters) {
  var tags = (filters.tags || []).map(function (t) { return meta.tags.indexOf(t); });
  return function (result) {
    var p = meta.papers[Number(result.ref)];
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

/** meta.papers as typed arrays by paper number: each paper's tags (from tagStarts[n] to
    tagStarts[n + 1]), venue and year (a number in `years`). Counting a broad query's facets
    then reads a few small arrays instead of 10,000 scattered ones. */
function facetTable(papers) {
  var tagStarts = new Int32Array(papers.length + 1), size = 0;
  papers.forEach(function (p, n) { size += p[0].length; tagStarts[n + 1] = size; });
  var tags = new Int32Array(size), venue = new Int32Array(papers.length);
  var year = new Int32Array(papers.length), years = [], yearNumber = new Map();
  papers.forEach(function (p, n) {
    tags.set(p[0], tagStarts[n]);
    venue[n] = p[1];
    if (!yearNumber.has(p[2])) { yearNumber.set(p[2], years.length); years.push(p[2]); }
    year[n] = yearNumber.get(p[2]);
  });
  return { tagStarts: tagStarts, tags: tags, venue: venue, year: year, years: years };
}

var table = null;

function facets(results) {
  table = table || facetTable(meta.papers);
  var tags = new Int32Array(meta.tags.length), venues = new Int32Array(meta.venues.length);
  var yearCounts = new Int32Array(table.years.length);
  for (var r = 0; r < results.length; r++) {
    var n = Number(results[r].ref);
    for (var i = table.tagStarts[n]; i < table.tagStarts[n + 1]; i++) { tags[table.tags[i]]++; }
    if (table.venue[n] >= 0) { venues[table.venue[n]]++; }
    yearCounts[table.year[n]]++;
  }
  var years = new Map();
  yearCounts.forEach(function (count, i) { if (count) { years.set(table.years[i], count); } });
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
  var offset = msg.offset || 0;
  return phraseFilter(parsed, ranked).then(function (results) {
    if (hasFilters) { results = results.filter(filterer(filters)); }
    var page = results.slice(offset, offset + (msg.limit || 20));
    return loadDocs(page.map(refOf)).then(function (docs) {
      return {
        type: "results", id: msg.id, total: results.length, offset: offset,
        results: page.map(function (r, i) { return present(r, docs[i]); }),
        facets: facets(results)
      };
    });
  });
}

self.onmessage = function (event) {
  var msg = event.data;
  Promise.resolve().then(function () {
    return msg.type === "scripts" ? warmUp(msg) : msg.type === "init" ? init(msg) : search(msg);
  }).then(function (reply) { self.postMessage(reply); }, function (error) {
    self.postMessage({ type: "error", id: msg.id, message: String(error && error.message || error) });
  });
};
