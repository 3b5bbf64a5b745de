"""Related papers: for each paper, the few others that share most of its telling terms and tags.

A paper is a vector of TF-IDF weights over the search terms of its title and abstract (the
index's own: lunr's stemmer and stop words, Chinese as bigrams; see terms.py), less the words
every abstract uses, and its tags, each tag counted as a term written TAG_REPEATS times; two
papers are as related as the cosine of their vectors. A term or tag in more than COMMON_SHARE
of the papers (and more than COMMON_FLOOR) tells little and would pair nearly every paper with
every other, so it is left out, as a stop word is. Each paper is matched by its TERMS_MATCHED
heaviest terms through an inverted index in numpy: the work grows with the pairs of papers
that share such a term, not with the square of the digest.
"""

from __future__ import annotations

import itertools
from typing import Iterable, Sequence

from ..model.lazy import library
from ..model.records import Paper
from .terms import FIELDS, FieldTerms, Numbering, term

np = library("numpy")

RELATED = 5
"""Related papers shown on a paper's page, at most."""
TAG_REPEATS = 3
"""A shared tag counts as much as a shared word written this many times: the curator chose it."""
COMMON_SHARE = 0.05
COMMON_FLOOR = 20
"""A term in more papers than both COMMON_SHARE of them and COMMON_FLOOR is left out."""
TERMS_MATCHED = 12
"""A paper is matched with others by its this many heaviest terms only: they hold most of its
weight, and the rest would multiply the pairs to sum for little."""
PAIRS_PER_BLOCK = 4_000_000
"""Pairs of (paper, paper sharing a term) summed at once: bounds the memory the scoring takes."""

BOILERPLATE = frozenset(filter(None, map(term, """
a about above after again against all also although among an and any are as at be because
been before being below between both but by can could did do does doing done down during each
either et etc few for from further had has have having here how however i if in into is it its
itself just may might more most much must no nor not now of off on once one only or other our
ours out over own per same several should since so some such than that the their theirs them
then there these they this those through thus to too two under until up upon us use used uses
using very via was we were what when where whether which while who whom why will with within
without would yet you your
paper papers propose proposed proposes present presents presented show shows shown study
studies approach approaches method methods result results work works novel new based
demonstrate demonstrates experiment experiments existing well often first across achieve
achieves provide provides introduce introduces further different significant significantly
""".split())))
"""English function words (lunr's stop words leave some in) and the words every abstract uses
('we propose a novel method'), as the terms they index as."""
_FIELD = {name: number for number, (name, _) in enumerate(FIELDS)}
_TITLE, _ABSTRACT = _FIELD["title"], _FIELD["abstract"]


Telling = tuple[str, tuple[str, ...], FieldTerms, FieldTerms]
"""What related_papers() reads of a paper: its slug, its tags' slugs and the terms of its title
and abstract. The process aside makes these from the papers' slugs and tags and their terms,
which it reads from the cache itself (building/cache.py's KeptResults)."""


def tagged(papers: Sequence[Paper]) -> list[tuple[str, tuple[str, ...]]]:
    """Each paper's slug and its tags' slugs, as telling() is given them."""
    return [(paper.slug, tuple(tag.slug for tag in paper.tags)) for paper in papers]


def telling(papers: Sequence[tuple[str, tuple[str, ...]]],
            terms: Sequence[tuple[FieldTerms, ...]]) -> list[Telling]:
    """What related_papers() reads of each of `papers` (tagged() of each), given their
    paper_terms() in order."""
    return [(slug, tags, fields[_TITLE], fields[_ABSTRACT])
            for (slug, tags), fields in zip(papers, terms)]


