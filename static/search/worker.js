/* Search worker: loads the prebuilt lunr index off the main thread and answers queries with
   ranked, filtered, highlighted results and facet counts. Messages:
   in  {type: "scripts", lunr, query, read, unpack, answer} out {type: "scripts"}
   in  {type: "init", lunr, query, read, unpack, answer,   out {type: "ready", count}
        index, meta, docs} (script URLs, then data URLs)
   in  {type: "search", id, q, filters, limit}            out {type: "results", id, total, offset,
                                                              results, facets, searched}
   `searched` is the query as searched when a word of it was corrected, else null. */
/* global lunr, DigestQuery, DigestRead, DigestIndex, DigestAnswer, importScripts */
"use strict";

let index = null;
let meta = null;
let docsBase = "";
const chunks = {}; // why: a chunk's promise, so that it is fetched once
const loaded = {}; // why: a chunk's documents, once they are in

function fetchOk(url) {
  // why: the index, facets and documents keep their URLs across builds and must match each
  // other and this script; revalidating costs a 304 when nothing changed
  return fetch(url, { cache: "no-cache" }).then((r) => {
    if (!r.ok) { throw new Error(r.status + " " + url); }
    return r;
  });
}

function fetchJson(url) {
  return fetchOk(url).then((r) => { return r.json(); });
}

let scriptsIn = false;

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
  const facets = fetchJson(msg.meta);
  const response = fetchOk(msg.index);
  response.catch(() => {}); // why: handled below, once the scripts are in
  facets.catch(() => {});
  loadScripts(msg);
  docsBase = msg.docs;
  const packed = response.then(DigestRead.readIndex);
  return Promise.all([packed, facets]).then((loaded) => {
    index = DigestIndex.loadIndex(lunr, loaded[0]);
    meta = loaded[1];
    return { type: "ready", count: meta.papers.length };
  });
}

/* ---- the query plan: each word's terms, widened when the index has none ------------------ */

// why: indexed as names, folded and unstemmed (generator/search/terms.py's NAME_FIELDS)
const NAME_FIELDS = ["authors", "tags"];
const NEAREST = 3; // why: a typo stands for at most this many terms, the most common first

function isStopWord(word) {
  return lunr.stopWordFilter(new lunr.Token(word, {})) === undefined;
}

/** The index's terms, as static/search/index.js's loadIndex describes them. */
function lexicon() { return index.lexicon; }

/** A clause's fields, split into those of text (stemmed) and those of names. */
function fieldGroups(fields) {
  const all = fields || index.fields;
  return {
    text: all.filter((f) => { return NAME_FIELDS.indexOf(f) < 0; }),
    names: all.filter((f) => { return NAME_FIELDS.indexOf(f) >= 0; })
  };
}

function maskOf(fields) {
  let mask = 0;
  fields.forEach((f) => { mask |= 1 << index.fields.indexOf(f); });
  return mask;
}

/** Whether the index has `term` in one of `fields`. */
function indexed(term, fields) {
  return Boolean(term) && fields.length > 0 && (lexicon().fieldsOf(term) & maskOf(fields)) !== 0;
}

/** A word as names are indexed: folded, not stemmed. */
function nameOf(word) { return DigestQuery.fold(word); }

/** One lunr clause of a word: `exact` when it is the word as the reader typed it. */
function ask(term, fields, boost, how) {
  return { term: term, fields: fields, boost: boost, wildcard: how === "prefix", exact: how === "exact" };
}

/** How one positive word is asked: its clauses (`asks`), whether ranking counts it, whether
    every result must have it, and what it was corrected to (`typo`). */
function wordPlan(word, c, unfinished) {
  const groups = fieldGroups(c.fields), stop = isStopWord(word);
  const text = groups.text.length && !stop ? stem(word) : null, name = groups.names.length ? nameOf(word) : null;
  const asks = [];
  if (indexed(text, groups.text)) { asks.push(ask(text, groups.text, 1, "exact")); }
  if (indexed(name, groups.names)) { asks.push(ask(name, groups.names, 1, "exact")); }
  // why: a stop word is asked only as a name (an author "He"), and counted or required only
  // where names alone were asked for (a phrase's stop words are checked by phraseFilter)
  const counts = !stop || !groups.text.length;
  const plan = { word: word, asks: asks, counts: counts, typo: null, groups: groups,
    required: counts && (c.presence === "required" || c.phrase), unfinished: unfinished && !stop };
  if (plan.unfinished) { addPrefixes(plan, groups, name); }
  if (!asks.length && !stop && !c.phrase) { widen(plan, groups); }
  return plan;
}

