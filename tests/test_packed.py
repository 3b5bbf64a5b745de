import json

import numpy as np
import pytest
from lunr.index import Index

from factories import make_paper
from generator.search.packed import FORMAT, number_text, pack, packed_json, text_numbers, unpack
from generator.search.documents import to_json
from generator.search.index import build_index
from lunrpy import lunr_py_index_of


def sample_papers():
    return tuple(make_paper(str(i), title=f"Exact unlearning {i}", authors=("Ada", f"B{i}"),
                            tags=["llm"] if i % 2 else [], abstract_text=f"word{i} shared text",
                            notes_text="noted" if i == 3 else "")
                 for i in range(12))


def test_unpack_gives_back_exactly_what_lunr_py_serialises():
    papers = sample_papers()
    assert unpack(pack(build_index(papers))) == lunr_py_index_of(papers)


def test_packed_index_is_json_and_smaller():
    papers = sample_papers()
    packed = pack(build_index(papers))
    assert packed["format"] == FORMAT
    assert len(json.dumps(packed)) < len(json.dumps(lunr_py_index_of(papers))) / 2


def test_an_unpacked_index_answers_like_lunr_py_s_own():
    papers = sample_papers()
    ours, theirs = Index.load(unpack(pack(build_index(papers)))), Index.load(lunr_py_index_of(papers))
    for query in ("unlearning", "word3", "noted", "llm", "shar*"):
        assert ours.search(query) == theirs.search(query)


def test_pack_sends_each_field_s_term_counts_and_nothing_derived():
    packed = pack(build_index((make_paper("0", title="alpha alpha", abstract_text="beta"),)))
    assert packed["terms"] == ["alpha", "ada", "lovelace", "beta"]  # why: a name is not stemmed
    # [n, term-number deltas, (place, count) of counts above 1]: title, authors, tags (empty),
    # abstract, notes
    assert [text_numbers(v) for v in packed["vectors"]] == [[1, 0, 0, 2], [2, 1, 1], [0], [1, 3], [0]]
    assert "postings" not in packed and packed["documents"] == 1


@pytest.mark.parametrize("papers", [
    sample_papers(), (), (make_paper("0", title="", authors=(), abstract_text=""),),
    (make_paper("0", title="a b c", abstract_text="z " * 3000), make_paper("1", title="c d")),
    (make_paper("0", title="graph graph net learn learn learn", abstract_text="net " * 5 + "graph"),
     make_paper("1", title="net", abstract_text="learn learn"))],
    ids=["sample", "no papers", "no terms", "large numbers", "counts above 1"])
def test_packed_json_is_the_packed_index_as_json(papers):
    built = build_index(papers)
    assert packed_json(built) == to_json(pack(built))
    if papers:  # why: lunr.py itself cannot index no documents
        assert unpack(json.loads(packed_json(built))) == lunr_py_index_of(papers)


def test_unpack_refuses_vectors_that_do_not_match_the_documents():
    packed = pack(build_index(sample_papers()))
    packed["vectors"].pop()
    with pytest.raises(ValueError, match="vectors for 12 documents"):
        unpack(packed)


@pytest.mark.parametrize("vector", [[2, 3], [2, 3, 1, 0], [2, 3, 0], [2, 3, 1, 2, 5],
                                    [2, 3, 1, 1, 5, 1, 3], [2, 3, 1, 1, 5, 0, 3], [2, 3, 1, 0, 1]],
                         ids=["short", "half a pair", "a term twice", "no such place",
                              "a place twice", "places out of order", "a count of 1 listed"])
def test_unpack_refuses_a_vector_pack_would_not_write(vector):
    packed = pack(build_index(sample_papers()))
    packed["vectors"][1] = number_text(vector)  # why: the first paper's authors
    with pytest.raises(ValueError, match="malformed vector"):
        unpack(packed)


@pytest.mark.parametrize("text", ["", "^", "#^", "]#", "#~", '#"'],
                         ids=["no numbers", "unfinished", "unfinished after a number",
                              "a leading zero", "a stray character", "a quote"])
def test_unpack_refuses_a_vector_string_number_text_would_not_write(text):
    packed = pack(build_index(sample_papers()))
    packed["vectors"][1] = text
    with pytest.raises(ValueError):
        unpack(packed)


@pytest.mark.parametrize("change", ["a term twice", "terms out of order", "an unknown term",
                                    "a count of 0", "counts past an int32"])
def test_pack_refuses_an_index_the_readers_cannot_hold(change):
    built = build_index(sample_papers())
    vector = int(np.flatnonzero(built.lengths > 1)[0])
    at = int(built.lengths[:vector].sum())  # why: that vector's first term
    if change == "a term twice":
        built.numbers[at + 1] = built.numbers[at]
    elif change == "terms out of order":
        built.numbers[at], built.numbers[at + 1] = built.numbers[at + 1], built.numbers[at]
    elif change == "an unknown term":
        built.numbers[at + 1] = len(built.terms)
    elif change == "a count of 0":
        built.counts[at] = 0
    else:
        built.counts[at] = 2 ** 31 - 1
    for write in (pack, packed_json):
        with pytest.raises(ValueError):
            write(built)


@pytest.mark.parametrize("text", ["^^^^^^^#", "_]]]]]#", "~"],
                         ids=["seven digits", "2**31", "not a digit"])
def test_text_numbers_refuses_what_number_text_would_not_write(text):
    with pytest.raises(ValueError):
        text_numbers(text)


@pytest.mark.parametrize("number", [0, 1, 31, 32, 1023, 1024, 5000, 2 ** 31 - 1])
def test_numbers_are_written_in_as_few_digits_as_they_need_and_read_back(number):
    text = number_text([number, 7])
    assert text_numbers(text) == [number, 7]
    assert len(text) == 1 + max(1, -(-number.bit_length() // 5))
