import json

from lunr.index import Index

from factories import make_paper, make_site
from generator.search import build_index, index_text, search_files


def test_index_text_drops_punctuation_and_latex_leftovers():
    assert index_text("(e.g., 10.5%) S3T -- LLaMA-2-7B") == "e g 10 5 S3T LLaMA 2 7B"


def test_build_index_ranks_a_title_match_above_an_abstract_match():
    papers = (make_paper("a", title="Other", abstract_text="unlearning is mentioned"),
              make_paper("b", title="Exact Unlearning", abstract_text="nothing"))
    index = Index.load(build_index(papers))
    assert [r["ref"] for r in index.search("unlearning")] == ["1", "0"]


def test_build_index_searches_authors_tags_and_notes():
    papers = (make_paper("a", authors=("Orion Weller",), tags=["retrieval"], notes_text="insightful read"),)
    index = Index.load(build_index(papers))
    for query in ("weller", "retrieval", "insightful"):
        assert [r["ref"] for r in index.search(query)] == ["0"]


def test_search_files_writes_the_index_and_a_text_only_doc_store():
    site = make_site([make_paper("x", title="<b>T</b>", tags=["llm"])])
    index, docs = search_files(site)
    assert index.path == "search/index.json" and docs.path == "search/docs.json"
    assert json.loads(index.data)["version"] == "2.3.9"
    assert json.loads(docs.data) == [{"title": "<b>T</b>", "url": "/digest/papers/x/",
                                      "authors": ["Ada Lovelace"], "tags": ["llm"], "venue": "",
                                      "excerpt": "We study things."}]


def test_search_files_are_deterministic():
    site = make_site([make_paper(str(i), title=f"Paper {i}") for i in range(5)])
    assert search_files(site) == search_files(site)
