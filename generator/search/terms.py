"""The words of a paper that search finds: its text per field, as lunr makes terms of it.

The index is built from these terms (lunrindex.py)."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter

from lunr.stemmer import porter_stemmer
from lunr.stop_word_filter import WORDS as STOP_WORDS
from lunr.tokenizer import SEPARATOR_CHARS
from lunr.trimmer import full_re

from ..model.languages import CJK_RANGES
from ..model.records import Paper
from ..model.slugs import LATIN_LETTERS

FIELDS = (("title", 10), ("authors", 5), ("tags", 5), ("abstract", 1), ("notes", 1))
"""The indexed fields, in search_texts() order, with their boosts."""
NAME_FIELDS = frozenset({"authors", "tags"})
"""Fields of names, indexed as names: folded, never stemmed nor dropped as stop words, so that
`choy` is not `Choi`, an author `He` or an initial `A` is kept (static/search/worker.js asks
them alike)."""
# why: letters NFKD does not take apart, spelt as slugs spell them; static/search/query.js's
# fold() has the same table (tests/test_js_parity.py holds them equal)
_UNFOLDED = LATIN_LETTERS
# why: CJK_RANGES (model/languages.py) are the characters cut into bigrams (cut_cjk). Only
# letters and digits get here (index_text), so whole blocks are safe.
_CJK_RUN = re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in CJK_RANGES) + "]+")
# why: lunr.py keeps tokens with inner punctuation whole ('e.g.,', '$\texttt{x}$') while
# lunr.js strips it, so the browser could not find them; index only letters and digits.
_WORD = re.compile(r"[^\W_]+")


def index_text(text: str) -> str:
    """Text reduced to words (letters and digits) separated by single spaces, as both lunr.py
    and lunr.js see it."""
    return " ".join(_WORD.findall(text))


def cjk_grams(run: str) -> list[str]:
    """A run of CJK characters as it is indexed: its overlapping bigrams (知识蒸馏 -> 知识 识蒸
    蒸馏), or the character itself when the run has one."""
    return [run[i:i + 2] for i in range(len(run) - 1)] or ([run] if run else [])


def cut_cjk(words: str) -> str:
    """index_text()'s words with every run of CJK characters cut into its cjk_grams(), apart
    from the letters around it (LLM的知识蒸馏 -> LLM 的知 知识 识蒸 蒸馏): Chinese and Japanese
    put no space between words, so a word is found by any two characters of it. Text without
    CJK is returned as it is."""
    if not _CJK_RUN.search(words):
        return words
    cut = _CJK_RUN.sub(lambda run: " " + " ".join(cjk_grams(run[0])) + " ", words)
    return " ".join(filter(None, cut.split(" ")))


def fold(text: str) -> str:
    """Text with its accents taken off (Schölkopf -> Scholkopf, Arandjelović -> Arandjelovic),
    as names are indexed and asked for."""
    parts = unicodedata.normalize("NFKD", text.translate(_UNFOLDED))
    return "".join(c for c in parts if unicodedata.category(c) != "Mn")


def search_texts(paper: Paper) -> list[str]:
    """The text lunr indexes for one paper, one string per field of FIELDS: its words (index_text),
    runs of CJK characters cut into bigrams (cut_cjk); names folded first."""
    return [cut_cjk(index_text(text)) for text in (
        paper.title_text, fold(" ".join(paper.authors)), fold(" ".join(tag.name for tag in paper.tags)),
        paper.abstract_text, paper.notes_text)]


def paper_terms(paper: Paper) -> tuple[FieldTerms, ...]:
    """The terms lunr indexes for one paper, counted, per field of FIELDS: document_terms() of
    its search_texts(), name fields as names. Their words are letters and digits between single spaces, so lunr's
    tokenizer (split on spaces and hyphens) is a split on spaces."""
    return tuple(_field_terms(words.lower().split(" "), name in NAME_FIELDS)
                 for (name, _), words in zip(FIELDS, search_texts(paper)))


_SEPARATORS = re.compile("[" + re.escape(SEPARATOR_CHARS) + "]+")


# why: a memo of a pure function, as lunr stems each word again every time it meets it: a
# digest of 10,000 papers has 1.2 million words and ~40,000 distinct ones (stemming every one
# took ~8 s); bounded, so a long-running preview server does not grow without end
@functools.lru_cache(maxsize=1 << 18)
def term(word: str) -> str | None:
    """What lunr's default pipeline (trimmer, stop-word filter, stemmer) makes of a word; None
    for no term."""
    match = full_re.match(word)
    trimmed = match.group(1) if match else word
    # why: None, never "", for no term (the stemmer makes none empty): _field_terms drops what
    # is false
    return None if not trimmed or trimmed in STOP_WORDS else porter_stemmer.stem(trimmed) or None


FieldTerms = tuple[str, tuple[int, ...]]
"""One field's terms, joined by spaces in first-seen order (as lunr's dict keeps them), and
their counts. A term never holds a space (spaces separate words)."""


def name_term(word: str) -> str | None:
    """What lunr's pipeline, with the stop-word filter and the stemmer skipped for names,
    makes of a word of a name field; None for no term."""
    match = full_re.match(word)
    return (match.group(1) if match else word) or None


def document_terms(texts: list[str | None],
                   names: tuple[bool, ...] = ()) -> tuple[FieldTerms, ...]:
    """What lunr indexes of one document, given one text per field, `names` saying which are
    name fields: the per-document half of the index build."""
    return tuple(_field_terms(_SEPARATORS.split(text.lower()), n < len(names) and names[n])
                 if text is not None else ("", ()) for n, text in enumerate(texts))


def _field_terms(words: list[str], names: bool = False) -> FieldTerms:
    """The terms of one field's lowercased words, counted, in first-seen order."""
    # why: map over the memo keeps the loop in C; only words not met before run Python
    counter = Counter(filter(None, map(name_term if names else term, words)))
    return " ".join(counter), tuple(counter.values())


class Numbering(dict):
    """Words numbered in the order they first come: `map(numbering.__getitem__, words)` numbers
    a million words in C, calling __missing__ only for the first of each."""

    def __missing__(self, word: str) -> int:
        number = self[word] = len(self)
        return number