def related_papers(papers: Sequence[Telling], limit: int = RELATED) -> dict[str, tuple[str, ...]]:
    """Up to `limit` related papers of each of `papers` (telling() of each), by slug, most
    related first; ties go to the smaller slug. A paper that shares no telling term or tag with
    any other has none."""
    ordered = sorted(papers, key=lambda paper: paper[0])
    slugs = [slug for slug, *_ in ordered]
    docs, terms, tf, _ = telling_words(ordered)
    docs, terms, weights = _weights(docs, terms, tf, len(ordered))
    if not len(docs):
        return {slug: () for slug in slugs}
    found: dict[str, tuple[str, ...]] = {}
    by_term = np.argsort(terms, kind="stable")
    starts = np.searchsorted(terms[by_term], np.arange(terms.max() + 2))
    postings = (docs[by_term], weights[by_term], starts)
    doc_starts = np.searchsorted(docs, np.arange(len(slugs) + 1))
    pairs_of_doc = np.bincount(docs, np.diff(starts)[terms], minlength=len(slugs))
    for first, last in _blocks(pairs_of_doc.tolist()):
        pairs = _block_scores(first, last, doc_starts, terms, weights, postings)
        for row, columns in _top(*pairs, limit):
            found[slugs[row]] = tuple(slugs[column] for column in columns)
    return {slug: found.get(slug, ()) for slug in slugs}


