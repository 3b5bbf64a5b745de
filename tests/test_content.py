import os

import pytest

from factories import paper_source, write_content
from generator.content.documents import (ContentErrorRaised, load_documents, paper_names,
                                         parse_document, read_document, slugify)
from generator.content.papers import validate
from generator.model.errors import BuildFailed


def test_load_documents_reads_each_paper_file_s_bytes(tmp_path):
    content = write_content(tmp_path, {"x": paper_source(body="Notes here.\n")})
    [source] = load_documents(content)
    assert source.path == content / "papers/x.md"
    assert source.data == (content / "papers/x.md").read_bytes()


def test_parse_document_reads_front_matter_and_body_with_lines(tmp_path):
    content = write_content(tmp_path, {"x": paper_source(body="Notes here.\n")})
    [source] = load_documents(content)
    doc = parse_document(source)
    assert doc == read_document(source.path)
    assert doc.slug == "x"
    assert doc.front.values["title"] == "A Paper"
    assert doc.front.lines["title"] == 2
    assert doc.body == "Notes here.\n"
    assert doc.body_line == 8


def test_load_documents_sorts_by_file_name(tmp_path):
    content = write_content(tmp_path, {"b": paper_source(), "a": paper_source()})
    assert [s.path.name for s in load_documents(content)] == ["a.md", "b.md"]


def test_paper_names_are_the_markdown_files_and_none_for_a_missing_folder(tmp_path):
    for name in ("b.md", "a.md", "notes.txt", "c.md~"):
        (tmp_path / name).write_text("x")
    assert paper_names(tmp_path) == ["a.md", "b.md"]
    assert paper_names(tmp_path / "missing") == []


def test_load_documents_reports_every_broken_file(tmp_path):
    content = write_content(tmp_path, {"a": "no front matter\n", "b": "---\ntitle: x\n"})
    with pytest.raises(BuildFailed) as raised:
        validate(load_documents(content))
    assert [str(e).split(": ", 1)[1] for e in raised.value.errors] == [
        "missing front matter; start the file with a line '---', the fields, then another '---'",
        "front matter is not closed; add a line '---' after the fields",
    ]


def test_read_document_rejects_a_file_name_that_is_not_a_slug(tmp_path):
    path = tmp_path / "My Paper.md"
    path.write_text(paper_source(), encoding="utf-8")
    with pytest.raises(ContentErrorRaised) as raised:
        read_document(path)
    assert "e.g. 'my-paper.md'" in raised.value.error.message


def test_read_document_rejects_invalid_utf8(tmp_path):
    path = tmp_path / "x.md"
    path.write_bytes(b"---\ntitle: \xff\n---\n")
    with pytest.raises(ContentErrorRaised, match="not valid UTF-8"):
        read_document(path)


def test_read_document_accepts_a_byte_order_mark_and_crlf(tmp_path):
    path = tmp_path / "x.md"
    path.write_bytes("\ufeff---\r\ntitle: T\r\n---\r\nbody\r\n".encode())
    doc = read_document(path)
    assert doc.front.values == {"title": "T"}


def test_slugify_cuts_at_a_word_boundary():
    assert slugify("Towards Scalable Exact Machine Unlearning", max_length=20) == "towards-scalable"
    assert slugify("Ö & Ä: Über") == "o-a-uber"
    assert slugify("机器学习 LLM", ascii_only=False) == "机器学习-llm"
    assert slugify("机器学习") == ""
    assert slugify("LLM") == "llm"


@pytest.mark.parametrize("kind", ["fifo", "folder", "dangling link", "link loop"])
def test_a_paper_file_that_is_not_a_readable_file_is_an_error_not_a_hang(tmp_path, kind):
    papers = tmp_path / "papers"
    papers.mkdir()
    (papers / "good.md").write_text("---\ntitle: T\n---\n")
    odd = papers / "odd.md"
    if kind == "fifo":
        os.mkfifo(odd)
    elif kind == "folder":
        odd.mkdir()
    elif kind == "dangling link":
        odd.symlink_to(tmp_path / "gone.md")
    else:
        odd.symlink_to(odd)
    with pytest.raises(BuildFailed) as failed:
        load_documents(tmp_path)
    [error] = failed.value.errors
    assert error.path.endswith("papers/odd.md") and error.line == 1
    assert "a paper must be a Markdown file that can be read" in error.message


def test_a_paper_file_ending_in_capital_md_is_refused_by_name(tmp_path):
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "paper.MD").write_text("---\ntitle: T\n---\n")
    [source] = load_documents(tmp_path)
    with pytest.raises(ContentErrorRaised, match="must be lowercase .* and end in .md"):
        parse_document(source)


def test_a_letter_that_decomposes_to_a_capital_slugs_to_lowercase():
    assert slugify("ℌ", ascii_only=False) == slugify("h", ascii_only=False) == "h"


def test_a_paper_file_over_a_megabyte_is_an_error_before_it_is_read(tmp_path):
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "huge.md").write_bytes(b"---\ntitle: T\n---\n" + b"x" * (1 << 20))
    with pytest.raises(BuildFailed, match="huge.md:1: .*over the 1,048,576 a content file may have"):
        load_documents(tmp_path)
