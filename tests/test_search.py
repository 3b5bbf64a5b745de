import datetime as dt
import json

from factories import make_paper, make_site
from generator.building.cache import Cache
from generator.model import urls as paths
from generator.search.documents import document_jobs, facet_table
from generator.search.index import search_jobs


def chunks_of(site) -> dict[str, list[str]]:
    """Each chunk of the document store, by path: the titles of its documents."""
    return {f.path: [doc["title"] for doc in json.loads(f.data)]
            for f in (job.made() for job in document_jobs(site))}


def test_the_doc_store_is_split_into_chunks_of_about_32_papers_by_slug():
    site = make_site([make_paper(f"p{i:02}", title=f"Paper {i:02}") for i in range(100)])
    chunks = chunks_of(site)
    # why: a power of two of chunks, about 32 papers each: 4 for 100 papers
    assert sorted(chunks) == [f"search/docs/{n}.json" for n in range(4)]
    assert sorted(title for titles in chunks.values() for title in titles) == [
        f"Paper {i:02}" for i in range(100)]


def test_the_facet_table_says_where_each_papers_document_is():
    site = make_site([make_paper(f"p{i:02}", title=f"Paper {i:02}") for i in range(100)])
    chunks = chunks_of(site)
    for paper, row in zip(site.papers, facet_table(site.papers)["papers"]):
        name, place = row[3], row[4]
        assert chunks[f"search/docs/{name}.json"][place] == paper.title_text


def test_a_paper_added_changes_its_own_chunk_only():
    papers = [make_paper(f"p{i:02}", title=f"Paper {i:02}") for i in range(100)]
    before = chunks_of(make_site(papers))
    after = chunks_of(make_site(papers + [make_paper("new", title="New")]))
    changed = [path for path in before if before[path] != after[path]]
    assert len(changed) == 1 and "New" in after[changed[0]]


def test_the_facet_tables_key_follows_what_it_shows_not_the_rest_of_a_paper():
    """A title, abstract or notes edited keeps the facet table (its job is given facet_rows());
    a tag, venue or year changed remakes it (or the order of the papers, by date then title)."""
    def key(**edit):
        def paper(n, **more):
            return make_paper(f"p{n}", **{"tags": ["LLM"], "venue": "ICLR 2025",
                                           "date": dt.date(2025, 1, 1 + n), **more})
        papers = [paper(n) for n in range(3)]
        papers[1] = paper(1, **edit)
        job, = [j for j in search_jobs(make_site(papers), ()) if j.path == paths.SEARCH_META]
        return Cache(None).keys(job.make, job.shared, [job.args])[0]

    assert key(title="Edited", abstract_text="Edited", notes_text="Edited") == key()
    assert len({key(), key(tags=["RL"]), key(venue="NeurIPS 2025"),
                key(date=dt.date(2024, 1, 2))}) == 4