/** An unfinished word also finds the terms it begins, at half weight: lunr's trailing wildcard
    over the word as typed in the text fields, and as a name in the name fields. A wildcard that
    finds no term adds nothing to lunr's answer, and one that finds only the word's own term
    adds its weight to it (1 + 0.5, exactly): such a wildcard is left out
    (tests/js/plan_check.js holds the answers alike). */
function addPrefixes(plan, groups, name) {
  [[plan.word, groups.text], [name, groups.names]].forEach((group) => {
    const prefix = group[0], fields = group[1];
    if (!prefix || !fields.length) { return; }
    const found = lexicon().prefixed(prefix);
    const own = plan.asks.filter((a) => { return a.term === prefix && a.fields === fields; })[0];
    if (found.length === 1 && found[0] === prefix && own) {
      own.boost = 1.5;
    } else if (found.length) {
      plan.asks.push(ask(prefix, fields, 0.5, "prefix"));
    }
  });
}

/** A word the index does not have stands for the terms it begins, else for its nearest terms. */
function widen(plan, groups) {
  const name = nameOf(plan.word);
  if (groups.text.length && lexicon().hasLonger(plan.word, maskOf(groups.text))) {
    plan.asks.push(ask(plan.word, groups.text, 1, "prefix"));
  }
  if (name && groups.names.length && lexicon().hasLonger(name, maskOf(groups.names))) {
    plan.asks.push(ask(name, groups.names, 1, "prefix"));
  }
  if (plan.asks.length) { return; }
  const nearest = nearestTerms(plan.word, groups);
  nearest.forEach((n) => { plan.asks.push(ask(n.term, n.fields, 1, "typo")); });
  if (nearest.length) { plan.typo = { term: nearest[0].term, shown: nearest[0].shown }; }
}

/** The terms nearest to a word the index does not have: one edit away (a word one edit away
    whose stem is a term, or a name one edit away), else, for a word of 8 letters or more, two
    edits from the word or its stem. The most common NEAREST of those nearest. */
function nearestTerms(word, groups) {
  if (word.length < 4 || /\p{N}/u.test(word)) { return []; }
  const found = new Map();
  function add(term, fields, away, shown) {
    const was = found.get(term);
    if (!was || away < was.away) { found.set(term, { term: term, fields: fields, away: away, shown: shown }); }
  }
  if (groups.text.length) {
    DigestQuery.edits(word).forEach((e) => {
      const t = lunr.stemmer(new lunr.Token(e, {})).toString(); // why: not memoised, most are no word
      if (indexed(t, groups.text)) { add(t, groups.text, 1, e); }
    });
  }
  const name = nameOf(word);
  if (groups.names.length) {
    DigestQuery.edits(name).forEach((e) => { if (indexed(e, groups.names)) { add(e, groups.names, 1, e); } });
  }
  if (!found.size && word.length >= 8) { addTwoAway(word, name, groups, add); }
  let least = Infinity;
  found.forEach((n) => { least = Math.min(least, n.away); });
  const nearest = Array.from(found.values()).filter((n) => { return n.away === least; });
  nearest.sort((a, b) => { return lexicon().vectors(b.term) - lexicon().vectors(a.term); });
  return nearest.slice(0, NEAREST);
}

/** Terms two edits from the word or its stem (text), or from its name (names). */
function addTwoAway(word, name, groups, add) {
  const own = stem(word), DQ = DigestQuery;
  lexicon().terms.forEach((t) => {
    if (Math.abs(t.length - word.length) > 3) { return; }
    if (groups.text.length && Math.min(DQ.distance(word, t, 2), DQ.distance(own, t, 2)) <= 2 &&
        indexed(t, groups.text)) { add(t, groups.text, 2, null); }
    if (groups.names.length && DQ.distance(name, t, 2) <= 2 && indexed(t, groups.names)) {
      add(t, groups.names, 2, null);
    }
  });
}

/** The query's plan: each positive word's plan, the clauses of the words it excludes, and
    whether it excludes a CJK word (checked in the documents, see phraseFilter). */
