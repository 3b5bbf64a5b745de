import gzip
import json

from lunr.index import Index

from factories import make_paper, make_site
from generator.search.packed import pack, unpack
from generator.search.index import build_index, gzipped_size, search_jobs
from generator.search.terms import paper_terms


def search_files(site):
    terms = [paper_terms(paper) for paper in site.papers]
    return [job.made() for job in search_jobs(site, terms)]


def test_build_index_ranks_a_title_match_above_an_abstract_match():
    papers = (make_paper("a", title="Other", abstract_text="unlearning is mentioned"),
              make_paper("b", title="Exact Unlearning", abstract_text="nothing"))
    index = Index.load(unpack(pack(build_index(papers))))
    assert [r["ref"] for r in index.search("unlearning")] == ["1", "0"]


def test_build_index_searches_authors_tags_and_notes():
    papers = (make_paper("a", authors=("Orion Weller",), tags=["retrieval"], notes_text="insightful read"),)
    index = Index.load(unpack(pack(build_index(papers))))
    for query in ("weller", "retrieval", "insightful"):
        # why: names are asked for as they are indexed, unstemmed (static/search/worker.js)
        found = index.query(index.create_query().term(query, use_pipeline=False))
        found += index.search(query)
        assert {r["ref"] for r in found} == {"0"}


def test_names_are_indexed_unstemmed_so_choy_is_not_choi():
    papers = (make_paper("a", authors=("Christopher Choy",)), make_paper("b", authors=("Jaesik Choi",)))
    index = Index.load(unpack(pack(build_index(papers))))
    asked = index.create_query(["authors"]).term("choy", use_pipeline=False)
    assert [r["ref"] for r in index.query(asked)] == ["0"]


def test_search_files_writes_the_index_facets_and_a_text_only_doc_store():
    site = make_site([make_paper("x", title="<b>T</b>", tags=["llm"], venue="ICLR 2025")])
    docs, meta, index = search_files(site)
    assert (docs.path, meta.path, index.path) == (
        "search/docs/0.json", "search/meta.json", "search/index.json")
    assert json.loads(index.data)["version"] == "2.3.9"
    # why: each paper's tags, venue and year are in the facet table, which the documents leave out
    assert json.loads(meta.data) == {"tags": ["llm"], "venues": ["ICLR 2025"],
                                     "papers": [[[0], 0, 2025, "0", 0]]}
    assert json.loads(docs.data) == [{"title": "<b>T</b>", "url": "/digest/papers/x/",
                                      "authors": ["Ada Lovelace"], "text": "We study things."}]


def test_gzipped_size_is_that_of_gzip_at_its_fastest_level():
    files = {file.path: file for file in search_files(make_site([make_paper("x")]))}
    data = files["search/index.json"].data
    assert gzipped_size(data) == len(gzip.compress(data, compresslevel=1, mtime=0)) < len(data)


def test_search_files_are_deterministic():
    site = make_site([make_paper(str(i), title=f"Paper {i}") for i in range(5)])
    assert search_files(site) == search_files(site)
