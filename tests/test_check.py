"""`build.py check`: the pure checks across the digest, and the command around them."""

import shutil
import time

from factories import REPO, SITE_YAML, make_paper, paper_source, write_content
from generator.cli import main
from generator.content.digest_checks import Finding, digest_findings
from generator.content.papers import Checked
from generator.model.records import Link

ARXIV = Link("arxiv", "arXiv", "https://arxiv.org/abs/2409.05657")


def checked(slug, tags_line=6, id_lines=(), **fields):
    """A Checked record of a paper made without files; every paper has a link unless told."""
    fields.setdefault("links", (Link("code", "Code", f"https://github.com/x/{slug}"),))
    return Checked(make_paper(slug, title=fields.pop("title", slug.title()), **fields), (),
                   tags_line, id_lines)


def test_a_clean_digest_has_no_findings():
    assert digest_findings([checked("a", tags=["llm"]), checked("b", tags=["llm", "rag"])]) == []


def test_an_arxiv_doi_and_the_arxiv_id_are_one_paper_named_at_the_later_files_link():
    doi = Link("doi", "DOI", "https://doi.org/10.48550/arXiv.2409.05657")
    findings = digest_findings([checked("a", links=(ARXIV,)),
                                checked("b", links=(doi,), id_lines=(("doi", 9),))])
    assert findings == [Finding(
        "content/papers/b.md", 1, "the same paper as content/papers/a.md: both have the arXiv "
        "id 2409.05657; keep one of the two files", "duplicate")]


def test_one_title_in_two_spellings_is_one_duplicate_even_when_an_id_is_shared_too():
    findings = digest_findings([
        checked("a", title="Attention Is All You Need", links=(ARXIV,)),
        checked("b", title="attention is all you need.", links=(ARXIV,), id_lines=(("arxiv", 8),))])
    assert [(f.path, f.line, f.kind) for f in findings] == [("content/papers/b.md", 8, "duplicate")]
    assert "both have the arXiv id 2409.05657" in findings[0].message
    only_title = digest_findings([checked("a", title="Attention Is All You Need"),
                                  checked("b", title="Attention is all you need!")])
    assert only_title[0].message == (
        "the same paper as content/papers/a.md: both have the title 'attention is all you "
        "need' (case and punctuation aside); keep one of the two files")


def test_one_title_with_two_arxiv_ids_is_two_papers_not_a_duplicate():
    other = Link("arxiv", "arXiv", "https://arxiv.org/abs/2406.99999")
    assert digest_findings([checked("a", title="Introduction", links=(ARXIV,)),
                            checked("b", title="Introduction", links=(other,)),
                            checked("c", title="Introduction!")]) == [Finding(
        "content/papers/c.md", 1, "the same paper as content/papers/a.md: both have the title "
        "'introduction' (case and punctuation aside); keep one of the two files", "duplicate")]


def test_c_cpp_and_csharp_are_three_tags_not_near_spellings():
    assert digest_findings([checked("a", tags=["C"]), checked("b", tags=["C++"]),
                            checked("c", tags=["C#"])]) == []


def test_thousands_of_distinct_tags_are_checked_without_comparing_each_pair():
    # why: near spellings were found by comparing every pair of tags, 299 s for a conference's
    # keywords; the bound only catches that blow-up (bench/import_bench.py --openreview 3700)
    papers = [checked(f"p{n}", tags=[f"topic {n} of {n % 97}", f"Topics {n} of {n % 97}"])
              for n in range(1500)]
    started = time.process_time()
    findings = digest_findings(papers)
    assert time.process_time() - started < 10
    assert len(findings) == 1500 and {f.kind for f in findings} == {"near-tags"}


def test_near_tags_name_both_spellings_and_their_files_at_the_rarer_one():
    findings = digest_findings([checked("a", tags=["llm"]), checked("b", tags=["llm"]),
                                checked("c", tags=["LLMs"], tags_line=7)])
    assert findings == [Finding(
        "content/papers/c.md", 7, "tag 'LLMs' (in content/papers/c.md) is near tag 'llm' (in "
        "content/papers/a.md, content/papers/b.md); spell them the same so they share one page",
        "near-tags")]


