import datetime as dt
import json

from factories import REPO, make_paper, make_site, pages_of, paper_source, parts_of, write_content
from generator.building.pipeline import BuildOptions, build
from generator.model.records import Link
from generator.outputs.csljson import csl_file, csl_item, csl_jobs, csl_name, item_line

# The CSL 1.0 data schema (citation-style-language/schema, schemas/input/csl-data.json): its item
# types, its variables, and the keys a name or a date may have.
CSL_TYPES = frozenset("""article article-journal article-magazine article-newspaper bill book
    broadcast chapter classic collection dataset document entry entry-dictionary
    entry-encyclopedia figure graphic hearing interview legal_case legislation manuscript map
    motion_picture musical_score pamphlet paper-conference patent performance periodical
    personal_communication post post-weblog regulation report review review-book software song
    speech standard thesis treaty webpage""".split())
NAME_VARIABLES = frozenset("""author chair collection-editor compiler composer container-author
    contributor curator director editor editorial-director executive-producer interviewer
    illustrator organizer original-author performer producer recipient reviewed-author
    translator""".split())
DATE_VARIABLES = frozenset("accessed available-date container event-date issued original-date "
                           "submitted".split())
TEXT_VARIABLES = frozenset("""id type categories language journalAbbreviation shortTitle abstract
    annote archive archive_collection archive_location archive-place authority call-number
    chapter-number citation-number citation-label collection-number collection-title
    container-title container-title-short dimensions division DOI edition event event-place
    first-reference-note-number genre ISAN ISBN ISCI ISMN ISRC ISSN ISWC issue jurisdiction
    keyword locator medium note number number-of-pages number-of-volumes original-publisher
    original-publisher-place original-title page page-first part part-title PMCID PMID printing
    publisher publisher-place references reviewed-title scale section source status supplement
    title title-short translated-title translated-title-short URL version volume
    year-suffix""".split())
NAME_KEYS = frozenset("family given dropping-particle non-dropping-particle suffix comma-suffix "
                      "static-ordering literal parse-names".split())

ICLR_PAPER = make_paper(
    "promptriever", title="Promptriever: Instruction-Trained Retrievers",
    authors=("Orion Weller", "Benjamin Van Durme", "Dawn Lawrie"), venue="ICLR 2025",
    abstract="Uses $\\alpha$ and \\textbf{bold}.", tags=["retrieval", "llm"],
    ids={"arxiv": "2409.11136", "openreview": "odvSjn416y"},
    links=(Link("arxiv", "arXiv", "https://arxiv.org/abs/2409.11136"),
           Link("openreview", "OpenReview", "https://openreview.net/forum?id=odvSjn416y")))
PAGE = "https://example.org/digest/papers/x/"


def schema_problems(items):
    """What in `items` the CSL 1.0 data schema does not allow: an empty list when all is valid."""
    problems = [] if isinstance(items, list) else ["not an array"]
    for n, item in enumerate(items):
        if not isinstance(item, dict) or "id" not in item or item.get("type") not in CSL_TYPES:
            problems.append(f"item {n}: needs an id and a CSL type")
            continue
        for key, value in item.items():
            if key in NAME_VARIABLES:
                if not (isinstance(value, list) and all(
                        isinstance(name, dict) and name and set(name) <= NAME_KEYS
                        and all(isinstance(part, str) and part for part in name.values())
                        for name in value)):
                    problems.append(f"item {n}: {key} is not a list of name objects")
            elif key in DATE_VARIABLES:
                parts = value.get("date-parts") if isinstance(value, dict) else None
                if not (set(value) == {"date-parts"} and isinstance(parts, list)
                        and 1 <= len(parts) <= 2
                        and all(isinstance(p, list) and 1 <= len(p) <= 3
                                and all(type(x) is int for x in p) for p in parts)):
                    problems.append(f"item {n}: {key} is not date-parts of whole numbers")
            elif key not in TEXT_VARIABLES or not isinstance(value, (str, int)) or value == "":
                problems.append(f"item {n}: {key} is not a CSL variable with a value")
    return problems


def test_a_conference_paper_on_arxiv_is_one_exact_item():
    assert csl_item(ICLR_PAPER, "weller2025promptriever", PAGE) == {
        "id": "weller2025promptriever",
        "type": "paper-conference",
        "title": "Promptriever: Instruction-Trained Retrievers",
        "author": [{"given": "Orion", "family": "Weller"},
                   {"given": "Benjamin", "family": "Van Durme"},
                   {"given": "Dawn", "family": "Lawrie"}],
        "issued": {"date-parts": [[2025]]},
        "container-title": "ICLR 2025",
        "abstract": "Uses $\\alpha$ and \\textbf{bold}.",
        "URL": "https://arxiv.org/abs/2409.11136",
        "number": "arXiv:2409.11136",
        "archive": "OpenReview",
        "archive_location": "odvSjn416y",
        "keyword": "retrieval, llm",
    }


def test_an_openreview_id_is_its_archive_location_unless_the_url_gives_it():
    forum = "https://openreview.net/forum?id=odvSjn416y"
    paper = make_paper(ids={"openreview": "odvSjn416y"},
                       links=(Link("openreview", "OpenReview", forum),))
    item = csl_item(paper, "k", PAGE)
    assert item["URL"] == forum and "archive" not in item and "archive_location" not in item


