import datetime as dt
import os
from pathlib import Path

import pytest

from factories import paper_source, write_content
from generator.content.documents import parse_document, read_document
from generator.content.papers import check_file
from generator.importers.incoming import IncomingPaper
from generator.importers.merge import (ImportOptions, apply_plan, choose_slug, import_files,
                                       new_fields, plan_import, read_existing)
from generator.importers.tagspelling import digest_spelling
from generator.importers.paperfile import new_paper_text
from generator.importers.report import report_lines
from generator.importers.sources import read_sources
from generator.model.errors import BuildFailed
from generator.model.records import SourceFile

DAY = dt.date(2026, 1, 2)
OPTIONS = ImportOptions(date=DAY)


def incoming(**fields: object) -> IncomingPaper:
    """An incoming paper with every field a source may give; override any."""
    values: dict = {"origin": "refs.bib:1", "title": "Sparse Attention: A Study",
                    "authors": ("Ada Lovelace", "Alan Turing"), "abstract": "We study $x^2$.",
                    "venue": "ICLR 2025", "links": {"arxiv": "2409.11130"}}
    values.update(fields)
    return IncomingPaper(**values)


def plan(tmp_path: Path, papers: list[IncomingPaper], options: ImportOptions = OPTIONS,
         files: dict[str, str] | None = None):
    content = write_content(tmp_path, files or {})
    return plan_import(papers, read_existing(content), content / "papers", options)


def front_of(text: str) -> dict:
    return parse_document(SourceFile(Path("x.md"), text.encode())).front.values


def content_bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# Deciding


def test_a_new_paper_is_created_with_its_fields_in_the_digest_order(tmp_path):
    [decision] = plan(tmp_path, [incoming(presentation="oral", tags=("LLM",))]).decisions
    assert decision.action == "create"
    assert decision.path == tmp_path / "content/papers/sparse-attention.md"
    front = front_of(decision.text)
    assert list(front) == ["title", "authors", "venue", "presentation", "date", "tags", "links",
                           "abstract"]
    assert front["date"] == "2026-01-02" and front["tags"] == ["llm"]
    assert "abstract: |-\n  We study $x^2$.\n---\n" in decision.text
    assert decision.text.endswith("---\n"), "an empty body waits for the curator's notes"


@pytest.mark.parametrize("links, title", [
    ({"arxiv": "https://arxiv.org/abs/2409.11130v3"}, "Another Title Entirely"),
    ({"doi": "10.48550/arXiv.2409.11130"}, "Another Title Entirely"),
    ({}, "sparse attention -- a study!"),
])
def test_a_paper_matching_a_file_by_any_identity_is_not_created_again(tmp_path, links, title):
    files = {"mine": paper_source(title="Sparse Attention: A Study",
                                  links={"arxiv": "2409.11130"})}
    [decision] = plan(tmp_path, [incoming(links=links, title=title)], files=files).decisions
    assert decision.action == "skip" and decision.path == tmp_path / "content/papers/mine.md"
    assert decision.note == ("exists as " + str(tmp_path / "content/papers/mine.md")
                             + " (use --update to refresh it)")


def test_twins_in_one_run_become_one_paper_the_earlier_winning(tmp_path):
    first = incoming(origin="refs.bib:12", abstract="", links={"arxiv": "2409.11130"})
    later = incoming(origin="list.xml:40", title="A Different Spelling", abstract="From arXiv.",
                     venue="arXiv", links={"arxiv": "2409.11130v2", "code": "https://c.org"})
    decisions = plan(tmp_path, [first, later]).decisions
    assert [d.action for d in decisions] == ["create", "skip"]
    assert decisions[1].note == "same paper as refs.bib:12; merged into it"
    front = front_of(decisions[0].text)
    assert front["title"] == "Sparse Attention: A Study" and front["venue"] == "ICLR 2025"
    assert front["abstract"] == "From arXiv."
    assert front["links"] == {"arxiv": "2409.11130", "code": "https://c.org"}