def telling_words(papers: Sequence[Telling]
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """(paper, term, count) of each paper's telling words, paper by paper, then by term, and the
    words the term numbers stand for, sorted. A paper is given as telling() gives it; its words
    are the terms of its title and abstract, less the words every abstract uses, and its tags
    ('#slug', which no term can be, counted TAG_REPEATS times)."""
    fields = [(title, abstract) for _, _, title, abstract in papers]
    tags = [[f"#{tag}" for tag in tag_slugs] for _, tag_slugs, _, _ in papers]
    # why: the papers' words numbered as they come, field by field, in C, then renumbered in
    # sorted order: a million words are neither all held at once (~50 MB) nor sorted
    numbering = Numbering()
    lengths = [len(t) + len(a) for (_, t), (_, a) in fields]
    first = np.fromiter(itertools.chain.from_iterable(
        map(numbering.__getitem__, words.split()) for field in fields for words, _ in field),
        np.int32, sum(lengths))
    tagged = list(itertools.chain.from_iterable(tags))
    first = np.concatenate([first, np.fromiter(map(numbering.__getitem__, tagged), np.int32,
                                               len(tagged))])
    vocabulary = sorted(numbering)
    # why: 32-bit numbers (a million each at 10,000 papers), for the process's peak
    rank = np.empty(len(vocabulary), np.int32)
    rank[np.fromiter(map(numbering.__getitem__, vocabulary), np.int64, len(vocabulary))] = \
        np.arange(len(vocabulary))
    terms = rank[first]
    del first
    everyone = np.arange(len(papers), dtype=np.int32)
    docs = np.concatenate([np.repeat(everyone, lengths),
                           np.repeat(everyone, [len(paper_tags) for paper_tags in tags])])
    tf = np.concatenate([
        np.fromiter(itertools.chain.from_iterable(counts for field in fields for _, counts in field),
                    np.float64, len(terms) - len(tagged)),
        np.full(len(tagged), TAG_REPEATS, np.float64)])
    # why: each distinct word is judged once, not each time a paper has it
    telling = np.array([not (w in BOILERPLATE or w.isdigit()) for w in vocabulary], bool)
    kept = telling[terms]
    # a word in both the title and the abstract is one term, its counts summed
    width = max(len(vocabulary), 1)
    pairs, summed = np.unique(docs[kept].astype(np.int64) * width + terms[kept],
                              return_inverse=True)
    return pairs // width, pairs % width, np.bincount(summed, tf[kept], len(pairs)), vocabulary


def _weights(docs: np.ndarray, terms: np.ndarray, tf: np.ndarray, papers: int
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(paper, term, weight) of the terms each paper is matched by, paper by paper: TF-IDF
    weights, each paper's vector of unit length, its TERMS_MATCHED heaviest shared terms.
    `papers` counts them all, those without a telling word too."""
    df = np.bincount(terms)
    common = max(COMMON_FLOOR, COMMON_SHARE * papers)
    # why: a smoothed idf, so a term in every paper of a small digest still counts a little
    weight = (1 + np.log(tf)) * np.log1p(papers / df[terms]) * (df[terms] <= common)
    norms = np.sqrt(np.bincount(docs, weight * weight, minlength=papers))
    weight = weight / np.where(norms > 0, norms, 1)[docs]
    shared = np.flatnonzero((df[terms] >= 2) & (df[terms] <= common))
    heaviest = shared[_heaviest(docs[shared], weight[shared], TERMS_MATCHED)]
    # why: renumbered densely, so the postings' index has no empty rows for unmatched terms
    _, dense = np.unique(terms[heaviest], return_inverse=True)
    return docs[heaviest], dense.astype(np.int64), weight[heaviest]


def _heaviest(docs: np.ndarray, weights: np.ndarray, count: int) -> np.ndarray:
    """Indexes of each paper's `count` heaviest entries (the earlier first among equals to
    DECIMALS places), in paper order; `docs` ascending."""
    order = _by_group_then_largest(docs, weights)
    first_of_doc = np.searchsorted(docs[order], docs[order])
    kept = order[np.arange(len(order)) - first_of_doc < count]
    return np.sort(kept)


def _blocks(pairs_of_doc: list[float]) -> Iterable[tuple[int, int]]:
    """Runs of papers (first, last + 1) whose pairs to sum stay near PAIRS_PER_BLOCK."""
    first, total = 0, 0
    for doc, pairs in enumerate(pairs_of_doc):
        if total and total + pairs > PAIRS_PER_BLOCK:
            yield first, doc
            first, total = doc, 0
        total += pairs
    yield first, len(pairs_of_doc)


def _block_scores(first: int, last: int, doc_starts: np.ndarray, terms: np.ndarray,
                  weights: np.ndarray, postings: tuple[np.ndarray, np.ndarray, np.ndarray]
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(paper, other paper, cosine) of every pair sharing a term, for papers first..last-1."""
    posting_docs, posting_weights, starts = postings
    entries = slice(doc_starts[first], doc_starts[last])
    own_terms, own_weights = terms[entries], weights[entries]
    own_docs = np.repeat(np.arange(first, last), np.diff(doc_starts[first:last + 1]))
    lengths = starts[own_terms + 1] - starts[own_terms]
    # why: for each entry, the positions of its term's postings: a ragged arange
    offsets = np.repeat(starts[own_terms] - (np.cumsum(lengths) - lengths), lengths)
    positions = offsets + np.arange(int(lengths.sum()))
    rows, columns = np.repeat(own_docs, lengths), posting_docs[positions]
    products = np.repeat(own_weights, lengths) * posting_weights[positions]
    others = rows != columns
    keys = rows[others] * len(doc_starts) + columns[others]
    unique, summed = np.unique(keys, return_inverse=True)
    scores = np.bincount(summed, products[others], minlength=len(unique))
    return unique // len(doc_starts), unique % len(doc_starts), scores


def _top(rows: np.ndarray, columns: np.ndarray, scores: np.ndarray, limit: int
         ) -> Iterable[tuple[int, list[int]]]:
    """Each row's `limit` best columns, best first, the smaller column first among equals;
    the pairs given by row, then by column (as _block_scores gives them)."""
    order = _by_group_then_largest(rows, scores)
    rows, columns = rows[order], columns[order]
    rank = np.arange(len(rows)) - np.searchsorted(rows, rows)
    rows, columns = rows[rank < limit], columns[rank < limit].tolist()
    starts = np.flatnonzero(np.diff(rows, prepend=-1)).tolist()
    for row, start, end in zip(rows[starts].tolist(), starts, starts[1:] + [len(columns)]):
        yield row, columns[start:end]


DECIMALS = 9
"""Places to which weights and scores are compared: sums taken in another order differ in their
last bits, and rounded, equal ones tie."""
_ONE_KEY_GROUPS = 1 << 18


def _by_group_then_largest(groups: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Indexes in order of `groups` (ascending, as given), then of `values` in [0, 1], largest
    first to DECIMALS places; those equal so keep their order (a stable sort)."""
    rounded = np.round(values, DECIMALS)
    if len(groups) and groups[-1] < _ONE_KEY_GROUPS:
        # why: one float sort, ~10x faster than lexsort: groups 4 apart each hold 1 - value, and
        # below 2^18 groups the sum's last bit (~1e-10) keeps values 1e-9 apart apart
        return np.argsort(groups * 4.0 + (1.0 - rounded), kind="stable")
    return np.lexsort((-rounded, groups))