def test_a_paper_without_venue_is_an_article_with_its_repository_and_the_bibtex_year():
    paper = make_paper(ids={"arxiv": "2409.05657", "doi": "10.1000/a_b"},
                       date=dt.date(2026, 1, 2))
    item = csl_item(paper, "k", PAGE)
    assert item["type"] == "article" and "container-title" not in item
    assert (item["number"], item["publisher"], item["DOI"]) == ("arXiv:2409.05657", "arXiv",
                                                               "10.1000/a_b")
    assert item["issued"] == {"date-parts": [[2024]]}
    assert item["URL"] == PAGE and "keyword" not in item


def test_names_split_into_given_and_family_with_particles_kept_with_the_family():
    assert csl_name("Ludwig van der Waals") == {"given": "Ludwig", "family": "van der Waals"}
    assert csl_name("Jean de la Fontaine") == {"given": "Jean", "family": "de la Fontaine"}
    assert csl_name("Ada King Lovelace") == {"given": "Ada King", "family": "Lovelace"}
    assert csl_name("Curie, Marie") == {"given": "Marie", "family": "Curie"}
    assert csl_name("Martin Luther King Jr.") == {"given": "Martin Luther", "family": "King",
                                                  "suffix": "Jr."}
    assert csl_name("Da Silva") == {"given": "Da", "family": "Silva"}


def test_a_one_word_name_is_a_literal():
    assert csl_name("陈") == {"literal": "陈"}
    assert csl_name("OpenAI") == {"literal": "OpenAI"}


def test_every_item_of_a_site_is_valid_csl_json_in_reading_order():
    site = make_site([make_paper("old", title="Old", date=dt.date(2024, 1, 1), authors=("陈",)),
                      ICLR_PAPER, make_paper("c", ids={"doi": "10.1/x"})])
    [job] = csl_jobs(tuple(part.csl for part in parts_of(site)))
    data = job.made().data
    assert job.path == "papers.json" and data.endswith(b"]\n")
    parsed = json.loads(data.decode("utf-8"))
    assert schema_problems(parsed) == []
    assert [item["id"] for item in parsed] == [
        "lovelace2025paper", "weller2025promptriever", "anon2024old"]


def test_the_schema_check_can_fail():
    assert schema_problems([{"id": "a", "type": "preprint"}]) == ["item 0: needs an id and a CSL type"]
    assert schema_problems([{"id": "a", "type": "article", "author": ["Ada"],
                             "issued": {"date-parts": [["2025"]]}, "eprint": "1"}]) == [
        "item 0: author is not a list of name objects",
        "item 0: issued is not date-parts of whole numbers",
        "item 0: eprint is not a CSL variable with a value"]


def test_the_file_is_deterministic_utf8_an_item_a_line_with_sorted_keys():
    items = ({"type": "article", "id": "k", "title": "Über 陈"}, {"id": "m", "type": "book"})
    lines = tuple(map(item_line, items))
    assert lines == tuple(item_line(dict(reversed(i.items()))) for i in items)
    assert csl_file(lines).decode("utf-8") == (
        '[\n{"id": "k", "title": "Über 陈", "type": "article"},\n'
        '{"id": "m", "type": "book"}\n]\n')
    assert csl_file(()) == b"[]\n"


def test_the_build_writes_papers_json_without_drafts(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1745452800")
    content = write_content(tmp_path, {"x": paper_source(title="Shown"),
                                       "d": paper_source(title="Hidden", draft=True)})
    build(BuildOptions(content=content, out=tmp_path / "site", project=REPO))
    items = json.loads((tmp_path / "site/papers.json").read_text(encoding="utf-8"))
    assert [item["title"] for item in items] == ["Shown"]
    build(BuildOptions(content=content, out=tmp_path / "drafts", project=REPO, drafts=True))
    assert (tmp_path / "drafts/papers.json").read_bytes().count(b'"title"') == 2


def test_the_tags_index_and_the_saved_page_link_papers_json_for_zotero():
    pages = pages_of(make_site([make_paper("x", tags=["llm"])]))
    assert 'href="/digest/papers.json" download>CSL-JSON of every paper (Zotero)</a>' in pages[
        "tags/index.html"]
    assert 'href="/digest/papers.json" download' in pages["saved/index.html"]


def test_an_item_gives_back_what_the_citation_kept_with_the_venue_as_its_short_title():
    from generator.model.records import Citation
    page = "https://aclanthology.org/2022.acl-short.8/"
    paper = make_paper("x", venue="ACL 2022", ids={"doi": "10.18653/v1/2022.acl-short.8"},
                       links=(Link("page", "ACL Anthology", page),),
                       citation=Citation(booktitle="Proceedings of the 60th Annual Meeting of "
                                         "the Association for Computational Linguistics",
                                         editor=("Smaranda Muresan", "Preslav Nakov"),
                                         publisher="Association for Computational Linguistics",
                                         address="Dublin, Ireland", pages="61–68"))
    item = csl_item(paper, "liu2022p", PAGE)
    assert {key: item[key] for key in ("type", "container-title", "container-title-short",
                                       "editor", "publisher", "publisher-place", "page",
                                       "URL")} == {
        "type": "paper-conference",
        "container-title": "Proceedings of the 60th Annual Meeting of the Association for "
                           "Computational Linguistics",
        "container-title-short": "ACL 2022",
        "editor": [{"given": "Smaranda", "family": "Muresan"},
                   {"given": "Preslav", "family": "Nakov"}],
        "publisher": "Association for Computational Linguistics",
        "publisher-place": "Dublin, Ireland", "page": "61-68", "URL": page}
    journal = csl_item(make_paper("j", venue="JMLR 2020", citation=Citation(
        journal="Journal of Machine Learning Research", volume="21", number="140")), "k", PAGE)
    assert (journal["type"], journal["volume"], journal["issue"]) == ("article-journal", "21",
                                                                       "140")
    assert schema_problems([item, journal]) == []
