import json
import random

from lunr.index import Index

from factories import make_paper, make_site
from generator.lunrbuild import TermIds
from generator.lunrpack import pack, packed_json, unpack
from generator.searchindex import build_index, index_sizes, keep_term_ids, kept_term_ids, search_files


def test_build_index_ranks_a_title_match_above_an_abstract_match():
    papers = (make_paper("a", title="Other", abstract_text="unlearning is mentioned"),
              make_paper("b", title="Exact Unlearning", abstract_text="nothing"))
    index = Index.load(unpack(pack(build_index(papers))))
    assert [r["ref"] for r in index.search("unlearning")] == ["1", "0"]


def test_build_index_searches_authors_tags_and_notes():
    papers = (make_paper("a", authors=("Orion Weller",), tags=["retrieval"], notes_text="insightful read"),)
    index = Index.load(unpack(pack(build_index(papers))))
    for query in ("weller", "retrieval", "insightful"):
        assert [r["ref"] for r in index.search(query)] == ["0"]


def test_search_files_writes_the_index_facets_and_a_text_only_doc_store():
    site = make_site([make_paper("x", title="<b>T</b>", tags=["llm"], venue="ICLR 2025")])
    index, meta, docs = search_files(site)
    assert (index.path, meta.path, docs.path) == (
        "search/index.json", "search/meta.json", "search/docs/0.json")
    assert json.loads(index.data)["version"] == "2.3.9"
    assert json.loads(meta.data) == {"chunk": 25, "tags": ["llm"], "venues": ["ICLR 2025"],
                                     "papers": [[[0], 0, 2025]]}
    assert json.loads(docs.data) == [{"title": "<b>T</b>", "url": "/digest/papers/x/",
                                      "authors": ["Ada Lovelace"], "tags": ["llm"],
                                      "venue": "ICLR 2025", "year": 2025,
                                      "text": "We study things."}]


def test_index_sizes_counts_what_is_fetched_before_the_first_answer():
    files = search_files(make_site([make_paper("x")]))
    raw, gzipped = index_sizes(files)
    assert raw == len(files[0].data) + len(files[1].data)
    assert 0 < gzipped < raw


def test_search_files_are_deterministic():
    site = make_site([make_paper(str(i), title=f"Paper {i}") for i in range(5)])
    assert search_files(site) == search_files(site)


def keyed_paper(slug, title, abstract):
    """A paper with a source_key that changes with its text, as a checked paper's does."""
    return make_paper(slug, title=title, abstract_text=abstract, source_key=f"{slug}|{title}|{abstract}")


def test_an_index_built_with_the_last_build_s_term_ids_is_the_same_as_a_fresh_one(tmp_path):
    rng = random.Random(7)
    words = [f"w{n}" for n in range(80)]

    def text():
        return " ".join(rng.choices(words, k=rng.randint(0, 12)))
    papers = [keyed_paper(f"p{i}", text(), text()) for i in range(30)]
    edits = [
        lambda ps: [keyed_paper("p0", "a brand new word", ps[0].abstract_text)] + ps[1:],
        lambda ps: [keyed_paper("new", text(), text())] + ps,  # every ref moves
        lambda ps: ps[:5] + ps[6:],
        lambda ps: list(reversed(ps)),
        lambda ps: ps[:3] + [keyed_paper("p3", "", "")] + ps[4:],
    ]
    kept = tmp_path / "terms.pickle"
    for edit in [lambda ps: ps] + edits:
        papers = edit(papers)
        term_ids = kept_term_ids(kept)
        assert packed_json(build_index(tuple(papers), term_ids)) == packed_json(build_index(tuple(papers)))
        keep_term_ids(term_ids, kept)
    assert kept_term_ids(kept).kept  # the papers' term ids were kept


def test_unreadable_kept_term_ids_are_none(tmp_path):
    (tmp_path / "terms.pickle").write_bytes(b"junk")
    assert kept_term_ids(tmp_path / "terms.pickle") == TermIds()
    assert kept_term_ids(None) == TermIds()


def test_kept_term_ids_start_afresh_once_terms_no_longer_used_outnumber_the_rest(tmp_path):
    kept, met = tmp_path / "terms.pickle", []
    for round in range(4):
        papers = (keyed_paper("p", f"round{round}", " ".join(f"x{round}y{n}" for n in range(800))),)
        term_ids = kept_term_ids(kept)
        build_index(papers, term_ids)
        keep_term_ids(term_ids, kept)
        met.append(len(kept_term_ids(kept).terms))
    # 803 terms in use (the author adds two), 801 new each round: 3,206 met by the fourth
    # round, over 2 x 803 + 1,000
    assert met == [803, 1604, 2405, 0]