function plan(parsed) {
  let lastClause = parsed.clauses[parsed.clauses.length - 1], words = [], excluded = [], cjkExcluded = false;
  parsed.clauses.forEach((c) => {
    c.words.forEach((word, i) => {
      const cjk = DigestQuery.isCJK(word);
      if (c.presence === "prohibited") {
        // why: "-a phrase" excludes the phrase, not each word; "-知识蒸馏" excludes the word,
        // not each of its bigrams: both are checked in the documents, see phraseFilter
        if (!c.phrase && !cjk) { excluded.push.apply(excluded, exclusions(word, fieldGroups(c.fields))); }
        cjkExcluded = cjkExcluded || (!c.phrase && cjk);
        return;
      }
      if (cjk) { words.push(cjkPlan(word, c)); return; }
      const p = wordPlan(word, c, parsed.prefix && c === lastClause && i === c.words.length - 1);
      if (p.asks.length || !isStopWord(word)) { words.push(p); }
    });
  });
  return { words: words, excluded: excluded, cjkExcluded: cjkExcluded };
}

const CONTAINING = 200; // why: one character stands for at most this many bigrams, the most common first

/** How a word of CJK characters is asked (generator/search/terms.py's cut_cjk): each of its
    bigrams, as it is in the text fields and folded in the name fields, never stemmed, widened
    or taken as a prefix; a paper has the word where one field has all of them (coversGrams).
    A field group asks none when one of the bigrams is in none of its fields. */
function cjkPlan(word, c) {
  const groups = fieldGroups(c.fields), single = Array.from(word).length === 1;
  const grams = { text: unique(DigestQuery.grams(word)), names: unique(DigestQuery.grams(nameOf(word))) };
  const plan = { word: word, asks: [], counts: true, typo: null, groups: groups, grams: grams, single: single,
    required: c.presence === "required" || c.phrase, unfinished: false };
  ["text", "names"].forEach((group) => {
    const fields = groups[group];
    if (!fields.length) { return; }
    if (grams[group].every((g) => { return indexed(g, fields); })) {
      grams[group].forEach((g) => { plan.asks.push(ask(g, fields, 1, "exact")); });
    }
    if (single) { addContaining(plan, grams[group][0], fields); }
  });
  return plan;
}

/** A single CJK character also finds the bigrams it begins or ends (the index has a character
    alone only where it stood alone), the most common CONTAINING of them. */
function addContaining(plan, character, fields) {
  const found = lexicon().terms.filter((t) => {
    return t.indexOf(character) >= 0 && t !== character && DigestQuery.isCJK(t) && Array.from(t).length === 2 &&
      indexed(t, fields);
  });
  found.sort((a, b) => { return lexicon().vectors(b) - lexicon().vectors(a) || (a < b ? -1 : 1); });
  found.slice(0, CONTAINING).forEach((t) => { plan.asks.push(ask(t, fields, 1, "part")); });
}

function unique(list) { return Array.from(new Set(list)); }

function exclusions(word, groups) {
  const out = [];
  if (groups.text.length && !isStopWord(word)) { out.push(ask(stem(word), groups.text, 1, "exact")); }
  if (groups.names.length) { out.push(ask(nameOf(word), groups.names, 1, "exact")); }
  return out;
}

/** lunr's results for a plan, as {ref, score, terms}: `terms` is what lunr's matchData.metadata
    holds, each matched term with the fields it matched in as keys (see DigestAnswer.queryTerms).
    Every positive clause is optional: ordered() keeps what must be there. */
function run(p) {
  const presence = lunr.Query.presence;
  return DigestAnswer.queryTerms(index, (q) => {
    p.words.forEach((w) => {
      w.asks.forEach((a) => { q.term(a.term, clauseOptions(a, presence.OPTIONAL)); });
    });
    p.excluded.forEach((a) => { q.term(a.term, clauseOptions(a, presence.PROHIBITED)); });
  });
}

function clauseOptions(a, presence) {
  const options = { fields: a.fields, usePipeline: false, presence: presence, boost: a.boost };
  if (a.wildcard) { options.wildcard = lunr.Query.wildcard.TRAILING; }
  return options;
}

/** The results of a parsed query, and its plan. */
function rank(parsed) {
  const p = plan(parsed);
  const asking = p.words.some((w) => { return w.asks.length; });
  // why: a query of excluded words alone is every paper but those; one whose words the index
  // does not have at all finds nothing
  if (!asking && !p.excluded.length && p.cjkExcluded && !p.words.length) { return { results: everyPaper(), plan: p }; }
  if (!asking && !(p.excluded.length && !p.words.length)) { return { results: [], plan: p }; }
  return { results: ordered(p, run(p)), plan: p };
}

