import json

from lunr.index import Index

from factories import make_paper
from generator.lunrpack import FORMAT, pack, unpack
from generator.search import build_index


def sample_index():
    papers = tuple(make_paper(str(i), title=f"Exact unlearning {i}", authors=("Ada", f"B{i}"),
                              tags=["llm"] if i % 2 else [], abstract_text=f"word{i} shared text",
                              notes_text="noted" if i == 3 else "")
                   for i in range(12))
    return build_index(papers)


def test_unpack_gives_back_exactly_what_lunr_py_serialised():
    index = sample_index()
    assert unpack(pack(index)) == index


def test_packed_index_is_json_and_smaller():
    index = sample_index()
    packed = pack(index)
    assert packed["format"] == FORMAT
    assert len(json.dumps(packed)) < len(json.dumps(index)) / 2


def test_an_unpacked_index_answers_like_the_original():
    index = sample_index()
    for query in ("unlearning", "word3", "noted", "llm", "shar*"):
        assert Index.load(unpack(pack(index))).search(query) == Index.load(index).search(query)


def test_pack_leaves_empty_fields_out_of_postings():
    packed = pack(build_index((make_paper("0", title="alpha", abstract_text="beta"),)))
    assert packed["terms"] == ["alpha", "ada", "lovelac", "beta"]
    assert packed["postings"] == [[0, 1, 0], [1, 1, 0], [1, 1, 0], [3, 1, 0]]
