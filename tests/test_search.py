import json

from factories import make_paper, make_site
from generator.search.documents import document_jobs


def test_the_doc_store_is_split_into_chunks_by_ref():
    site = make_site([make_paper(str(i), title=f"Paper {i:02}") for i in range(30)])
    chunks = [chunk.made() for chunk in document_jobs(site)]
    assert [(f.path, len(json.loads(f.data))) for f in chunks] == [
        ("search/docs/0.json", 25), ("search/docs/1.json", 5)]