/** Results with every required word and with at least one word (not only some bigrams of a
    CJK word), those with more of the query's words first, then those with more of them as
    typed; in lunr's order within. */
function ordered(p, results) {
  const counted = p.words.filter((w) => { return w.counts; }), size = counted.length + 1;
  const required = p.words.filter((w) => { return w.required; });
  const tiers = [], known = new Map(); // why: results that matched the same terms share `terms`
  function tierOf(terms) {
    if (!required.every((w) => { return covers(w, terms); })) { return -1; }
    let covered = 0, exact = 0, any = false;
    p.words.forEach((w) => {
      const how = covers(w, terms);
      any = any || how > 0;
      if (how && w.counts) { covered++; exact += how - 1; }
    });
    // why: lunr finds a paper with any one bigram of a CJK word, 方法 of 蒸馏方法; a word of
    // letters is had by every paper lunr finds for it
    return any ? covered * size + exact : -1;
  }
  results.forEach((r) => {
    let t = known.get(r.terms);
    if (t === undefined) { t = tierOf(r.terms); known.set(r.terms, t); }
    if (t >= 0) { (tiers[t] || (tiers[t] = [])).push(r); }
  });
  const out = [];
  for (let t = tiers.length - 1; t >= 0; t--) {
    const tier = tiers[t] || [];
    for (let i = 0; i < tier.length; i++) { out.push(tier[i]); }
  }
  return out;
}

/** Whether a result with these matched terms has word `w`: 2 as typed, 1 widened, 0 not. */
function covers(w, terms) {
  if (w.grams) { return coversGrams(w, terms); }
  let best = 0;
  w.asks.forEach((a) => {
    if (a.wildcard) {
      for (const t in terms) {
        if (t.lastIndexOf(a.term, 0) === 0 && inFields(terms[t], a.fields)) { best = Math.max(best, 1); break; }
      }
    } else if (inFields(terms[a.term], a.fields)) {
      best = Math.max(best, a.exact ? 2 : 1);
    }
  });
  return best;
}

/** Whether a result with these matched terms has CJK word `w`: one of its fields has every
    bigram of the word (2), or, for one character, the character or a bigram it is part of. */
function coversGrams(w, terms) {
  if (w.single) { return w.asks.some((a) => { return inFields(terms[a.term], a.fields); }) ? 2 : 0; }
  return ["text", "names"].some((group) => {
    return w.groups[group].some((f) => {
      return w.grams[group].every((g) => { return Boolean(terms[g]) && f in terms[g]; });
    });
  }) ? 2 : 0;
}

function inFields(matched, fields) {
  return Boolean(matched) && (!fields || fields.some((f) => { return f in matched; }));
}

/** The query as searched, when a word was corrected: [{text, corrected}] in the reader's words,
    each correction shown as a word of the results on screen (or the term). */
function searched(q, p, docs) {
  const typos = p ? p.words.filter((w) => { return w.typo; }) : [];
  if (!typos.length) { return null; }
  return String(q).split(pattern("words")).filter(Boolean).map((part) => {
    const lower = part.toLowerCase();
    const w = typos.find((t) => { return t.word === lower; });
    return w ? { text: w.typo.shown || shownAs(w, docs), corrected: true } : { text: part, corrected: false };
  });
}

let patterns = null;

/** Regular expressions made of DigestQuery's CJK class, once it is loaded: a query's words as
    DigestQuery.words splits them (CJK runs apart from the letters they touch), and the words of
    a snippet (a CJK character is one, as Chinese puts no space between words). */
function pattern(name) {
  const cjk = DigestQuery.CJK_CLASS;
  patterns = patterns || {
    words: new RegExp("(" + cjk + "+|(?:(?!" + cjk + ")[\\p{L}\\p{N}])+)", "u"),
    snippet: new RegExp(cjk + "|(?:(?!" + cjk + ")\\S)+", "gu")
  };
  return patterns[name];
}

