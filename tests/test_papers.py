import datetime as dt
import pickle
from pathlib import Path

import pytest

from factories import paper_source, write_content
from generator.content.documents import load_documents, read_document
from generator.content.papers import check, check_file, combine, validate
from generator.model.citation import base_key
from generator.model.errors import BuildFailed
from generator.building.cache import _pickled
from generator.model.records import Citation, SourceFile


def papers_from(tmp_path, **files):
    return validate(load_documents(write_content(tmp_path, files)))


def errors_from(tmp_path, **files):
    with pytest.raises(BuildFailed) as raised:
        papers_from(tmp_path, **files)
    return [(e.line, e.message) for e in raised.value.errors]


def test_validate_builds_a_paper_from_every_field(tmp_path):
    [paper] = papers_from(tmp_path, x=paper_source(
        venue="ICLR 2025", tags=["llm", "Web Agents"], tldr="Short.",
        links={"arxiv": "2406.16257", "openreview": "oe51Q5Uo37", "code": "https://github.com/a/b"},
        abstract="A $\\textbf{bold}$ claim.", extra={"poster": 3}, body="**Read** it.\n"))
    assert paper.title == "A Paper"
    assert paper.date == dt.date(2025, 4, 24)
    assert [t.slug for t in paper.tags] == ["llm", "web-agents"]
    assert [l.kind for l in paper.links] == ["pdf", "arxiv", "openreview", "code"]
    assert paper.links[0].url == "https://arxiv.org/pdf/2406.16257"
    assert paper.ids == {"arxiv": "2406.16257", "openreview": "oe51Q5Uo37"}
    assert "$" not in paper.abstract_text and "bold" in paper.abstract_text
    assert paper.notes_html == "<p><strong>Read</strong> it.</p>"
    assert paper.extra == {"poster": 3}
    assert paper.source == str(tmp_path / "content/papers/x.md")
    assert base_key(paper) == "lovelace2025paper"


def test_validate_errors_on_missing_title(tmp_path):
    assert errors_from(tmp_path, x=paper_source(title=None)) == [
        (1, "missing required 'title'; add a line 'title: ...'")]


def test_validate_errors_on_a_boolean_title_and_says_to_quote_it(tmp_path):
    text = paper_source().replace("title: A Paper", "title: No")
    assert errors_from(tmp_path, x=text) == [
        (2, "'title' must be text, got the boolean false; quote it: title: 'No'")]


def test_validate_errors_on_tags_written_as_a_string(tmp_path):
    [(line, message)] = errors_from(tmp_path, x=paper_source(tags="llm"))
    assert message.startswith("'tags' must be a list, got 'llm'")


def test_validate_errors_on_an_impossible_date(tmp_path):
    text = paper_source().replace("date: '2025-04-24'", "date: 2025-13-01")
    [(line, message)] = errors_from(tmp_path, x=text)
    assert line == 5
    assert message.startswith("'date' must be a real day as YYYY-MM-DD, got '2025-13-01'")


def test_validate_errors_on_a_date_in_another_format(tmp_path):
    assert errors_from(tmp_path, x=paper_source(date="24/04/2025")) == [
        (5, "'date' must be YYYY-MM-DD, got '24/04/2025'")]


def test_validate_suggests_the_near_spelling_of_an_unknown_key(tmp_path):
    [(line, message)] = errors_from(tmp_path, x=paper_source(abstarct="x"))
    assert line == 7
    assert message.startswith("unknown key 'abstarct' in front matter; did you mean 'abstract'?")


def test_validate_rejects_non_http_links_at_their_own_line(tmp_path):
    errors = errors_from(tmp_path, x=paper_source(links={"code": "javascript:alert(1)"}))
    assert errors == [(8, "links.code must be an http(s) URL, e.g. code: https://github.com/...; "
                          "got 'javascript:alert(1)'")]


def test_validate_rejects_an_unknown_link_kind(tmp_path):
    [(line, message)] = errors_from(tmp_path, x=paper_source(links={"githbu": "https://x.org"}))
    assert "did you mean" not in message or "'code'" in message
    assert message.startswith("unknown key 'githbu' in links")


def test_validate_collects_errors_from_every_file(tmp_path):
    errors = errors_from(tmp_path, a=paper_source(title=None), b=paper_source(authors=None))
    assert len(errors) == 2


def test_two_spellings_of_one_tags_page_are_papers_not_an_error(tmp_path):
    # why: they are one group (model/groupings.py); `check` reports them (test_check.py)
    papers = papers_from(tmp_path, a=paper_source(tags=["Web Agents"]),
                         b=paper_source(tags=["web-agents"]))
    assert {tag.slug for paper in papers for tag in paper.tags} == {"web-agents"}


def test_validate_keeps_drafts_marked(tmp_path):
    [paper] = papers_from(tmp_path, x=paper_source(draft=True))
    assert paper.draft is True


