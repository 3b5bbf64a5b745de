"""Related papers: for each paper, the few others that share most of its telling terms and tags.

A paper is a vector of TF-IDF weights over the search terms of its title and abstract (the
index's own: lunr's stemmer and stop words, Chinese as bigrams; see terms.py), less the words
every abstract uses, and its tags, each tag counted as a term written TAG_REPEATS times; two
papers are as related as the cosine of their vectors. A term or tag in more than COMMON_SHARE
of the papers (and more than COMMON_FLOOR) tells little and would pair nearly every paper with
every other, so it is left out, as a stop word is. Each paper is matched by its TERMS_MATCHED
heaviest terms through an inverted index in numpy: the work grows with the pairs of papers
that share such a term, not with the square of the digest. The words are read from the search
index built of the papers (lunrindex.py's BuiltIndex), which has numbered each of them already.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..model.lazy import library
from ..model.records import Paper
from .lunrindex import BuiltIndex
from .terms import term

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


def tagged(papers: Sequence[Paper]) -> list[tuple[str, tuple[str, ...]]]:
    """Each paper's slug and its tags' slugs, as related_papers() is given them."""
    return [(paper.slug, tuple(tag.slug for tag in paper.tags)) for paper in papers]


def related_papers(index: BuiltIndex, papers: Sequence[tuple[str, tuple[str, ...]]],
                   limit: int = RELATED) -> dict[str, tuple[str, ...]]:
    """Up to `limit` related papers of each paper of the search `index`, by slug, most related
    first; ties go to the smaller slug. `papers`: tagged() of the index's documents, in its
    order. A paper that shares no telling term or tag with any other has none."""
    by_slug = sorted(range(len(papers)), key=lambda ref: papers[ref][0])
    slugs = [papers[ref][0] for ref in by_slug]
    numbers = np.empty(len(papers), np.int32)
    numbers[by_slug] = np.arange(len(papers))
    docs, terms, tf, _ = telling_words(index, [tags for _, tags in papers], numbers)
    docs, terms, weights = _weights(docs, terms, tf, len(slugs))
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


def telling_words(index: BuiltIndex, tags: Sequence[tuple[str, ...]], numbers: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """(paper, term, count) of each paper's telling words, paper by paper, then by term, and the
    words the term numbers stand for, sorted. The papers are the search `index`'s documents,
    `numbers` the number each is given here (by ref), `tags` their tags' slugs; a paper's words
    are the terms of its title and abstract in the index, less the words every abstract uses,
    and its tags ('#slug', which no term can be, counted TAG_REPEATS times)."""
    assert index.documents == len(tags) == len(numbers)
    # why: the index has numbered every word of every field already (lunrindex.py): its title
    # and abstract vectors are these words; numbering them again took ~0.4 s at 10,000 papers
    width = len(index.fields)
    vectors = np.arange(len(index.lengths))
    wanted = np.isin(vectors % width, [index.fields.index("title"), index.fields.index("abstract")])
    in_text = np.repeat(wanted, index.lengths)
    tag_words = [f"#{tag}" for paper_tags in tags for tag in paper_tags]
    words = index.terms + sorted(set(tag_words))
    tag_number = {word: n for n, word in enumerate(words[len(index.terms):], len(index.terms))}
    order = sorted(range(len(words)), key=words.__getitem__)
    vocabulary = [words[n] for n in order]
    # why: 32-bit numbers (a million each at 10,000 papers), for the process's peak
    rank = np.empty(len(words), np.int32)
    rank[order] = np.arange(len(words))
    numbers = numbers.astype(np.int32)
    docs = np.concatenate([np.repeat(numbers[vectors[wanted] // width], index.lengths[wanted]),
                           np.repeat(numbers, [len(paper_tags) for paper_tags in tags])])
    terms = np.concatenate([rank[index.numbers[in_text]], rank[np.fromiter(
        map(tag_number.__getitem__, tag_words), np.int64, len(tag_words))]])
    tf = np.concatenate([index.counts[in_text], np.full(len(tag_words), TAG_REPEATS)],
                        dtype=np.float64)
    del in_text
    # why: each distinct word is judged once, not each time a paper has it
    telling = np.array([not (w in BOILERPLATE or w.isdigit()) for w in vocabulary], bool)
    kept = telling[terms]
    # a word in both the title and the abstract is one term, its counts summed
    width = max(len(vocabulary), 1)
    # why: 32-bit keys while they fit (to ~35,000 papers): np.unique's copies are the peak
    key_type = np.int32 if len(tags) * width < _KEYS_32_BITS_BELOW else np.int64
    pairs, summed = np.unique(docs[kept].astype(key_type) * width + terms[kept],
                              return_inverse=True)
    return pairs // width, pairs % width, np.bincount(summed, tf[kept], len(pairs)), vocabulary


_KEYS_32_BITS_BELOW = 2**31


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