/** The word of the shown results nearest to what was typed whose term is the correction. */
function shownAs(w, docs) {
  let best = w.typo.term, away = Infinity;
  docs.forEach((d) => {
    ["title", "authors", "tags", "abstract"].forEach((f) => {
      DigestQuery.words(fieldText(d, f)).forEach((x) => {
        const term = NAME_FIELDS.indexOf(f) >= 0 ? nameOf(x) : stem(x);
        if (term !== w.typo.term) { return; }
        const d2 = DigestQuery.distance(w.word, x, 9);
        if (d2 < away) { best = x; away = d2; }
      });
    });
  });
  return best;
}

function everyPaper() {
  const none = {};
  return meta.papers.map((_, ref) => {
    return { ref: String(ref), score: 0, terms: none };
  });
}

/* ---- documents, phrases and highlights -------------------------------------------------- */

/** The documents of `refs`, once their chunks are in. */
function loadDocs(refs) {
  const waits = [];
  const asked = {};
  refs.forEach((ref) => {
    const k = meta.papers[Number(ref)][3]; // why: each paper's document is in the chunk meta names
    if (!loaded[k] && !asked[k]) { asked[k] = true; waits.push(chunk(k)); }
  });
  // why: documents are then read from the chunks in hand, not through a promise each
  return Promise.all(waits).then(() => { return refs.map(doc); });
}

function chunk(k) {
  if (!chunks[k]) {
    chunks[k] = fetchJson(docsBase + k + ".json").then((list) => { loaded[k] = list; return list; });
  }
  return chunks[k];
}

/** A paper's document: its chunk's entry, with its tags, venue and year from meta (which has
    them for the facets; the chunks leave them out). */
function doc(ref) {
  const row = meta.papers[Number(ref)];
  const d = loaded[row[3]][row[4]];
  if (!d.tags) {
    d.tags = row[0].map((t) => { return meta.tags[t]; });
    d.venue = row[1] >= 0 ? meta.venues[row[1]] : "";
    d.year = row[2];
  }
  return d;
}

const stems = new Map();

/** lunr's stem of a word, each word stemmed once: highlights and phrases stem every word of
    the papers they look at. */