def test_validate_lets_a_draft_wait_for_its_abstract(tmp_path):
    [paper] = papers_from(tmp_path, x=paper_source(draft=True, abstract=None))
    assert paper.abstract == "" and paper.abstract_html == ""
    assert errors_from(tmp_path, x=paper_source(abstract=None)) == [
        (1, "missing required 'abstract'; add a line 'abstract: ...'")]


def test_validate_reads_the_presentation_and_rejects_other_values(tmp_path):
    [paper] = papers_from(tmp_path, x=paper_source(presentation="oral"))
    assert paper.presentation == "oral"
    assert errors_from(tmp_path, x=paper_source(presentation="keynote")) == [
        (7, "'presentation' must be one of oral, spotlight, poster, got 'keynote'")]


def test_validate_strips_script_from_notes(tmp_path):
    [paper] = papers_from(tmp_path, x=paper_source(
        body="<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror=alert(1)>\n"))
    assert "<script" not in paper.notes_html
    assert "javascript:" not in paper.notes_html
    assert "onerror" not in paper.notes_html


def test_validate_errors_when_two_files_give_the_same_paper_id(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    errors = errors_from(tmp_path, a=paper_source(links={"arxiv": "2406.16257"}),
                         b=paper_source(links={"arxiv": "2406.16257v2", "openreview": "oe51Q5Uo37"}),
                         c=paper_source(links={"openreview": "oe51Q5Uo37"}))
    assert errors == [
        (8, "links.arxiv '2406.16257v2' is also given by content/papers/a.md; a paper belongs "
            "in the digest once: remove one of the two files"),
        (8, "links.openreview 'oe51Q5Uo37' is also given by content/papers/b.md; a paper belongs "
            "in the digest once: remove one of the two files"),
    ]


def test_check_file_gives_the_paper_or_the_errors_of_one_file(tmp_path):
    good = SourceFile(tmp_path / "good.md", paper_source().encode())
    checked = check_file(good)
    assert checked.ok() and checked.errors == () and checked.paper.slug == "good"
    (tmp_path / "good.md").write_bytes(good.data)
    assert check(read_document(tmp_path / "good.md")) == checked
    broken = check_file(SourceFile(tmp_path / "broken.md", b"no front matter\n"))
    assert not broken.ok() and broken.paper is None
    assert [(e.line, e.message.split(";")[0]) for e in broken.errors] == [(1, "missing front matter")]
    missing = check_file(SourceFile(tmp_path / "missing.md", paper_source(title=None).encode()))
    assert not missing.ok() and len(missing.errors) == 1


def test_a_checked_paper_read_back_from_its_pickle_is_equal_and_pickles_to_the_same_bytes(
        tmp_path):
    # the cache keeps checked papers pickled and hashes a paper by its pickle without memo
    plain = check_file(SourceFile(tmp_path / "plain.md", paper_source().encode()))
    cited = check_file(SourceFile(tmp_path / "cited.md", paper_source(
        citation={"booktitle": "Advances in NeurIPS", "editor": ["Kate Larson"]}).encode()))
    assert plain.paper.citation == Citation() and cited.paper.citation.editor == ("Kate Larson",)
    for checked in (plain, cited):
        again = pickle.loads(pickle.dumps(checked, pickle.HIGHEST_PROTOCOL))
        assert again == checked and type(again.paper.source) is str
        assert _pickled(again.paper) == _pickled(checked.paper)
    # an empty citation, however made, is one shared record once read back: none made again
    read = [pickle.loads(pickle.dumps(Citation(), pickle.HIGHEST_PROTOCOL)) for _ in range(2)]
    assert read[0] is read[1] and not read[0].editor
    assert _pickled(Citation()) == _pickled(plain.paper.citation) != _pickled(cited.paper.citation)


def test_combine_is_validate_of_the_files_one_by_one(tmp_path):
    content = write_content(tmp_path, {"a": paper_source(title="A"), "b": paper_source(title="B")})
    sources = load_documents(content)
    assert combine([check_file(source) for source in sources]) == validate(sources)
    clash = write_content(tmp_path / "clash", {"a": paper_source(links={"arxiv": "2406.16257"}),
                                               "b": paper_source(links={"arxiv": "2406.16257v2"})})
    with pytest.raises(BuildFailed) as raised:
        combine([check_file(source) for source in load_documents(clash)])
    assert "is also given by" in raised.value.errors[0].message


def test_a_control_character_given_by_a_yaml_escape_is_an_error_naming_the_field():
    source = SourceFile(Path("content/papers/p.md"),
                        b'---\ntitle: "A \\x01 title"\nauthors: ["B\\x7f"]\ndate: 2025-04-24\n'
                        b'abstract: "x\\ufffe"\n---\n')
    errors = sorted(str(error) for error in check_file(source).errors)
    assert errors == [
        "content/papers/p.md:2: 'title' holds the control character U+0001, which no page, "
        "feed or BibTeX file can carry; delete it",
        "content/papers/p.md:3: item 1 of 'authors' holds a control character; delete it",
        "content/papers/p.md:5: 'abstract' holds the control character U+FFFE, which no page, "
        "feed or BibTeX file can carry; delete it"]


def test_a_control_character_in_the_notes_is_an_error_at_its_line():
    source = SourceFile(Path("content/papers/p.md"),
                        b"---\ntitle: T\nauthors: [A]\ndate: 2025-04-24\nabstract: x\n---\n"
                        b"Fine notes.\nA pasted \x0c form feed.\n")
    [error] = check_file(source).errors
    assert (error.line, "U+000C" in error.message) == (8, True)


def test_check_reads_the_title_as_latex(tmp_path):
    [paper] = papers_from(tmp_path, x=paper_source(
        title=r"Streaming Kernel PCA with $\tilde{O}(\sqrt{n})$ Random Features"))
    assert paper.title == r"Streaming Kernel PCA with $\tilde{O}(\sqrt{n})$ Random Features"
    assert paper.title_text == "Streaming Kernel PCA with Õ(√n) Random Features"
    assert paper.title_html.startswith("Streaming Kernel PCA with <math ")


def test_check_keeps_chinese_titles(tmp_path):
    [paper] = papers_from(tmp_path, x=paper_source(title="大语言模型的 $k$ 近邻检索"))
    assert paper.title_text == "大语言模型的 k 近邻检索"


def test_check_warns_once_per_paper_about_unknown_macros_with_file_and_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_content(tmp_path, {"x": paper_source(
        title=r"Faster $\otilde$ bounds", abstract=r"In $\otilde(nd / \gap^2)$ time, costs $5.")})
    checked = check_file(SourceFile(Path("content/papers/x.md"),
                                    Path("content/papers/x.md").read_bytes()))
    assert checked.ok()
    assert [str(w) for w in checked.warnings] == [
        r"content/papers/x.md:2: unknown LaTeX macros \gap, \otilde shown as their names"]


def test_check_warns_about_an_unbalanced_dollar_in_the_abstract(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_content(tmp_path, {"x": paper_source(abstract="smaller than the dimension, i.e., $m")})
    source = Path("content/papers/x.md")
    [warning] = check_file(SourceFile(source, source.read_bytes())).warnings
    assert (warning.path, warning.line) == ("content/papers/x.md", 6)  # the abstract's line
    assert warning.message.startswith("1 unbalanced $ in the abstract: the math it opens was closed")


def test_check_has_no_warnings_for_plain_latex(tmp_path):
    [checked] = [check_file(SourceFile(p, p.read_bytes())) for p in sorted(
        (write_content(tmp_path, {"x": paper_source(abstract=r"{\it a priori} $\ell_1$ \cite{a2019}")})
         / "papers").glob("*.md"))]
    assert checked.warnings == ()


def test_citation_keeps_what_a_reference_needs_and_errs_on_an_unknown_key_or_a_number(tmp_path):
    citation = {"booktitle": "Advances in Neural Information Processing Systems",
                "editor": ["S. Bengio", "H. Wallach"], "publisher": "Curran Associates, Inc.",
                "volume": "31", "pages": "4445–4455"}
    [paper] = papers_from(tmp_path, x=paper_source(venue="NeurIPS 2018", citation=citation))
    assert paper.citation.booktitle == "Advances in Neural Information Processing Systems"
    assert paper.citation.editor == ("S. Bengio", "H. Wallach")
    assert (paper.citation.volume, paper.citation.pages) == ("31", "4445–4455")
    assert errors_from(tmp_path / "bad", x=paper_source(
        citation={"volume": 31, "bookitle": "X", "editor": "S. Bengio"})) == [
        (8, "citation.volume must be text, got the number 31; quote it"),
        (9, "unknown key 'bookitle' in citation; did you mean 'booktitle'? (put free-form "
            "values under 'extra:')"),
        (10, "citation.editor must be a list of names, e.g. editor: [Kate Larson]")]


def test_the_digests_macros_are_expanded_in_title_and_abstract_before_they_are_read(tmp_path):
    source = SourceFile(tmp_path / "x.md", paper_source(
        title=r"\cA-Learning", abstract=r"We get $\eps$ and $\norm{x}_2$.").encode())
    plain = check_file(source)
    assert plain.unknown_macros == ("\\cA", "\\eps", "\\norm") and plain.warnings
    macros = {"cA": r"\mathcal{A}", "eps": r"\varepsilon", "norm": r"\left\lVert #1 \right\rVert"}
    defined = check_file(source, macros)
    assert (defined.unknown_macros, defined.warnings) == ((), ())
    assert (defined.paper.title, defined.paper.title_text) == (r"\mathcal{A}-Learning",
                                                               "𝒜-Learning")
    assert defined.paper.abstract == r"We get $\varepsilon$ and $\left\lVert x \right\rVert_2$."
    assert defined.paper.abstract_text == "We get ε and ‖ x ‖₂."