def test_two_incoming_papers_matching_one_file_by_different_ids_are_merged(tmp_path):
    files = {"mine": paper_source(links={"arxiv": "2409.11130", "openreview": "abcDEF12"})}
    decisions = plan(tmp_path, [incoming(title="One"), incoming(
        title="Two", links={"openreview": "abcDEF12"}, origin="o.json:3")], files=files).decisions
    assert [d.action for d in decisions] == ["skip", "skip"]
    assert decisions[1].note == "same paper as refs.bib:1; merged into it"


def test_a_twin_carrying_the_id_of_a_file_ties_its_whole_group_to_that_file(tmp_path):
    files = {"mine": paper_source(title="Old Name", links={"arxiv": "2409.11130"})}
    decisions = plan(tmp_path, [incoming(links={}), incoming(origin="b.bib:2")],
                     files=files).decisions
    assert [(d.action, d.path.name if d.path else None) for d in decisions] == [
        ("skip", "mine.md"), ("skip", None)]


def test_a_paper_without_authors_or_title_is_skipped_with_the_reason(tmp_path):
    decisions = plan(tmp_path, [incoming(authors=()), incoming(title=" ", links={})]).decisions
    assert [d.note for d in decisions] == [
        "the source gives no authors, which a new paper file needs",
        "the source gives no title, which a new paper file needs"]


def test_a_paper_without_an_abstract_is_a_draft_that_builds(tmp_path):
    [decision] = plan(tmp_path, [incoming(abstract="")]).decisions
    front = front_of(decision.text)
    assert decision.draft and front["draft"] is True and "abstract" not in front
    checked = check_file(SourceFile(decision.path, decision.text.encode()))
    assert checked.errors == () and checked.paper.draft


def test_venue_option_overrides_the_source_and_tag_option_adds_to_new_papers(tmp_path):
    options = ImportOptions(date=DAY, venue="NeurIPS 2025", tags=("Reading Group",))
    [decision] = plan(tmp_path, [incoming(tags=("llm",))], options).decisions
    front = front_of(decision.text)
    assert front["venue"] == "NeurIPS 2025" and front["tags"] == ["llm", "reading-group"]


# Writing


NASTY = ["No", "yes", "2409.11130", "2025-01-01", "null", "~", "  leading spaces",
         "key: value", "it's \"quoted\"", "# not a comment", "---", "above\n---\nbelow",
         "Zürich 机器学习 😀", r"\textbf{Lo}w-rank $\alpha_{1}$ \\ 50\%", "trailing  ",
         "para one\n\n  indented para\n", "tab\there", "@at", "!tag", "%pct", "* star",
         "- dash", "[x]", "{y}", "|", ">", "a\u2028b"]


@pytest.mark.parametrize("value", NASTY)
def test_a_written_file_reads_back_as_exactly_the_incoming_values(value):
    paper = incoming(title=value, authors=(value, "B"), abstract=value, venue=value,
                     tldr=value, links={"arxiv": value, "code": f"https://x.org/{value}"})
    text = new_paper_text(new_fields(paper, OPTIONS, (value,)))
    doc = parse_document(SourceFile(Path("x.md"), text.encode()))
    assert doc.body == ""
    assert doc.front.values == {
        "title": value, "authors": [value, "B"], "venue": value, "date": "2026-01-02",
        "tags": [value], "links": {"arxiv": value, "code": f"https://x.org/{value}"},
        "tldr": value, "abstract": value}


def test_the_abstract_is_a_literal_block_so_latex_stays_verbatim():
    abstract = r"We use $\mathbb{R}^n$ and \textbf{bold}: 50\% faster."
    text = new_paper_text(new_fields(incoming(abstract=abstract), OPTIONS, ()))
    assert f"abstract: |-\n  {abstract}\n" in text


# Slugs