def test_two_spellings_of_one_tags_page_are_said_to_share_it():
    findings = digest_findings([checked("a", tags=["llm"]), checked("b", tags=["LLM"])])
    assert [f.message for f in findings] == [
        "tag 'LLM' (in content/papers/b.md) is near tag 'llm' (in content/papers/a.md); they "
        "share one page, named as its newest paper spells it; spell them the same"]


def test_a_tag_used_by_many_files_names_three_of_them():
    papers = [checked(f"p{n}", tags=["large-language-models"]) for n in range(5)]
    [finding] = digest_findings(papers + [checked("z", tags=["LLM"])])
    assert finding.message == (
        "tag 'LLM' (in content/papers/z.md) is near tag 'large-language-models' (in "
        "content/papers/p0.md, content/papers/p1.md, content/papers/p2.md and 2 more); spell "
        "them the same so they share one page")


def test_a_published_paper_without_links_is_a_finding_a_draft_is_not():
    findings = digest_findings([checked("a", links=()), checked("d", links=(), draft=True)])
    assert findings == [Finding(
        "content/papers/a.md", 1, "no links: add links.arxiv, links.openreview, links.doi or "
        "links.pdf so a reader can find the paper", "no-link")]


def test_a_placeholder_left_in_a_published_paper_is_a_finding():
    findings = digest_findings([
        checked("a", title="TODO: title of arXiv 1", authors=("TODO: First Author",)),
        checked("d", title="TODO: title of arXiv 2", draft=True)])
    assert [str(f) for f in findings] == [
        "content/papers/a.md:1: 'authors' still holds a placeholder 'TODO: ...'; write the "
        "paper's authors",
        "content/papers/a.md:1: 'title' still holds a placeholder 'TODO: ...'; write the "
        "paper's title"]


def test_files_that_are_not_papers_are_left_to_their_errors():
    assert digest_findings([Checked(None, (), 1), checked("a")]) == []


# The command, in a folder of its own.

def check(tmp_path, monkeypatch, capsys, papers, *args, site_yaml=SITE_YAML):
    write_content(tmp_path, papers, site_yaml)
    monkeypatch.chdir(tmp_path)
    code = main(["check", *args])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


LINKED = {"links": {"arxiv": "2409.05657"}}


def test_a_clean_digest_passes_and_nothing_is_written(tmp_path, monkeypatch, capsys):
    papers = {"a": paper_source(title="A", **LINKED),
              "d": paper_source(title="D", draft=True)}
    assert check(tmp_path, monkeypatch, capsys, papers, "--strict") == (
        0, ["2 papers (1 draft), 0 errors, 0 warnings"], [])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content"]


def test_errors_are_those_of_a_build_with_file_and_line(tmp_path, monkeypatch, capsys):
    papers = {"x": paper_source(date="someday", **LINKED), "y": paper_source(title="Y", **LINKED)}
    code, out, err = check(tmp_path, monkeypatch, capsys, papers)
    assert code == 1
    assert err == ["content/papers/x.md:5: 'date' must be YYYY-MM-DD, got 'someday'"]
    assert out == ["2 papers, 1 error, 0 warnings"]


def test_findings_are_warnings_unless_strict(tmp_path, monkeypatch, capsys):
    papers = {"a": paper_source(title="Same", **LINKED), "b": paper_source(title="same.")}
    code, out, err = check(tmp_path, monkeypatch, capsys, papers)
    duplicate = ("content/papers/b.md:2: the same paper as content/papers/a.md: both have the "
                 "title 'same' (case and punctuation aside); keep one of the two files")
    unlinked = ("content/papers/b.md:2: no links: add links.arxiv, links.openreview, links.doi "
                "or links.pdf so a reader can find the paper")
    assert (code, err) == (0, [])
    warned = [line.replace(":2: ", ":2: warning: ", 1) for line in (unlinked, duplicate)]
    assert out == [*warned, "2 papers, 0 errors, 2 warnings"]
    code, out, err = check(tmp_path, monkeypatch, capsys, papers, "--strict")
    assert (code, err, out) == (1, [unlinked, duplicate], ["2 papers, 2 errors, 0 warnings"])


PLACEHELD = """---
# Made by `build.py new`: replace each TODO, then delete `draft: true` to publish.
# a comment
date: 2025-04-24
title: 'TODO: title of arXiv 1706.03762'
authors:
  - Ada Lovelace
  - 'TODO: First Author'
links:                    # ids or http(s) URLs
  # arxiv: '2406.16257'
  pdf: https://example.org/a.pdf
abstract: |-
  TODO: paste the abstract as arXiv or OpenReview gives it.
---
"""


