import datetime as dt

import pytest
import yaml

from factories import REPO, write_content
from generator.content.documents import read_document
from generator.importers.abstracts import read_abstract_list, read_abstracts
from generator.importers.merge import ImportOptions, import_files
from generator.model.errors import BuildFailed

DATA = REPO / "data"
ABSTRACTS = DATA / "iclr2025-abstracts.txt"
METADATA = DATA / "iclr2025-metadata.yaml"
SHIPPED = ImportOptions(date=dt.date(2026, 11, 29), venue="ICLR 2025")


def test_read_abstract_list_merges_metadata_by_position():
    papers = read_abstract_list(ABSTRACTS, METADATA)
    metadata = yaml.safe_load(METADATA.read_text())
    blocks = read_abstracts(ABSTRACTS)[1:]
    assert len(papers) == 19
    for paper, meta, (line, abstract) in zip(papers, metadata, blocks):
        assert paper.title == meta["title"]
        assert list(paper.authors) == meta["authors"]
        assert list(paper.tags) == meta["tags"]
        assert paper.abstract == abstract, "abstracts are kept verbatim"
        assert paper.origin.endswith(f"iclr2025-abstracts.txt:{line}")
        assert paper.links.get("arxiv") == meta.get("arxiv")
        assert paper.links.get("project") == meta.get("project_page")


def test_import_writes_one_file_per_abstract(tmp_path):
    content = write_content(tmp_path, {})
    plan = import_files([ABSTRACTS], METADATA, content, SHIPPED)
    assert [d.action for d in plan.decisions] == ["create"] * 19
    front = read_document(plan.decisions[0].path).front.values
    assert front["date"] == "2026-11-29" and front["venue"] == "ICLR 2025"


def test_import_errors_when_abstracts_and_metadata_counts_differ(tmp_path):
    short = tmp_path / "meta.yaml"
    short.write_text(yaml.safe_dump(yaml.safe_load(METADATA.read_text())[:3]))
    with pytest.raises(BuildFailed, match="19 abstracts but 3 metadata entries"):
        read_abstract_list(ABSTRACTS, short)


def test_metadata_without_a_title_or_with_an_unquoted_id_is_an_error_at_its_line(tmp_path):
    text = tmp_path / "a.txt"
    text.write_text("First abstract.\n\nSecond abstract.\n")
    meta = tmp_path / "m.yaml"
    meta.write_text("- authors: [A]\n- title: T\n  authors: [B]\n  arxiv: 2410.12730\n")
    with pytest.raises(BuildFailed) as raised:
        read_abstract_list(text, meta)
    assert [(e.line, e.message) for e in raised.value.errors] == [
        (1, "entry has no 'title'; a paper file needs its title and authors"),
        (2, "'arxiv' must be text; quote values YAML would read as numbers, dates or booleans")]


def test_shipped_content_is_the_importer_output(tmp_path):
    content = write_content(tmp_path, {})
    plan = import_files([ABSTRACTS], METADATA, content, SHIPPED)
    fresh = {d.path.name: read_document(d.path).front.values for d in plan.decisions}
    shipped = {p.name: read_document(p).front.values for p in (REPO / "content/papers").glob("*.md")}
    assert shipped == fresh


def test_importing_the_shipped_list_into_the_shipped_digest_changes_nothing(tmp_path):
    content = write_content(tmp_path, {})
    for paper in (REPO / "content/papers").glob("*.md"):
        (content / "papers" / paper.name).write_bytes(paper.read_bytes())
    plan = import_files([ABSTRACTS], METADATA, content,
                        ImportOptions(date=dt.date(2030, 1, 1), venue="ICLR 2025", update=True))
    assert {d.action for d in plan.decisions} == {"unchanged"}


def abstract_list(tmp_path, metadata: str, abstract: str = "An abstract.\n") -> tuple:
    (tmp_path / "a.txt").write_text(abstract, encoding="utf-8")
    (tmp_path / "m.yaml").write_text(metadata, encoding="utf-8")
    return tmp_path / "a.txt", tmp_path / "m.yaml"


def test_metadata_values_are_cleaned_as_every_reader_cleans_them(tmp_path):
    files = abstract_list(tmp_path, "- title: \"Bell\\a Title\\x9b\"\n  authors: [\"Ada\\x01 L\"]\n"
                                    "  code: 'javascript:alert(1)'\n  pdf: 'data:text/html,x'\n"
                                    "  arxiv: 'not-an-id'\n  doi: '10.1/x y'\n"
                                    "  openreview: oe51Q5Uo37\n  venue: \"ICLR\\x02 2025\"\n",
                          "An \x07abstract.\n")
    [paper] = read_abstract_list(*files)
    assert (paper.title, paper.authors, paper.venue) == ("Bell Title", ("Ada L",), "ICLR 2025")
    assert paper.abstract == "An abstract."
    assert paper.links == {"openreview": "oe51Q5Uo37"}
    assert paper.dropped == (
        "code 'javascript:alert(1)' is not an http(s) URL; left out",
        "pdf 'data:text/html,x' is not an http(s) URL; left out",
        "arxiv 'not-an-id' is not a valid arxiv id; left out",
        "doi '10.1/x y' is not a valid doi id; left out")


@pytest.mark.parametrize("metadata, line, message", [
    ("- title: T\n  authors: [A\x01]\n", 2, "the character U+0001 cannot be in YAML; delete it, "
     "or write it as an escape in a double-quoted string"),
    ("- title: T\n  authors: " + "[" * 5000 + "]" * 5000 + "\n", 2,
     "values are nested more than 32 levels deep; flatten them"),
    ("- &a {title: T, authors: [A]}\n- *a\n", 1, "this value is repeated by an alias (*name), "
     "which is not allowed: write the value out where it is repeated"),
])
def test_metadata_yaml_that_cannot_be_read_is_an_error_at_its_line(tmp_path, metadata, line,
                                                                    message):
    with pytest.raises(BuildFailed) as raised:
        read_abstract_list(*abstract_list(tmp_path, metadata))
    assert [(e.line, e.message) for e in raised.value.errors] == [(line, message)]