def test_slug_is_the_short_name_before_a_colon_or_the_title_cut_at_a_word():
    long_title = "Towards Scalable Exact Machine Unlearning Using Parameter-Efficient Fine-Tuning"
    assert choose_slug(incoming(title="AgentOccam: A Simple Yet Strong Baseline"), set()) == "agentoccam"
    slug = choose_slug(incoming(title=long_title), set())
    assert slug == "towards-scalable-exact-machine-unlearning-using-parameter"
    assert choose_slug(incoming(title="机器学习", key="Wu2024:ML"), set()) == "机器学习"
    assert choose_slug(incoming(title="?!", key="Wu2024:ML"), set()) == "wu2024-ml"
    assert choose_slug(incoming(title="?!"), set()) == "paper"


def test_a_cyrillic_look_alike_title_imports_under_its_latin_name():
    assert choose_slug(incoming(title="Аttention Is All You Nееd"), set()) == \
        "attention-is-all-you-need"


def test_a_slug_taken_by_another_paper_gets_the_year_then_a_number():
    taken = {"agentoccam"}
    paper = incoming(title="AgentOccam: Again", date=dt.date(2024, 5, 1))
    assert choose_slug(paper, taken) == "agentoccam-2024"
    assert choose_slug(paper, taken) == "agentoccam-2"
    assert choose_slug(incoming(title="AgentOccam: Again"), taken) == "agentoccam-3"


def test_two_new_papers_with_one_slug_get_two_files(tmp_path):
    files = {"sparse-attention": paper_source(title="Sparse Attention: Earlier Work")}
    decisions = plan(tmp_path, [incoming(links={}), incoming(title="Sparse Attention: More",
                                                             links={})], files=files).decisions
    assert [d.path.name for d in decisions] == ["sparse-attention-2.md", "sparse-attention-3.md"]


# Tags


def test_a_tag_takes_the_digest_spelling_or_is_normalised_and_warned_when_near():
    known = ["Web Agents", "llm"]
    assert digest_spelling("web-agents", known) == ("Web Agents", "")
    assert digest_spelling("Café", ["cafe"]) == ("cafe", ""), "one tag page, one spelling"
    assert digest_spelling("Large Language Models", known)[0] == "large-language-models"
    assert digest_spelling("LLMs", known) == ("llms", "new tag 'llms' is near the digest's "
                                              "'llm'; kept as it is: rename one if they are "
                                              "the same topic")
    assert digest_spelling("!!", known) == ("", "tag '!!' has no letters or digits; left out")


def test_tag_warnings_are_in_the_plan_once(tmp_path):
    files = {"old": paper_source(tags=["llm"], links={"arxiv": "2401.00001"})}
    result = plan(tmp_path, [incoming(tags=("LLMs",)), incoming(title="Other", links={},
                                                                tags=("llms",))], files=files)
    assert len(result.warnings) == 1 and "'llms' is near the digest's 'llm'" in result.warnings[0]


def test_a_new_tag_near_another_new_tag_of_the_same_import_is_warned_of(tmp_path):
    result = plan(tmp_path, [incoming(tags=("LLM", "Café")),
                             incoming(title="Other", links={}, tags=("llms", "cafe", "LLM"))])
    fronts = [front_of(d.text)["tags"] for d in result.decisions]
    assert fronts == [["llm", "café"], ["llms", "café", "llm"]]
    assert result.warnings == ("new tag 'llms' is near this import's new 'llm'; kept as it is: "
                               "rename one if they are the same topic",)


def test_a_tag_near_both_the_digest_and_the_import_names_the_digests(tmp_path):
    files = {"old": paper_source(tags=["web-agent"], links={"arxiv": "2401.00001"})}
    result = plan(tmp_path, [incoming(tags=("LLM", "web agents")),
                             incoming(title="Other", links={}, tags=("llms",))], files=files)
    assert result.warnings == (
        "new tag 'web-agents' is near the digest's 'web-agent'; kept as it is: rename one if "
        "they are the same topic",
        "new tag 'llms' is near this import's new 'llm'; kept as it is: rename one if they are "
        "the same topic")