function stem(word) {
  if (DigestQuery.isCJK(word)) { return word; } // why: a bigram has no stem
  let found = stems.get(word);
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

const fieldStems = new WeakMap();
const stemNumbers = new Map();

/** A number for each stem, so that phrases are looked for among numbers, not strings. */
function stemNumber(word) { return termNumber(stem(word)); }

function termNumber(term) {
  let n = stemNumbers.get(term);
  if (n === undefined) { n = stemNumbers.size; stemNumbers.set(term, n); }
  return n;
}

/** A number for each name, as names are indexed (folded, not stemmed), apart from the stems. */
function nameNumber(word) { return termNumber("\u0000" + nameOf(word)); }

function isName(field) { return NAME_FIELDS.indexOf(field) >= 0; }

/** Words as the build cuts them (generator/search/terms.py's cut_cjk): a CJK word as its
    bigrams, of its folded form in a name field. */
function cutWords(words, name) {
  const out = [];
  words.forEach((w) => {
    if (!DigestQuery.isCJK(w)) { out.push(w); return; }
    DigestQuery.grams(name ? nameOf(w) : w).forEach((g) => { out.push(g); });
  });
  return out;
}

/** The terms of a field's words (stems, or names; a CJK word's bigrams), as numbers, kept with
    the document for the next phrase query. */
function stemsOf(d, field) {
  let byField = fieldStems.get(d);
  if (!byField) { byField = {}; fieldStems.set(d, byField); }
  return byField[field] || (byField[field] = Int32Array.from(
    cutWords(DigestQuery.words(fieldText(d, field)), isName(field)), isName(field) ? nameNumber : stemNumber));
}

/** Whether a phrase's words stand together in one of its fields; the last may be unfinished. */
function hasPhrase(d, phrase) {
  if (phrase.character) { // why: one CJK character stands in bigrams, not alone
    return phrase.fields.some((f) => {
      return (isName(f) ? nameOf(fieldText(d, f)) : fieldText(d, f)).indexOf(phrase.character) >= 0;
    });
  }
  return phrase.fields.some((f) => {
    const stems = stemsOf(d, f), wanted = isName(f) ? phrase.names : phrase.stems, size = wanted.length;
    let have = null;
    for (let at = stems.indexOf(wanted[0]); at >= 0 && at + size <= stems.length;
      at = stems.indexOf(wanted[0], at + 1)) {
      let i = 1;
      while (i < size && stems[at + i] === wanted[i]) { i++; }
      if (i === size) { return true; }
      if (phrase.unfinished && i === size - 1) {
        have = have || cutWords(DigestQuery.words(fieldText(d, f)), isName(f));
        if (nameOf(have[at + i]).lastIndexOf(nameOf(phrase.last), 0) === 0) { return true; }
      }
    }
    return false;
  });
}

/** The results whose documents have every phrase of the query, and none of its "-phrases" or
    excluded CJK words (a CJK word is excluded where its bigrams stand together). */
function phraseFilter(parsed, results) {
  const lastClause = parsed.clauses[parsed.clauses.length - 1], phrases = [];
  parsed.clauses.forEach((c) => {
    if (c.phrase) { phrases.push(phraseOf(c, c.words, parsed.prefix && c === lastClause)); return; }
    if (c.presence !== "prohibited") { return; }
    c.words.filter(DigestQuery.isCJK).forEach((w) => {
      phrases.push(Object.assign(phraseOf(c, [w], false), { candidates: havingWord(w, c) }));
    });
  });
  // why: an excluded CJK word is looked for only in the papers that have all its bigrams
  const checked = results.filter((r) => {
    return phrases.some((p) => { return !p.candidates || p.candidates.has(r.ref); });
  });
  if (!checked.length) { return Promise.resolve(results); }
  return loadDocs(checked.map(refOf)).then((docs) => {
    const docOf = new Map(checked.map((r, i) => { return [r.ref, docs[i]]; }));
    return results.filter((r) => {
      return phrases.every((p) => {
        if (p.candidates && !p.candidates.has(r.ref)) { return true; }
        return hasPhrase(docOf.get(r.ref), p) !== p.prohibited;
      });
    });
  });
}

/** The refs of the papers that have CJK word `word` in the fields of clause `c`, as a positive
    word (every bigram in one field), whether or not its bigrams stand together. */
function havingWord(word, c) {
  const w = cjkPlan(word, { fields: c.fields, presence: "any", phrase: false }), refs = new Set();
  if (w.asks.length) {
    const p = { words: [w], excluded: [] };
    ordered(p, run(p)).forEach((r) => { refs.add(r.ref); });
  }
  return refs;
}

/** A phrase clause's words as hasPhrase() reads them: their stems worked out once per query. */
function phraseOf(c, words, unfinished) {
  const cut = cutWords(words, false), one = words.length === 1 && DigestQuery.isCJK(words[0]) && Array.from(words[0]).length === 1;
  return { character: one ? words[0] : null, stems: cut.map(stemNumber), names: cutWords(words, true).map(nameNumber), last: cut[cut.length - 1], unfinished: unfinished,
    fields: c.fields || ["title", "authors", "tags", "abstract", "notes"],
    prohibited: c.presence === "prohibited" };
}

function refOf(result) { return result.ref; }

/** [start, end) character ranges of the words in `text` whose stem is one of `terms`, and of
    the runs of CJK characters whose bigrams are (overlapping bigrams make one range). */
function marks(text, terms) {
  const out = [];
  DigestQuery.pieces(text).forEach((piece) => {
    if (!terms[stem(piece.text)]) { return; }
    const last = out[out.length - 1];
    if (last && piece.start < last[1]) { last[1] = piece.end; } else { out.push([piece.start, piece.end]); }
  });
  return out;
}


/** About `size` words of the abstract around its first highlighted word. */
function snippet(text, terms, size) {
  const all = marks(text, terms);
  const spans = [];
  const re = pattern("snippet");
  let m;
  re.lastIndex = 0;
  while ((m = re.exec(text)) !== null) { spans.push([m.index, m.index + m[0].length]); }
  if (!spans.length) { return { text: "", marks: [] }; }
  const first = all.length ? spans.findIndex((s) => { return s[1] > all[0][0]; }) : 0;
  const from = Math.max(0, Math.min(first - Math.floor(size / 4), spans.length - size));
  const to = Math.min(spans.length, from + size);
  const start = spans[from][0];
  const body = text.slice(start, spans[to - 1][1]);
  const prefix = from > 0 ? "\u2026 " : "";
  const shift = prefix.length - start;
  return {
    text: prefix + body + (to < spans.length ? " \u2026" : ""),
    marks: all.filter((r) => { return r[0] >= start && r[1] <= spans[to - 1][1]; })
      .map((r) => { return [r[0] + shift, r[1] + shift]; })
  };
}

function present(result, d) {
  const terms = {};
  Object.keys(result.terms).forEach((t) => { terms[t] = true; });
  const s = snippet(d.text, terms, 32);
  return {
    ref: result.ref, title: d.title, url: d.url, authors: d.authors, tags: d.tags, venue: d.venue,
    year: d.year, titleMarks: marks(d.title, terms), snippet: s.text, snippetMarks: s.marks
  };
}

/* ---- facets ------------------------------------------------------------------------------ */

/** Whether a result's paper has every tag, and the venue and year, of the filters. */
function filterer(filters) {
  const tags = (filters.tags || []).map((t) => { return meta.tags.indexOf(t); });
  return (result) => {
    const p = meta.papers[Number(result.ref)];
    return tags.every((t) => { return p[0].indexOf(t) >= 0; }) &&
      (!filters.venue || meta.venues[p[1]] === filters.venue) &&
      (!filters.year || String(p[2]) === String(filters.year));
  };
}

/** [name, count] of the values counted (a Map, or an array by number), most first, then by name. */
function byCount(counts, name) {
  const out = [];
  counts.forEach((n, value) => { if (n) { out.push([name(value), n]); } });
  return out.sort((a, b) => { return b[1] - a[1] || String(a[0]).localeCompare(String(b[0])); });
}

/** meta.papers as typed arrays by paper number: each paper's tags (from tagStarts[n] to
    tagStarts[n + 1]), venue and year (a number in `years`). Counting a broad query's facets
    then reads a few small arrays instead of 10,000 scattered ones. */
function facetTable(papers) {
  let tagStarts = new Int32Array(papers.length + 1), size = 0;
  papers.forEach((p, n) => { size += p[0].length; tagStarts[n + 1] = size; });
  const tags = new Int32Array(size), venue = new Int32Array(papers.length);
  const year = new Int32Array(papers.length), years = [], yearNumber = new Map();
  papers.forEach((p, n) => {
    tags.set(p[0], tagStarts[n]);
    venue[n] = p[1];
    if (!yearNumber.has(p[2])) { yearNumber.set(p[2], years.length); years.push(p[2]); }
    year[n] = yearNumber.get(p[2]);
  });
  return { tagStarts: tagStarts, tags: tags, venue: venue, year: year, years: years };
}

let table = null;

function facets(results) {
  table = table || facetTable(meta.papers);
  const tags = new Int32Array(meta.tags.length), venues = new Int32Array(meta.venues.length);
  const yearCounts = new Int32Array(table.years.length);
  for (let r = 0; r < results.length; r++) {
    const n = Number(results[r].ref);
    for (let i = table.tagStarts[n]; i < table.tagStarts[n + 1]; i++) { tags[table.tags[i]]++; }
    if (table.venue[n] >= 0) { venues[table.venue[n]]++; }
    yearCounts[table.year[n]]++;
  }
  const years = new Map();
  yearCounts.forEach((count, i) => { if (count) { years.set(table.years[i], count); } });
  return {
    tags: byCount(tags, (i) => { return meta.tags[i]; }),
    venues: byCount(venues, (i) => { return meta.venues[i]; }),
    years: byCount(years, String)
  };
}

function search(msg) {
  const parsed = DigestQuery.parseQuery(msg.q);
  const filters = msg.filters || {};
  const hasFilters = (filters.tags && filters.tags.length) || filters.venue || filters.year;
  const ranked = parsed.clauses.length ? rank(parsed) : { results: hasFilters ? everyPaper() : [], plan: null };
  const offset = msg.offset || 0;
  return phraseFilter(parsed, ranked.results).then((results) => {
    if (hasFilters) { results = results.filter(filterer(filters)); }
    const page = results.slice(offset, offset + (msg.limit || 20));
    return loadDocs(page.map(refOf)).then((docs) => {
      return {
        type: "results", id: msg.id, total: results.length, offset: offset,
        results: page.map((r, i) => { return present(r, docs[i]); }),
        facets: facets(results), searched: searched(msg.q, ranked.plan, docs)
      };
    });
  });
}

self.onmessage = (event) => {
  const msg = event.data;
  Promise.resolve().then(() => {
    return msg.type === "scripts" ? warmUp(msg) : msg.type === "init" ? init(msg) : search(msg);
  }).then((reply) => { self.postMessage(reply); }, (error) => {
    self.postMessage({ type: "error", id: msg.id, message: String(error && error.message || error) });
  });
};