def test_strict_points_at_the_line_of_each_placeholder_and_at_links(tmp_path, monkeypatch,
                                                                    capsys):
    """A placeholder is reported on its own line; a missing link on the `links:` line, else on
    the `title:` line."""
    linked = "links:                    # ids or http(s) URLs\n  # arxiv: '2406.16257'\n"
    titled = PLACEHELD.replace("'TODO: title of arXiv 1706.03762'", "B")
    papers = {"a": PLACEHELD,
              "b": titled.replace(linked + "  pdf: https://example.org/a.pdf\n", "links: {}\n"),
              "c": titled.replace(linked + "  pdf: https://example.org/a.pdf\n", "")
                         .replace("title: B", "title: C")}
    code, out, err = check(tmp_path, monkeypatch, capsys, papers, "--strict")
    assert (code, out) == (1, ["3 papers, 9 errors, 0 warnings"])
    assert [line.partition(" still")[0].partition(" add")[0] for line in err] == [
        "content/papers/a.md:5: 'title'", "content/papers/a.md:8: 'authors'",
        "content/papers/a.md:13: 'abstract'",
        "content/papers/b.md:8: 'authors'", "content/papers/b.md:9: no links:",
        "content/papers/b.md:11: 'abstract'",
        "content/papers/c.md:5: no links:", "content/papers/c.md:8: 'authors'",
        "content/papers/c.md:10: 'abstract'"]



def test_errors_and_findings_come_in_one_pass(tmp_path, monkeypatch, capsys):
    papers = {"a": paper_source(title="A", tags=["llm"], **LINKED),
              "b": paper_source(title="B", tags=["llms"], links={"openreview": "odvSjn416y"}),
              "c": paper_source(title=None)}
    code, out, err = check(tmp_path, monkeypatch, capsys, papers)
    assert code == 1
    assert err == ["content/papers/c.md:1: missing required 'title'; add a line 'title: ...'"]
    assert out == ["content/papers/a.md:7: warning: tag 'llm' (in content/papers/a.md) is near tag "
                   "'llms' (in content/papers/b.md); spell them the same so they share one page",
                   "3 papers, 1 error, 1 warning"]


def test_a_build_warning_is_a_check_warning(tmp_path, monkeypatch, capsys):
    code, out, err = check(tmp_path, monkeypatch, capsys, {})
    assert (code, err) == (0, [])
    assert out == ["warning: content/papers has no .md file: the site has no papers",
                   "0 papers, 0 errors, 1 warning"]


def test_a_missing_site_config_stops_the_check_as_it_stops_a_build(tmp_path, monkeypatch, capsys):
    write_content(tmp_path, {"a": paper_source()})
    (tmp_path / "content/site.yaml").unlink()
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "content/site.yaml:1: site config not found; create it with at least 'title:' and "
        "'base_url:'", "1 error; no paper was checked"]


def test_check_reads_another_content_folder(tmp_path, monkeypatch, capsys):
    write_content(tmp_path / "other", {"a": paper_source(**LINKED)})
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--content", "other/content"]) == 0
    assert capsys.readouterr().out == "1 paper, 0 errors, 0 warnings\n"


def test_a_guessed_latex_macro_is_a_finding_that_fails_a_strict_check(tmp_path, capsys):
    content = tmp_path / "content"
    shutil.copytree(REPO / "content", content)
    paper = content / "papers" / "agentoccam.md"
    text = paper.read_text(encoding="utf-8")
    paper.write_text(text.replace("abstract: |-\n", "abstract: |-\n  A bound of $\\gap^2$.\n", 1),
                     encoding="utf-8")
    assert main(["check", "--content", str(content)]) == 0
    assert capsys.readouterr().out.endswith(
        "agentoccam.md:20: warning: unknown LaTeX macro \\gap shown as its name\n"
        "19 papers, 0 errors, 1 warning\n")
    assert main(["check", "--strict", "--content", str(content)]) == 1
    assert capsys.readouterr().err.endswith(
        "agentoccam.md:20: unknown LaTeX macro \\gap shown as its name\n")