# Updating


CURATED = """\
---
title: Old Title
authors: [Old Author]
# the curator's comment
date: 2025-03-04
tags: [My Topic,   other]
links:
  arxiv: https://arxiv.org/abs/2409.11130
  code: https://github.com/me/mine
tldr: 'Mine: short.'
draft: false
extra: {poster: 12}
abstract: |
  Old abstract.
---
My **notes**, kept.

---
Even a rule.
"""


def updated(tmp_path, paper: IncomingPaper, options=ImportOptions(date=DAY, update=True)):
    [decision] = plan(tmp_path, [paper], options, files={"mine": CURATED}).decisions
    return decision


def test_update_refreshes_what_the_source_owns_and_keeps_every_curator_line(tmp_path):
    decision = updated(tmp_path, incoming(links={"arxiv": "2409.11130", "pdf": "https://p.org"}))
    assert decision.action == "update"
    assert decision.note == "title, authors, venue, links, abstract"
    kept = [line for line in CURATED.splitlines(keepends=True)
            if line.startswith(("# the", "date:", "tags:", "tldr:", "draft:", "extra:"))]
    assert all(line in decision.text for line in kept)
    assert decision.text.endswith("---\nMy **notes**, kept.\n\n---\nEven a rule.\n")
    front = front_of(decision.text)
    assert front["links"] == {"arxiv": "https://arxiv.org/abs/2409.11130",
                              "code": "https://github.com/me/mine", "pdf": "https://p.org"}, \
        "a link the file has keeps the file's value; the source adds the kinds it lacks"
    assert list(front) == ["title", "authors", "venue", "date", "tags", "links", "tldr", "draft",
                           "extra", "abstract"]
    assert front["abstract"] == "We study $x^2$." and front["venue"] == "ICLR 2025"


def test_update_keeps_the_files_value_where_the_source_has_none(tmp_path):
    decision = updated(tmp_path, incoming(title="Old Title", authors=("Old Author",),
                                          abstract="", venue="", links={}))
    assert decision.action == "unchanged" and decision.text == ""


def test_update_never_touches_tags_of_an_existing_file(tmp_path):
    decision = updated(tmp_path, incoming(tags=("new-topic",)),
                       ImportOptions(date=DAY, update=True, tags=("also",)))
    assert "tags: [My Topic,   other]\n" in decision.text


# Whole imports: idempotence, dry run, strictness


def test_importing_twice_changes_no_byte_with_or_without_update(tmp_path, monkeypatch):
    content = write_content(tmp_path, {})
    papers = [incoming(origin=f"r.bib:{n}", title=f"Paper number {n}", links={}) for n in range(5)]
    papers.append(incoming(abstract=""))
    read_as(monkeypatch, papers)
    import_files([tmp_path / "x.bib"], None, content, OPTIONS)
    before = content_bytes(content)
    stamps = {p: p.stat().st_mtime_ns for p in (content / "papers").iterdir()}
    again = import_files([tmp_path / "x.bib"], None, content, OPTIONS)
    assert {d.action for d in again.decisions} == {"skip"}
    refreshed = import_files([tmp_path / "x.bib"], None, content,
                             ImportOptions(date=DAY, update=True))
    assert {d.action for d in refreshed.decisions} == {"unchanged"}
    assert content_bytes(content) == before
    assert {p: p.stat().st_mtime_ns for p in (content / "papers").iterdir()} == stamps


def read_as(monkeypatch, papers: list[IncomingPaper]) -> None:
    """Every source file reads as `papers`."""
    from generator.importers import merge
    monkeypatch.setattr(merge, "read_sources", lambda files, metadata: papers)


def test_a_dry_run_writes_nothing_and_says_so(tmp_path, monkeypatch):
    content = write_content(tmp_path, {})
    read_as(monkeypatch, [incoming()])
    result = import_files([tmp_path / "x.bib"], None, content, OPTIONS, dry_run=True)
    assert os.listdir(content / "papers") == []
    assert report_lines(result, dry_run=True)[-1] == (
        "Import: 1 created, 0 updated, 0 unchanged, 0 skipped, 0 drafts, 0 tag warnings; dry "
        "run, nothing was written.")


def test_apply_plan_leaves_no_temp_file(tmp_path):
    result = plan(tmp_path, [incoming()])
    apply_plan(result)
    assert os.listdir(tmp_path / "content/papers") == ["sparse-attention.md"]
    assert read_document(tmp_path / "content/papers/sparse-attention.md").front.values["title"] \
        == "Sparse Attention: A Study"


def test_reading_sources_reports_every_bad_file_and_nothing_is_written(tmp_path):
    content = write_content(tmp_path, {})
    (tmp_path / "a.txt").write_text("An abstract.\n")
    (tmp_path / "m.yaml").write_text("- title: [unclosed\n")
    with pytest.raises(BuildFailed) as raised:
        read_sources([tmp_path / "a.txt"], tmp_path / "m.yaml")
    assert "YAML syntax error" in str(raised.value)
    with pytest.raises(BuildFailed) as raised:
        read_sources([tmp_path / "missing.txt"], tmp_path / "m.yaml")
    assert raised.value.errors[0].message.startswith("cannot be read:")
    with pytest.raises(BuildFailed):
        import_files([tmp_path / "a.txt"], tmp_path / "m.yaml", content, OPTIONS)
    assert os.listdir(content / "papers") == []


def test_a_paper_file_that_cannot_be_parsed_stops_the_import(tmp_path):
    content = write_content(tmp_path, {"broken": "---\ntitle: [\n---\n"})
    with pytest.raises(BuildFailed, match="broken.md:3: YAML syntax error"):
        read_existing(content)


def test_the_report_groups_decisions_and_counts_them(tmp_path):
    files = {"mine": paper_source(title="Known", links={"arxiv": "2401.00001"})}
    result = plan(tmp_path, [incoming(abstract=""), incoming(origin="r.bib:9", title="Known",
                                                             links={})], files=files)
    lines = report_lines(result)
    assert lines[0] == "created (1):"
    assert lines[1].endswith("content/papers/sparse-attention.md  <- refs.bib:1")
    assert lines[2] == "skipped (1):"
    assert lines[3].startswith("  r.bib:9: exists as ")
    assert lines[4] == "drafts for want of an abstract (1):"
    assert lines[-1] == ("Import: 1 created, 0 updated, 0 unchanged, 1 skipped, 1 draft, "
                         "0 tag warnings.")


def test_the_report_names_what_the_readers_left_out_and_where(tmp_path):
    dropped = ("doi '10.1/x y' is not a valid doi id; left out",)
    result = plan(tmp_path, [incoming(dropped=dropped),
                             incoming(origin="r.bib:9", dropped=("url 'ftp://x' is not an "
                                                                 "http(s) URL; left out",))])
    assert result.left_out == ("refs.bib:1: doi '10.1/x y' is not a valid doi id; left out",
                               "r.bib:9: url 'ftp://x' is not an http(s) URL; left out")
    lines = report_lines(result)
    at = lines.index("left out of the sources (2):")
    assert lines[at + 1:at + 3] == ["  " + note for note in result.left_out]
    assert lines[at + 3].startswith("Import: 1 created")


def test_an_unquoted_arxiv_id_in_a_paper_file_stops_the_import_naming_its_line(tmp_path):
    unquoted = paper_source(title="Promptriever").replace(
        "abstract:", "links:\n  arxiv: 2409.11136\nabstract:")
    content = write_content(tmp_path, {"promptriever": unquoted})
    with pytest.raises(BuildFailed) as failed:
        read_existing(content)
    assert [str(e) for e in failed.value.errors] == [
        f"{content}/papers/promptriever.md:7: links.arxiv is the number 2409.11136, not text, so "
        "no paper can be matched to it; quote it as written: arxiv: '...'"]
